import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notify } from '../../lib/notify.ts';

interface ConfirmOptions {
  title: string;
  message: string;
  confirmLabel?: string;
  /** Red for destructive actions (the default); a non-destructive confirmation uses the brand colour. */
  color?: string;
}

/** Every destructive action asks first; resolves true only on an explicit confirmation. */
export function confirmDanger(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: options.title,
      children: <Text size="sm">{options.message}</Text>,
      labels: { confirm: options.confirmLabel ?? 'Eliminar', cancel: 'Cancelar' },
      confirmProps: { color: options.color ?? 'red' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}

type Mutate<V> = (variables: V, options: { onSuccess(): void; onError(err: unknown): void }) => void;

/** Asks, then runs the mutation, ending in the success toast or the server's Spanish error. */
export async function confirmThenMutate<V>(options: ConfirmOptions & { success: string }, mutate: Mutate<V>, variables: V) {
  if (!(await confirmDanger(options))) return;
  mutate(variables, { onSuccess: () => notify.success(options.success), onError: (err) => notify.error(err) });
}
