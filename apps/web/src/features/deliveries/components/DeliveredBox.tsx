import { Alert, Box, SimpleGrid } from '@mantine/core';
import { formatDateTime } from '../../../lib/format.ts';
import type { Shipment } from '@tramo/domain';
import { Field } from '../../../components/ui/Field.tsx';
import { DeliveryProofView } from './DeliveryProofView.tsx';

/** A delivered shipment shows who received it instead of the form. */
export function DeliveredBox({ shipment, info }: { shipment: Shipment; info: NonNullable<Shipment['deliveredInfo']> }) {
  return (
    <section aria-label="Entrega registrada">
      <Alert color="teal" variant="light" title="Envío entregado">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs">
          <Field label="Recibió">{info.receiverName ?? '—'}</Field>
          <Field label="Documento">{info.receiverDoc ?? '—'}</Field>
          <Field label="Entregado por">{info.deliveredByName ?? '—'}</Field>
          <Field label="Fecha">{formatDateTime(info.deliveredAt)}</Field>
        </SimpleGrid>
        <Box mt="xs">
          <Field label="Notas">{info.notes || '—'}</Field>
        </Box>
        <Box mt="sm">
          <DeliveryProofView shipment={shipment} />
        </Box>
      </Alert>
    </section>
  );
}
