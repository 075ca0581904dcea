import { useState } from 'react';
import { Alert, Badge, Button, Group, Image, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { INCIDENT_REASON_LABELS, INCIDENT_REASONS, type IncidentReason } from '@tramo/domain';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notify } from '../../../lib/notify.ts';
import { PhotoInput } from '../../deliveries/index.ts';
import { useCloseIncident, useCreateIncident, useShipmentIncidents } from '../api.ts';

const reasonOptions = INCIDENT_REASONS.map((r) => ({ value: r, label: INCIDENT_REASON_LABELS[r] }));

/** A shipment's incidents (issue 17): the open ones first, a form to record one, and closing. */
export function ShipmentIncidents({ shipmentId }: { shipmentId: number }) {
  const incidents = useShipmentIncidents(shipmentId);
  const create = useCreateIncident();
  const close = useCloseIncident();
  const [reason, setReason] = useState<IncidentReason | null>(null);
  const [note, setNote] = useState('');
  const [photo, setPhoto] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rows = incidents.data ?? [];

  const submit = () => {
    if (!reason) {
      setError('Selecciona un motivo.');
      return;
    }
    create.mutate(
      { shipmentId, input: { reason, note, ...(photo ? { photo } : {}) } },
      {
        onSuccess: () => {
          notify.success('Incidencia registrada.');
          setAdding(false);
          setReason(null);
          setNote('');
          setPhoto(null);
          setError(null);
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <Paper withBorder p="sm" aria-label="Incidencias">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h5">
          Incidencias
        </Title>
        {!adding && (
          <Button size="xs" variant="light" color="red" onClick={() => setAdding(true)}>
            Registrar incidencia
          </Button>
        )}
      </Group>
      {adding && (
        <Stack gap="xs" mb="sm">
          <Select label="Motivo" data={reasonOptions} value={reason} onChange={(v) => setReason(v as IncidentReason | null)} autoFocus withAsterisk />
          <Textarea label="Nota" value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={500} autosize minRows={2} />
          <PhotoInput label="Foto de la incidencia" value={photo} onChange={setPhoto} required={false} />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" size="xs" onClick={() => setAdding(false)}>
              Cancelar
            </Button>
            <Button size="xs" color="red" onClick={submit} loading={create.isPending}>
              Registrar
            </Button>
          </Group>
        </Stack>
      )}
      {rows.length === 0 ? (
        <Text size="sm" c="dark.4">
          Sin incidencias.
        </Text>
      ) : (
        <Stack gap={6}>
          {rows.map((i) => (
            <Group key={i.id} justify="space-between" wrap="nowrap" align="flex-start">
              <div style={{ flex: 1, minWidth: 0 }}>
                <Group gap={6}>
                  <Badge color={i.closedAt ? 'gray' : 'red'} variant="light" tt="none">
                    {i.closedAt ? 'Cerrada' : 'Abierta'}
                  </Badge>
                  <Text size="sm" fw={600}>
                    {INCIDENT_REASON_LABELS[i.reason]}
                  </Text>
                </Group>
                <Text size="xs" c="dark.4">
                  {formatDateTime(i.createdAt)} · {i.createdByName ?? '—'}
                  {i.note ? ` · ${i.note}` : ''}
                </Text>
                {i.compensation && (
                  <Text size="xs" fw={600} c="dark.6" mt={2}>
                    {i.compensation.description}
                  </Text>
                )}
                {i.photo && (
                  <Image
                    src={i.photo}
                    alt={`Foto de la incidencia: ${INCIDENT_REASON_LABELS[i.reason]}`}
                    h={96}
                    w="auto"
                    fit="contain"
                    radius="sm"
                    mt={4}
                  />
                )}
              </div>
              {!i.closedAt && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  style={{ flexShrink: 0 }}
                  loading={close.isPending && close.variables === i.id}
                  onClick={() => close.mutate(i.id, { onSuccess: () => notify.success('Incidencia cerrada.'), onError: (err) => notify.error(err) })}
                >
                  Cerrar
                </Button>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
