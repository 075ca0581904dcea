import { type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { focusFirstInvalid } from '../../lib/forms.ts';

interface SideFormProps {
  /** A react-hook-form handleSubmit: the focus moves once it has judged the values. */
  onSubmit(event: FormEvent<HTMLFormElement>): unknown;
  /** A server message no field took (spec section 8: "others as a form alert"). */
  alert: string | null;
  submitting: boolean;
  submitLabel: string;
  onCancel(): void;
  children: ReactNode;
}

/** The create/edit form of a side drawer: the alert on top, the fields, Cancelar and the submit button. */
export function SideForm({ onSubmit, alert, submitting, submitLabel, onCancel, children }: SideFormProps) {
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    await onSubmit(event);
    focusFirstInvalid(form);
  };
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
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
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
