import { Alert, Button, Paper, Table } from '@mantine/core';
import { TableSkeleton } from '../../../components/ui/PageSkeleton.tsx';
import { StatusChip } from '../../../components/ui/StatusChip.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import type { Shipment } from '../../shipments/index.ts';

interface ShipmentResultsProps {
  rows: Shipment[] | undefined;
  loading: boolean;
  failed: boolean;
  selectedCode: string | null;
  onOpen(shipment: Shipment): void;
}

const COLS = 8;

/** Search results of tracking and deliveries: one row per shipment and an 'Abrir' action. */
export function ShipmentResults({ rows, loading, failed, selectedCode, onOpen }: ShipmentResultsProps) {
  if (failed) {
    return (
      <Alert color="red" variant="light" role="alert" mb="md">
        No se pudo buscar.
      </Alert>
    );
  }
  return (
    <Paper withBorder mb="md" style={{ overflowX: 'auto' }}>
      <Table aria-label="Resultados">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Código</Table.Th>
            <Table.Th>Destinatario</Table.Th>
            <Table.Th>DNI</Table.Th>
            <Table.Th>Origen</Table.Th>
            <Table.Th>Destino</Table.Th>
            <Table.Th>Estado</Table.Th>
            <Table.Th visibleFrom="lg">Creado</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading ? (
            <TableSkeleton rows={3} cols={COLS} />
          ) : !rows || rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={COLS} ta="center" c="dimmed">
                Sin resultados.
              </Table.Td>
            </Table.Tr>
          ) : (
            rows.map((s) => (
              <Table.Tr key={s.id} bg={s.code === selectedCode ? 'var(--mantine-primary-color-light)' : undefined}>
                <Table.Td fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {s.code}
                </Table.Td>
                <Table.Td>{s.recipientName}</Table.Td>
                <Table.Td>{s.recipientDoc}</Table.Td>
                <Table.Td>{s.originBranch.name}</Table.Td>
                <Table.Td>{s.destinationBranch.name}</Table.Td>
                <Table.Td>
                  <StatusChip status={s.status} />
                </Table.Td>
                {/* The date gives way on a 1024 px tablet so 'Abrir' stays in view. */}
                <Table.Td visibleFrom="lg" style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(s.createdAt)}
                </Table.Td>
                <Table.Td ta="right">
                  <Button size="compact-sm" variant="subtle" onClick={() => onOpen(s)} aria-label={`Abrir ${s.code}`}>
                    Abrir
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
