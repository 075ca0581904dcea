import type { LedgerEntry, PaymentMethod, PaymentStatus } from '@tramo/domain';

/** A session's movement as read with its payment (queries/cash-sessions.ts movementsOfSession). */
interface SessionMovement {
  m: { kind: string; method: string; amountCents: number };
  paymentStatus: PaymentStatus;
}

/**
 * A session's movements as its closing reads them: a charge carries its payment's status now, so a
 * payment voided since counts as 'Anulado', not as a payment (the reports' one rule, tally.ts); a
 * reversal only moves money.
 */
export const ledgerEntries = (moves: readonly SessionMovement[]): LedgerEntry[] =>
  moves.map((m) => ({
    method: m.m.method as PaymentMethod,
    amountCents: m.m.amountCents,
    ...(m.m.kind === 'cobro' ? { paymentStatus: m.paymentStatus } : {}),
  }));
