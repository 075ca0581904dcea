/**
 * How every report counts payments (issue #38 item 4): Cierres del día, Mi caja and Movimientos
 * each counted a voided payment their own way ('Pagos 1, Esperado S/ 0.00' in a session, 0 in the
 * day's card). The one rule: a payment counts where it was collected (its Lima day, its cash
 * session), as collected ('Pagado') while it stands and as voided ('Anulado') once voided, whenever
 * the void came; a pending one is in neither. A session's money stays its ledger (a later void is
 * an adjustment in the session open then), so a closed session keeps the cash that was counted.
 */
import type { Cents } from '../money.ts';
import { PAYMENT_METHODS, type PaymentMethod, type PaymentStatus } from './methods.ts';

/** Some payments of one method and one (current) status: a report's grouped row, or one payment. */
export interface PaymentTallyRow {
  method: PaymentMethod;
  status: PaymentStatus;
  count: number;
  cents: Cents;
}

export interface PaymentTallyTotal {
  count: number;
  cents: Cents;
}

export interface PaymentTally {
  /** The collected ones per method, every method present. */
  byMethod: Record<PaymentMethod, PaymentTallyTotal>;
  collected: PaymentTallyTotal;
  voided: PaymentTallyTotal;
}

/** A payment that stands: what a report counts as collected. */
export const countsAsCollected = (status: PaymentStatus) => status === 'paid';
/** A payment voided at any time: counted once, as 'Anulado', where it was collected. */
export const countsAsVoided = (status: PaymentStatus) => status === 'canceled';

const zero = (): PaymentTallyTotal => ({ count: 0, cents: 0 });

export function tallyPayments(rows: readonly PaymentTallyRow[]): PaymentTally {
  const byMethod = Object.fromEntries(PAYMENT_METHODS.map((m) => [m, zero()])) as Record<PaymentMethod, PaymentTallyTotal>;
  const collected = zero();
  const voided = zero();
  for (const r of rows) {
    const into = countsAsCollected(r.status) ? [collected, byMethod[r.method]] : countsAsVoided(r.status) ? [voided] : [];
    for (const total of into) {
      total.count += r.count;
      total.cents += r.cents;
    }
  }
  return { byMethod, collected, voided };
}
