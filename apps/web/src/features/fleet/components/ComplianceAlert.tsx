import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { canManageArea, complianceOverrideSchema, type Transport } from '@tramo/domain';
import { applyServerErrors } from '../../../lib/forms.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { useCurrentUser } from '../../../lib/session.ts';
import { useCompliance, useCreateOverride } from '../api/compliance.ts';

/**
 * The document gate on the load screen (issue 36): what stops the transport, and for an admin the
 * one-departure exception with its reason; once granted, who allowed it and why.
 */
export function ComplianceAlert({ transport }: { transport: Transport }) {
  const user = useCurrentUser();
  const compliance = useCompliance(transport.id);
  const [asking, setAsking] = useState(false);
  const { refusal, override } = compliance.data ?? { refusal: null, override: null };
  if (!refusal) return null;
  if (override)
    return (
      <Alert color="yellow" variant="light" role="status" mt="sm" title="Salida autorizada con documentos vencidos">
        {override.refusal} {override.createdByName} autorizó una salida el {formatDateTime(override.createdAt)}. Motivo: {override.reason}
      </Alert>
    );
  return (
    <Alert color="red" variant="light" role="alert" mt="sm" title="No puede cargar ni salir">
      <Group justify="space-between" align="center" gap="sm">
        <Text size="sm">{refusal}</Text>
        {canManageArea(user, 'fleetCompliance') && (
          <Button size="xs" color="red" variant="outline" onClick={() => setAsking(true)}>
            Autorizar salida
          </Button>
        )}
      </Group>
      <Modal opened={asking} onClose={() => setAsking(false)} title={`Autorizar una salida de ${transport.plate_primary}`}>
        {asking && <OverrideForm transportId={transport.id} refusal={refusal} onDone={() => setAsking(false)} />}
      </Modal>
    </Alert>
  );
}

function OverrideForm({ transportId, refusal, onDone }: { transportId: number; refusal: string; onDone(): void }) {
  const create = useCreateOverride(transportId);
  const [alert, setAlert] = useState<string | null>(null);
  const form = useForm<{ reason: string }>({ mode: 'onTouched', resolver: zodResolver(complianceOverrideSchema), defaultValues: { reason: '' } });
  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    create.mutate(values.reason, {
      onSuccess: () => {
        notify.success('Salida autorizada: vale para una sola salida y queda en el manifiesto.');
        onDone();
      },
      onError: (err) => setAlert(applyServerErrors(err, form.setError, ['reason'])),
    });
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{refusal}</Text>
        <Text size="sm" c="dark.4">
          La excepción permite cargar y una sola salida. Queda auditada e impresa en el manifiesto de carga.
        </Text>
        {alert && (
          <Alert color="red" variant="light" role="alert">
            {alert}
          </Alert>
        )}
        <Textarea
          label="Motivo"
          withAsterisk
          autoFocus
          autosize
          minRows={3}
          {...form.register('reason')}
          error={form.formState.errors.reason?.message}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancelar
          </Button>
          <Button type="submit" color="red" loading={create.isPending}>
            Autorizar salida
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
