import { Group, Paper, SimpleGrid, Title } from '@mantine/core';
import { Field } from '../../../components/ui/Field.tsx';
import { StatusChip } from '../../../components/ui/StatusChip.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import type { Shipment } from '@tramo/domain';

/**
 * What the counter reads of a found shipment, on Rastreo and on Entregas. `docApart` gives the
 * recipient's document a field of its own (Entregas checks it against the receiver's ID).
 */
export function ShipmentSummary({ shipment, docApart = false }: { shipment: Shipment; docApart?: boolean }) {
  // The API returns the history oldest first.
  const last = shipment.checkpoints?.at(-1);
  return (
    <Paper withBorder p="md" aria-label={`Envío ${shipment.code}`} component="section">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3">
          {shipment.code}
        </Title>
        <StatusChip status={shipment.status} size="lg" />
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
        <Field label="Origen">{shipment.originBranch.name}</Field>
        <Field label="Destino">{shipment.destinationBranch.name}</Field>
        <Field label="Remitente">{shipment.senderName}</Field>
        {docApart ? (
          <>
            <Field label="Destinatario">{shipment.recipientName}</Field>
            <Field label="DNI/RUC">{shipment.recipientDoc}</Field>
          </>
        ) : (
          <Field label="Destinatario">
            {shipment.recipientName} · {shipment.recipientDoc}
          </Field>
        )}
        <Field label="Creado">{formatDateTime(shipment.createdAt)}</Field>
        <Field label="Descripción">{shipment.description || '—'}</Field>
        <Field label="Último evento">{last ? `${last.name} · ${formatDateTime(last.at)}` : '—'}</Field>
      </SimpleGrid>
    </Paper>
  );
}
