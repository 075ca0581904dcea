import { Badge, Button, Paper, Table, Text } from '@mantine/core';
import { collectableAtCounter } from '@tramo/domain';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';
import type { CollectShipment } from '../api/payments.ts';
import { ActionsTh } from '../../../components/ui/ActionsTh.tsx';

/** Codes, amounts and chips stay on one line; the sender's name wraps instead (the 1024 tablet). */
const NOWRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** Today's shipments to collect (Creado, created today): the pill says whether each is paid. */
export function CollectTable({
  rows,
  loading,
  onCollect,
  label = 'Envíos por cobrar hoy',
}: {
  rows: readonly CollectShipment[];
  loading: boolean;
  onCollect(s: CollectShipment): void;
  label?: string;
}) {
  // Pago en destino is collected once the parcel is here; one still on its way shows 'En camino'.
  const collectable = (s: CollectShipment) => !s.paid && s.paymentStatus !== 'pending' && collectableAtCounter(s, new Date());
  return (
    <Paper withBorder style={{ overflowX: 'auto' }}>
      <Table verticalSpacing={6} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Código</Table.Th>
            <Table.Th>Hora</Table.Th>
            <Table.Th>Remitente</Table.Th>
            <Table.Th>Ruta</Table.Th>
            <Table.Th ta="right">Precio</Table.Th>
            <Table.Th>Estado de pago</Table.Th>
            <ActionsTh w={110} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={7}>
                <Text c="dimmed" ta="center" py="md">
                  {loading ? 'Cargando…' : 'Sin registros.'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            rows.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td ff="monospace" {...NOWRAP}>
                  {s.code}
                </Table.Td>
                <Table.Td {...NOWRAP}>{formatDateTime(s.createdAt).slice(11)}</Table.Td>
                <Table.Td>
                  <Text size="sm" className="user-text">
                    {s.senderName}
                  </Text>
                  {s.senderDoc && (
                    <Text size="xs" c="dimmed">
                      {s.senderDoc}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  {s.originBranch.name} → {s.destinationBranch.name}
                </Table.Td>
                <Table.Td ta="right" ff="monospace" {...NOWRAP}>
                  {formatMoney(s.quotedPrice)}
                </Table.Td>
                <Table.Td>
                  {/* The label's own ellipsis would let a narrow column cut it ('No pag…'): it keeps its width. */}
                  <Badge variant="light" tt="none" color={s.paid ? 'teal' : 'gray'} styles={{ label: { overflow: 'visible' } }}>
                    {s.pill}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {!collectable(s) && s.paymentMoment === 'destino' && s.status === 'En tránsito' && (
                    <Text size="xs" c="dimmed">
                      En camino
                    </Text>
                  )}
                  {collectable(s) && (
                    <Button size="xs" variant="light" onClick={() => onCollect(s)}>
                      Cobrar
                    </Button>
                  )}
                  {s.paymentStatus === 'pending' && (
                    <Text size="xs" c="orange.8">
                      Pago pendiente
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
