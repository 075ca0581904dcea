import { useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { PAYMENT_MESSAGES, toCents, WHO_PAYS_MESSAGES, type ManualPaymentResult, type Shipment } from '@tramo/domain';
import { notify } from '../../../lib/notify.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';
import { PdfViewer, type PdfRequest } from '../../billing/index.ts';
import { PaymentModal, useShipmentsDueAtDestination } from '../../payments/index.ts';

/** Pago en destino still owed: the delivery waits for the money (issue 33). */
export const owesFreight = (s: Shipment) => s.paymentMoment === 'destino' && s.freightPaid === false && !s.deliveredInfo;

/**
 * Entregas' 'Cobrar' (issue 33), mounted for every pago en destino shipment not yet delivered (the
 * receipt it opens outlives the alert): the same payment modal as /pagos, on the destination's row of this
 * shipment (so the receipt goes to whoever pays: the recipient or the third party); once paid, the
 * shipment refetches and the delivery form is free to go on.
 */
export function CollectFreight({ shipment }: { shipment: Shipment }) {
  const queryClient = useQueryClient();
  const due = useShipmentsDueAtDestination();
  const row = due.data?.items.find((s) => s.id === shipment.id && !s.paid && s.paymentStatus !== 'pending') ?? null;
  const [collecting, setCollecting] = useState(false);
  const [receipt, setReceipt] = useState<PdfRequest | null>(null);

  const paid = (result: ManualPaymentResult) => {
    setCollecting(false);
    notify.success(`Pago registrado${result.payment.documentNumber ? `: ${result.payment.documentNumber}` : ''}.`);
    if (result.cashSessionOpened) notify.info(PAYMENT_MESSAGES.sessionOpened);
    if (result.warning) notify.error(result.warning);
    shipmentsChanged(queryClient);
    if (result.payment.documentId && result.payment.documentNumber) {
      setReceipt({ id: result.payment.documentId, format: 'ticket', name: result.payment.documentNumber });
    }
  };

  const arrived = shipment.status === 'En agencia';
  return (
    <>
      {owesFreight(shipment) && (
        <Alert color="orange" variant="light" mb="sm" title="Pago en destino" data-testid="collect-freight">
          <Group justify="space-between" align="center" wrap="nowrap" gap="sm">
            <Text size="sm">
              {WHO_PAYS_MESSAGES.deliverAfterPayment(toCents(shipment.quotedPrice))}
              {!arrived && ` ${WHO_PAYS_MESSAGES.collectWhenArrived}`}
            </Text>
            {arrived && row && (
              <Button color="orange" onClick={() => setCollecting(true)}>
                Cobrar
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {collecting && row && <PaymentModal opened shipment={row} choices={[]} onClose={() => setCollecting(false)} onPaid={paid} />}
      <PdfViewer request={receipt} onClose={() => setReceipt(null)} />
    </>
  );
}
