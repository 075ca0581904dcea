import type { FormEventHandler, ReactNode } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';

interface SideFormProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** A server message no field took (spec section 8: "others as a form alert"). */
  alert: string | null;
  submitting: boolean;
  submitLabel: string;
  submitDisabled?: boolean;
  onCancel(): void;
  children: ReactNode;
}

/** The create/edit form of a side drawer: the alert on top, the fields, Cancelar and the submit button. */
export function SideForm({ onSubmit, alert, submitting, submitLabel, submitDisabled, onCancel, children }: SideFormProps) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        {alert && (
          <Alert color="red" variant="light" role="alert">
            {alert}
          </Alert>
        )}
        {children}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel}>
            Cancelar
          </Button>
          <Button type="submit" loading={submitting} disabled={submitDisabled}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
