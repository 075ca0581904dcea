import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { errorMessage } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';

/**
 * The account's small forms (a detracción deposit, a collection's void, sending the statement):
 * their fields, then the API's Spanish refusal, then 'Cancelar' and the action. Enter submits; a
 * success toasts and closes. `validate` runs the domain's rule before any request (issue 38: the
 * message on the field, not only the server's refusal).
 */
export function ActionForm<V, R>({
  children,
  mutation,
  values,
  submitLabel,
  success,
  danger = false,
  validate = () => true,
  onDone,
}: {
  children: ReactNode;
  mutation: UseMutationResult<R, Error, V>;
  values: V;
  submitLabel: string;
  success: string;
  danger?: boolean;
  validate?: () => boolean;
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
        if (!validate()) return;
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
