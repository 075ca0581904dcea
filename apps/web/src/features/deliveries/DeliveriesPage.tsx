import { Paper, Title } from '@mantine/core';
import { ShipmentFinder } from '../tracking/index.ts';
import { CollectFreight } from './components/CollectFreight.tsx';
import { DeliveredBox } from './components/DeliveredBox.tsx';
import { DeliveryForm } from './components/DeliveryForm.tsx';
import { ProofRuleSwitch } from './components/ProofRuleSwitch.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { canManageArea } from '@tramo/domain';

/** Entregas: find the shipment (scanned code, or recipient name/document), then confirm against its secret code. */
export default function DeliveriesPage() {
  const user = useCurrentUser();
  return (
    <ShipmentFinder
      title="Entregas"
      description="Confirma la entrega con la clave secreta del envío"
      codeField
      search={{ label: 'Buscar por nombre o documento', placeholder: 'Nombre o documento del destinatario', width: 300 }}
      hint="Escanea o escribe el código del envío y presiona Enter, o busca por nombre o documento."
      asideSpan={6}
      headerExtra={canManageArea(user, 'settings') ? <ProofRuleSwitch /> : undefined}
      aside={(shipment) => (
        <Paper withBorder p="md" component="section">
          <Title order={2} size="h4" mb="sm">
            {shipment.deliveredInfo ? 'Entrega' : 'Confirmar entrega'}
          </Title>
          {shipment.deliveredInfo ? (
            <DeliveredBox shipment={shipment} info={shipment.deliveredInfo} />
          ) : (
            <>
              {/* Pago en destino: 'Cobrar' first; the form stays, and the API refuses it until the money is in. */}
              {shipment.paymentMoment === 'destino' && <CollectFreight key={shipment.id} shipment={shipment} />}
              <DeliveryForm key={shipment.id} shipment={shipment} />
            </>
          )}
        </Paper>
      )}
    />
  );
}
