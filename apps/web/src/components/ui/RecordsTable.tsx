import type { Key, ReactNode } from 'react';
import { Alert, Button, Group, Paper, Table, type TableTdProps } from '@mantine/core';
import { errorMessage } from '../../lib/api.ts';
import { TableSkeleton } from './PageSkeleton.tsx';
import { ActionsTh } from './ActionsTh.tsx';

export interface RecordColumn<T> {
  header: ReactNode;
  cell(row: T): ReactNode;
  width?: number;
  /** Extra props of the cell (weight, colour…). */
  td?: TableTdProps | ((row: T) => TableTdProps);
  /** A secondary column left out on narrower screens (the 1024 tablet) so actions stay in view. */
  wideOnly?: boolean;
}

interface RecordsTableProps<T> {
  columns: RecordColumn<T>[];
  rows: readonly T[];
  rowKey(row: T): Key;
  loading: boolean;
  error?: unknown;
  /** The spec's empty text: 'Sin registros' on most screens. */
  empty?: string;
  actions?(row: T): ReactNode;
  actionsWidth?: number;
}

/**
 * The directory table every admin screen shares (users, branches, customers, drivers): the load
 * error above it, skeleton rows while loading, the empty row, and the row actions on the right.
 */
export function RecordsTable<T>({
  columns,
  rows,
  rowKey,
  loading,
  error,
  empty = 'Sin registros',
  actions,
  actionsWidth = 170,
}: RecordsTableProps<T>) {
  const span = columns.length + (actions ? 1 : 0);
  return (
    <>
      {error != null && (
        <Alert color="red" variant="light" mb="sm" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {/* Whatever is still too wide scrolls inside the table, never the whole page. */}
      <Paper withBorder style={{ overflowX: 'auto' }}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              {columns.map((c, i) => (
                <Table.Th key={i} w={c.width} visibleFrom={c.wideOnly ? 'lg' : undefined}>
                  {c.header}
                </Table.Th>
              ))}
              {actions && <ActionsTh w={actionsWidth} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {loading ? (
              <TableSkeleton cols={span} />
            ) : rows.length === 0 ? (
              // After a failed load the alert above says why: no 'Sin registros' under it.
              error == null && (
                <Table.Tr>
                  <Table.Td colSpan={span} ta="center" c="dimmed">
                    {empty}
                  </Table.Td>
                </Table.Tr>
              )
            ) : (
              rows.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((c, i) => (
                    <Table.Td key={i} visibleFrom={c.wideOnly ? 'lg' : undefined} {...(typeof c.td === 'function' ? c.td(row) : c.td)}>
                      {c.cell(row)}
                    </Table.Td>
                  ))}
                  {actions && (
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {actions(row)}
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Paper>
    </>
  );
}

/** The Editar / Eliminar pair of a directory row; `children` go between them (e.g. reset password). */
export function EditDeleteActions({
  onEdit,
  onDelete,
  deleteDisabled,
  children,
}: {
  onEdit(): void;
  onDelete(): void;
  deleteDisabled?: boolean;
  children?: ReactNode;
}) {
  return (
    <>
      <Button size="compact-sm" variant="subtle" onClick={onEdit}>
        Editar
      </Button>
      {children}
      <Button size="compact-sm" variant="subtle" color="red" disabled={deleteDisabled} onClick={onDelete}>
        Eliminar
      </Button>
    </>
  );
}
