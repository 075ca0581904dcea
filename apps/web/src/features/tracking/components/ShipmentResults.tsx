import { Alert, Button, Paper } from '@mantine/core';
import type { ShipmentSearchRow } from '@tramo/domain';
import { ShipmentsTable, type ShipmentSearchColumn } from '../../shipments/index.ts';

interface ShipmentResultsProps {
  rows: ShipmentSearchRow[] | undefined;
  loading: boolean;
  failed: boolean;
  selectedCode: string | null;
  onOpen(shipment: ShipmentSearchRow): void;
}

const COLUMNS: ShipmentSearchColumn[] = ['code', 'recipient', 'recipientDoc', 'origin', 'destination', 'status', 'createdAt'];

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
      <ShipmentsTable
        aria-label="Resultados"
        rows={rows ?? []}
        loading={loading}
        skeletonRows={3}
        columns={COLUMNS}
        // The date gives way on a 1024 px tablet so 'Abrir' stays in view.
        wideOnly={['createdAt']}
        selectedCode={selectedCode}
        action={(s) => (
          <Button size="compact-sm" variant="subtle" onClick={() => onOpen(s)} aria-label={`Abrir ${s.code}`}>
            Abrir
          </Button>
        )}
      />
    </Paper>
  );
}
