import { z } from 'zod';
import type { PaymentMoment } from './who-pays.ts';

/**
 * Pago en destino in the money views (issue 33): the balance waiting at each destination branch,
 * the Panel's counter, the destino collections of a cash session, and the guard on voiding one.
 */
export const WHO_PAYS_MONEY_MESSAGES = {
  voidAfterDelivery: 'El envío ya se entregó: un pago en destino cobrado no se anula.',
  destinationDue: 'Por cobrar en destino',
} as const;

/** Why voiding this payment is refused, or null: a paid destino payment stays once the parcel was handed over. */
export function destinationVoidRefusal(s: { paymentMoment: PaymentMoment | string; shipmentStatus: string; paymentStatus: string }): string | null {
  return s.paymentMoment === 'destino' && s.paymentStatus === 'paid' && s.shipmentStatus === 'Entregado'
    ? WHO_PAYS_MONEY_MESSAGES.voidAfterDelivery
    : null;
}

const money = z.number();

/** One destination branch's 'por cobrar en destino' balance: every live, unpaid pago en destino shipment bound for it. */
export const destinationReceivableRowSchema = z.object({
  branchId: z.number(),
  branchName: z.string(),
  /** Shipments and freight still to collect there (registered, on the road or waiting). */
  shipmentsCount: z.number(),
  openAmount: money,
  /** Of those, the ones already waiting at the agency ('En agencia'): collectable now. */
  waitingCount: z.number(),
  waitingAmount: money,
});
export const destinationReceivablesSchema = z.object({
  items: z.array(destinationReceivableRowSchema),
  shipmentsCount: z.number(),
  totalOpen: money,
});
export type DestinationReceivables = z.infer<typeof destinationReceivablesSchema>;

/** The Panel's 'Por cobrar en destino': the agent's branch (an admin: every branch), as /pagos lists it (En agencia and En tránsito). */
export const destinationDueSchema = z.object({
  branchName: z.string().nullable(),
  count: z.number(),
  amount: money,
  /** Of those, waiting at the agency now. */
  waitingCount: z.number(),
});
export type DestinationDue = z.infer<typeof destinationDueSchema>;
