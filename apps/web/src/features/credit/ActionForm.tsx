import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';

/**
 * The account's small forms (a detracción deposit, a collection's void, sending the statement):
 * their fields, then the API's Spanish refusal, then 'Cancelar' and the action. Enter submits; a
 * success toasts and closes.
 */
export function ActionForm<V, R>({
  children,
  mutation,
  values,
  submitLabel,
  success,
  danger = false,
  onDone,
}: {
  children: ReactNode;
  mutation: UseMutationResult<R, Error, V>;
  values: V;
  submitLabel: string;
  success: string;
  danger?: boolean;
  onDone(): void;
}) {
  const [error, setError] = useState<string | null>(null);
  return (
    <Stack
      gap="sm"
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        mutation.mutate(values, {
          onSuccess: () => {
            notify.success(success);
            onDone();
          },
          onError: (err) => setError(errorMessage(err)),
        });
      }}
    >
      {children}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancelar
        </Button>
        <Button type="submit" color={danger ? 'red' : undefined} loading={mutation.isPending}>
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}
