import type { ReactNode } from 'react';
import { Badge, Stack, Table, Text, type TableProps, type TableTdProps } from '@mantine/core';
import { Link } from 'react-router';
import { TableSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { StatusChip } from '../../../components/ui/StatusChip.tsx';
import { formatDateTime, formatMoney, formatWeight } from '../../../lib/format.ts';
import type { ShipmentListRow, ShipmentSearchRow } from '@tramo/domain';
import { ActionsTh } from '../../../components/ui/ActionsTh.tsx';

/** Columns every row has, the tracking search's narrow row included. */
export type ShipmentSearchColumn = 'code' | 'createdAt' | 'origin' | 'destination' | 'recipient' | 'recipientDoc' | 'status';
/** Columns only the list's full row has. */
type ListColumn = 'sender' | 'weight' | 'price';
export type ShipmentColumn = ShipmentSearchColumn | ListColumn;
/** The columns a row type can fill: the narrow search row cannot show sender, weight or price. */
type ColumnOf<R> = R extends ShipmentListRow ? ShipmentColumn : ShipmentSearchColumn;

const NOWRAP = { style: { whiteSpace: 'nowrap' } } as const;
const AMOUNT = { ta: 'right', ...NOWRAP } as const;

interface Column<R> {
  header: string;
  cell(s: R, options: { linkCode: boolean; nameWidth?: number }): ReactNode;
  td?: TableTdProps;
  /** Amounts line up on the right, header included. */
  right?: boolean;
}

/** A name that may be long: one line, cut with its full text on hover, when the table is dense. */
function Name({ text, width }: { text: string; width?: number }) {
  if (width === undefined) return <span className="user-text">{text}</span>;
  return (
    <Text size="sm" lineClamp={1} maw={width} title={text} className="user-text">
      {text}
    </Text>
  );
}

const COLUMNS: Record<ShipmentSearchColumn, Column<ShipmentSearchRow>> & Record<ListColumn, Column<ShipmentListRow>> = {
  code: {
    header: 'Código',
    cell: (s, { linkCode }) =>
      linkCode ? (
        <Link to={`/shipments/${s.id}`} style={{ color: 'inherit' }}>
          {s.code}
        </Link>
      ) : (
        s.code
      ),
    td: { fw: 600, ...NOWRAP },
  },
  createdAt: { header: 'Fecha', cell: (s) => formatDateTime(s.createdAt), td: NOWRAP },
  origin: { header: 'Origen', cell: (s) => s.originBranch.name },
  destination: { header: 'Destino', cell: (s) => s.destinationBranch.name },
  sender: { header: 'Remitente', cell: (s, { nameWidth }) => <Name text={s.senderName} width={nameWidth} /> },
  recipient: { header: 'Destinatario', cell: (s, { nameWidth }) => <Name text={s.recipientName} width={nameWidth} /> },
  recipientDoc: { header: 'DNI/RUC', cell: (s) => s.recipientDoc },
  weight: { header: 'Peso', cell: (s) => formatWeight(s.weightKg), td: AMOUNT, right: true },
  price: { header: 'Precio', cell: (s) => formatMoney(s.quotedPrice), td: AMOUNT, right: true },
  status: {
    header: 'Estado',
    // The list's full row says who collects at the destination (issue 33); the narrow search row has no such field.
    cell: (s) =>
      'paymentMoment' in s && s.paymentMoment === 'destino' ? (
        // Stacked, so the column is no wider than its widest chip (the list fits 1024 wide).
        <Stack gap={2} align="flex-start">
          <StatusChip status={s.status} />
          <Badge
            size="sm"
            color="orange"
            variant="light"
            tt="none"
            radius="sm"
            // Never truncated, as the status chip: 'Paga…' would say nothing.
            styles={{ root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } }}
          >
            Paga destino
          </Badge>
        </Stack>
      ) : (
        <StatusChip status={s.status} />
      ),
    td: NOWRAP,
  },
};

export interface ShipmentsTableProps<R extends ShipmentSearchRow> extends Omit<TableProps, 'children'> {
  /** null: nothing asked yet (or the filters are invalid), so no rows and no empty text either. */
  rows: readonly R[] | null;
  loading: boolean;
  columns: readonly ColumnOf<R>[];
  /**
   * DESIGN 2a: on a 1024 px tablet these secondary columns step aside so status and the row's
   * action stay in view.
   */
  wideOnly?: readonly ColumnOf<R>[];
  /** The code opens the shipment's page (the list's rows). */
  linkCode?: boolean;
  /** Sender and recipient names are cut to this width in dense tables. */
  nameWidth?: number;
  skeletonRows?: number;
  /** The row that is open beside the table (tracking, deliveries). */
  selectedCode?: string | null;
  /** What each row ends with: a link, the row's actions, an open button. */
  action?(shipment: R): ReactNode;
  actionWidth?: number;
}

/** The one shipments table: the Panel's latest, the list, and the search results of tracking and deliveries. */
export function ShipmentsTable<R extends ShipmentSearchRow>({
  rows,
  loading,
  columns,
  wideOnly = [],
  linkCode = false,
  nameWidth,
  skeletonRows = 5,
  selectedCode,
  action,
  actionWidth,
  ...table
}: ShipmentsTableProps<R>) {
  const span = columns.length + (action ? 1 : 0);
  const visibleFrom = (c: ColumnOf<R>) => (wideOnly.includes(c) ? 'lg' : undefined);
  // ColumnOf<R> only admits the list's columns when R is a full list row, so the cast below is sound.
  const cell = (c: ShipmentColumn, s: R) => (COLUMNS[c] as Column<R>).cell(s, { linkCode, nameWidth });
  return (
    <Table {...table}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (
            <Table.Th key={c} visibleFrom={visibleFrom(c)} ta={COLUMNS[c].right ? 'right' : undefined}>
              {COLUMNS[c].header}
            </Table.Th>
          ))}
          {action && <ActionsTh w={actionWidth} />}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows === null ? null : loading ? (
          <TableSkeleton cols={span} rows={skeletonRows} />
        ) : rows.length === 0 ? (
          <Table.Tr>
            <Table.Td colSpan={span} ta="center" c="dimmed" py="md">
              Sin resultados.
            </Table.Td>
          </Table.Tr>
        ) : (
          rows.map((s) => (
            <Table.Tr key={s.id} bg={s.code === selectedCode ? 'var(--mantine-primary-color-light)' : undefined}>
              {columns.map((c) => (
                <Table.Td key={c} visibleFrom={visibleFrom(c)} {...COLUMNS[c].td}>
                  {cell(c, s)}
                </Table.Td>
              ))}
              {action && <Table.Td ta="right">{action(s)}</Table.Td>}
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
}
