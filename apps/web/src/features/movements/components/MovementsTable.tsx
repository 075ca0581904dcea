import type { ReactNode } from 'react';
import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { MovementRow, PaymentStatus } from '@tramo/domain';
import { TableSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { formatDateTime, formatMoney } from '../../../lib/format.ts';

const STATUS_COLORS: Record<PaymentStatus, string> = { pending: 'yellow', paid: 'teal', canceled: 'red' };

const dash = (v: string | number | null | undefined): ReactNode => (v === null || v === undefined || v === '' ? '—' : v);

/**
 * Spec section 3 'Movement (report row)': the 16 columns, in the CSV's order, and after 'Sucursal'
 * (the branch that collected) the branch that sold the shipment (issue 33), which the CSV leaves out.
 */
const COLUMNS: readonly { header: string; title?: string; cell(r: MovementRow): ReactNode; right?: boolean; width?: number }[] = [
  {
    header: 'Fecha',
    cell: (r) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(r.date)}
      </Text>
    ),
  },
  { header: 'Sucursal', title: 'Sucursal que cobró', cell: (r) => dash(r.branchName) },
  {
    header: 'Sucursal de venta',
    title: 'Sucursal que vendió el envío (su origen)',
    cell: (r) => (
      <Group gap={6} wrap="nowrap">
        <span>{dash(r.soldBranchName)}</span>
        {r.paymentMoment === 'destino' && (
          <Badge size="xs" variant="light" color="grape" tt="none">
            Pago en destino
          </Badge>
        )}
      </Group>
    ),
  },
  { header: 'Cobrado por', cell: (r) => dash(r.collectedByName) },
  { header: 'ID usuario', cell: (r) => dash(r.collectedByUserId), right: true },
  { header: 'Método', cell: (r) => r.methodName },
  {
    header: 'Monto',
    right: true,
    cell: (r) => (
      <Text size="sm" ff="monospace" td={r.status === 'canceled' ? 'line-through' : undefined}>
        {formatMoney(r.amount)}
      </Text>
    ),
  },
  { header: 'Moneda', cell: (r) => r.currency },
  {
    header: 'Estado',
    cell: (r) => (
      // Never truncated ('PAG…' could be any status), in the statuses' own case like every chip.
      <Badge
        variant="light"
        tt="none"
        color={STATUS_COLORS[r.status]}
        styles={{ root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } }}
      >
        {r.statusLabel}
      </Badge>
    ),
  },
  { header: 'Pagador', cell: (r) => <span className="user-text">{dash(r.payerName)}</span> },
  { header: 'Cliente', cell: (r) => <span className="user-text">{dash(r.customerName)}</span> },
  { header: 'Referencia', cell: (r) => dash(r.reference) },
  {
    header: 'Envío',
    cell: (r) =>
      r.shipmentId && r.shipmentCode ? (
        <Anchor component={Link} to={`/shipments/${r.shipmentId}`} size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {r.shipmentCode}
        </Anchor>
      ) : (
        dash(r.shipmentCode)
      ),
  },
  { header: 'Placa', cell: (r) => dash([r.platePrimary, r.plateSecondary].filter(Boolean).join(' / ')) },
  { header: 'Conductores', cell: (r) => dash(r.drivers) },
  {
    header: 'Descripción',
    cell: (r) => (
      <Text size="sm" lineClamp={2} maw={220} title={r.shipmentDescription ?? undefined}>
        {dash(r.shipmentDescription)}
      </Text>
    ),
  },
  {
    header: 'ID operación',
    cell: (r) => (
      <Text size="sm" ff="monospace">
        {dash(r.providerTxId)}
      </Text>
    ),
  },
];

/** The report's page of movements; wide, so it scrolls sideways inside its Paper. */
export function MovementsTable({ rows, loading, dimmed }: { rows: MovementRow[] | null; loading: boolean; dimmed?: boolean }) {
  return (
    <Table highlightOnHover verticalSpacing={6} horizontalSpacing="xs" miw={1960} style={{ opacity: dimmed ? 0.6 : 1 }}>
      <Table.Thead>
        <Table.Tr>
          {COLUMNS.map((c) => (
            <Table.Th key={c.header} ta={c.right ? 'right' : undefined} title={c.title} style={{ whiteSpace: 'nowrap' }}>
              {c.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {loading ? (
          <TableSkeleton cols={COLUMNS.length} />
        ) : !rows || rows.length === 0 ? (
          <Table.Tr>
            <Table.Td colSpan={COLUMNS.length}>
              <Text c="dimmed" py="md" style={{ position: 'sticky', left: 0 }} w="min(100vw, 600px)" ta="center">
                Sin resultados con los filtros actuales.
              </Text>
            </Table.Td>
          </Table.Tr>
        ) : (
          rows.map((r) => (
            <Table.Tr key={r.id}>
              {COLUMNS.map((c) => (
                <Table.Td key={c.header} ta={c.right ? 'right' : undefined}>
                  {c.cell(r)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
}
