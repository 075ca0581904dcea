import { Paper, Title } from '@mantine/core';
import { ShipmentHistory } from '../shipments/index.ts';
import { ShipmentFinder } from './components/ShipmentFinder.tsx';

/** Rastreo: any shipment of any branch by code, recipient document or name; read-only. */
export default function TrackingPage() {
  return (
    <ShipmentFinder
      title="Rastreo"
      description="Cualquier envío de cualquier sucursal, por código, documento o nombre del destinatario"
      search={{ label: 'Buscar envío', placeholder: 'Código (TMT-000123), DNI/RUC o nombre', width: 340 }}
      hint="Escribe o escanea un código y presiona Enter."
      asideSpan={5}
      aside={(shipment) => (
        <Paper withBorder p="md" component="section" aria-label="Historial del envío">
          <Title order={2} size="h5" mb="sm">
            Historial
          </Title>
          <ShipmentHistory events={shipment.checkpoints ?? []} />
        </Paper>
      )}
    />
  );
}
