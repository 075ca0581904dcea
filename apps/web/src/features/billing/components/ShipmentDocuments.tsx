import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SUNAT_DOCUMENT_LABELS } from '@tramo/domain';
import { formatMoney } from '../../../lib/format.ts';
import { useDocuments } from '../api/documents.ts';
import { DocumentStatusBadge } from './DocumentStatusBadge.tsx';

/** A guide carries no amount: it documents the transfer, not a sale. */
const isGuide = (type: string) => type === '09' || type === '31';

/** The documents a shipment is billed on or travels under (voided ones too, so its history reads whole). */
export function ShipmentDocuments({ shipmentId }: { shipmentId: number }) {
  const docs = useDocuments({ shipmentId, page: 1, pageSize: 10 });
  const items = docs.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Paper withBorder p="md" component="section" aria-label="Comprobantes y guías">
      <Title order={2} size="h4" mb="xs">
        Comprobantes y guías
      </Title>
      <Stack gap={6}>
        {items.map((d) => (
          <Group key={d.id} justify="space-between" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <Anchor component={Link} to={`/billing/preview?tab=comprobantes&doc=${d.id}`} ff="monospace" size="sm">
                {d.fullNumber}
              </Anchor>
              <Text size="sm" c="dimmed">
                {SUNAT_DOCUMENT_LABELS[d.type]}
                {isGuide(d.type) ? '' : ` · ${formatMoney(d.total)}`}
              </Text>
            </Group>
            <DocumentStatusBadge status={d.status} />
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
