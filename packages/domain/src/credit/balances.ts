import { sumCents, type Cents } from '../money.ts';

/**
 * What a credit invoice still asks of the customer: its total less the credit notes against it, the
 * collections applied to it and — once the customer has deposited it in the Banco de la Nación —
 * the detracción. Before the deposit the detracción is still owed (to the carrier's detracciones
 * account), so it stays in the balance: the customer's debt is the total until it is deposited.
 */
export interface InvoiceLedger {
  totalCents: Cents;
  creditedCents: Cents;
  collectedCents: Cents;
  /** The detracción's amount, and whether its deposit was recorded. */
  detractionCents: Cents;
  detractionDeposited: boolean;
}

export function invoiceOpenCents(i: InvoiceLedger): Cents {
  return i.totalCents - i.creditedCents - i.collectedCents - (i.detractionDeposited ? i.detractionCents : 0);
}

/** What the carrier itself can still collect: the open balance less a detracción not yet deposited. */
export function invoiceCollectableCents(i: InvoiceLedger): Cents {
  return invoiceOpenCents(i) - (i.detractionDeposited ? 0 : i.detractionCents);
}

/**
 * The account's balance: its uninvoiced credit shipments, plus every invoice's open balance, less
 * the money received and not yet applied (a credit balance in the customer's favour).
 */
export function accountBalanceCents(parts: { uninvoicedShipmentsCents: Cents; invoices: readonly InvoiceLedger[]; unappliedCents: Cents }): Cents {
  return parts.uninvoicedShipmentsCents + sumCents(parts.invoices.map(invoiceOpenCents)) - parts.unappliedCents;
}
