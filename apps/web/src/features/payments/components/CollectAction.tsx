import { useState, type RefObject } from 'react';
import { Button, Text, Tooltip } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { canManageArea, collectableAtCounter, type PaymentMoment } from '@tramo/domain';
import { useCurrentUser } from '../../../lib/session.ts';
import { SHORTCUTS, shortcutLabel, useShortcut, withShortcut } from '../../../lib/shortcuts.ts';
import { PdfViewer, type PdfRequest } from '../../billing/index.ts';
import { useShipmentToCollect } from '../api/payments.ts';
import { announcePayment } from './announce-payment.ts';
import { PaymentModal } from './PaymentModal.tsx';

/** What 'Cobrar' needs of a shipment to know whether the counter collects it now. */
export interface CollectableShipment {
  id: number;
  status: string;
  createdAt: string;
  paymentMoment: PaymentMoment;
}

/**
 * 'Cobrar' where a shipment is collectable at this counter now (issue 38: the new shipment's success
 * card, the shipment's page), Alt+P as well: the payment modal opens prefilled with whoever pays, and
 * once paid the receipt's ticket opens and the button gives way to the receipt's number.
 */
export function CollectAction({
  shipment,
  buttonRef,
  afterPaidFocus,
  variant = 'filled',
}: {
  shipment: CollectableShipment;
  /** The 'Cobrar' button, for the page to bring the focus back to it (after the label). */
  buttonRef?: RefObject<HTMLButtonElement | null>;
  /** Where the counter goes on once the receipt is closed ('Registrar otro'). */
  afterPaidFocus?: RefObject<HTMLElement | null>;
  variant?: 'filled' | 'light';
}) {
  const user = useCurrentUser();
  const collectable = canManageArea(user, 'payments') && collectableAtCounter(shipment, new Date());
  const row = useShipmentToCollect(collectable ? shipment : null);
  const [paying, setPaying] = useState(false);
  const [receipt, setReceipt] = useState<PdfRequest | null>(null);
  /** The receipt of the payment taken here: its number, and its ticket when it has a PDF. */
  const [paid, setPaid] = useState<{ number: string | null; ticket: PdfRequest | null } | null>(null);

  const payable = row.data && !row.data.paid && row.data.paymentStatus !== 'pending' ? row.data : null;
  useShortcut(SHORTCUTS.pay, payable !== null && !paid && (() => setPaying(true)));

  if (!collectable) return null;
  if (paid) {
    const { ticket } = paid;
    const text = `Pagado${paid.number ? ` · ${paid.number}` : ''}`;
    return (
      <span data-testid="collect-paid">
        {ticket ? (
          <Tooltip label="Ver comprobante">
            <Button variant="light" color="teal" leftSection={<IconCheck size={16} />} onClick={() => setReceipt(ticket)}>
              {text}
            </Button>
          </Tooltip>
        ) : (
          <Text span fw={600} c="teal.8">
            {text}
          </Text>
        )}
        <PdfViewer request={receipt} onClose={() => setReceipt(null)} returnFocusTo={afterPaidFocus} />
      </span>
    );
  }
  // Paid or pending elsewhere (Pagos): nothing to collect here.
  if (row.isSuccess && !payable) return null;
  return (
    <>
      <Tooltip label={withShortcut('Cobrar', SHORTCUTS.pay)}>
        <Button
          ref={buttonRef}
          variant={variant}
          color="teal"
          loading={row.isPending}
          disabled={!payable}
          aria-keyshortcuts={shortcutLabel(SHORTCUTS.pay)}
          onClick={() => setPaying(true)}
        >
          Cobrar
        </Button>
      </Tooltip>
      {payable && (
        <PaymentModal
          key={payable.id}
          opened={paying}
          shipment={payable}
          choices={[]}
          onClose={() => setPaying(false)}
          onPaid={(result) => {
            setPaying(false);
            const ticket = announcePayment(result);
            setPaid({ number: result.payment.documentNumber, ticket });
            setReceipt(ticket);
            if (!ticket) afterPaidFocus?.current?.focus();
          }}
        />
      )}
    </>
  );
}
