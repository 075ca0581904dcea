/**
 * Cash sessions (DESIGN.md section 5a, issue #14 step 7) and receivables (DESIGN.md section 5): the
 * sums, in integer céntimos.
 */
import { z } from 'zod';
import { centsToNumber, type Cents } from '../money.ts';
import { PAYMENT_MESSAGES } from './messages.ts';
import { PAYMENT_METHOD_NAMES, PAYMENT_METHODS, type PaymentMethod, type PaymentStatus } from './methods.ts';
import { tallyPayments, type PaymentTallyTotal } from './tally.ts';

/** A non-negative amount in soles with at most 2 decimals → céntimos; else null. */
export function parseMoneyCents(raw: unknown, max = 100_000_000): Cents | null {
  const text = typeof raw === 'number' ? (Number.isFinite(raw) ? String(raw) : '') : typeof raw === 'string' ? raw.trim() : '';
  if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(text)) return null;
  const [int, frac = ''] = text.split('.');
  const cents = Number(int) * 100 + Number((frac + '00').slice(0, 2));
  return cents <= max ? cents : null;
}

const moneyInput = (message: string) =>
  z.union([z.number({ error: message }), z.string({ error: message })], { error: message }).transform((v, ctx) => {
    const cents = parseMoneyCents(v);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return cents;
  });

/** `POST /payments/cash-sessions`: the float in the drawer. */
export const openCashSessionSchema = z.object({ float: moneyInput(PAYMENT_MESSAGES.float) });

/** Peruvian notes and coins, in céntimos. */
export const DENOMINATIONS_CENTS = [20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10] as const;

/** `POST /payments/cash-sessions/{id}/close`: the cash counted (a total, or by denomination) and, optionally, the other methods' slips. */
export const closeCashSessionSchema = z
  .object({
    countedCash: moneyInput(PAYMENT_MESSAGES.counted).optional(),
    denominations: z
      .array(
        z.object({
          value: moneyInput(PAYMENT_MESSAGES.denomination).refine(
            (c) => (DENOMINATIONS_CENTS as readonly number[]).includes(c),
            PAYMENT_MESSAGES.denomination,
          ),
          quantity: z.number({ error: PAYMENT_MESSAGES.denomination }).int(PAYMENT_MESSAGES.denomination).min(0).max(100_000),
        }),
      )
      .max(20)
      .optional(),
    /** Counted per other method (POS slips, transfers); a method left out counts as expected. */
    countedByMethod: z.partialRecord(z.enum(PAYMENT_METHODS), moneyInput(PAYMENT_MESSAGES.counted)).optional(),
  })
  .refine((v) => v.countedCash !== undefined || v.denominations !== undefined, { path: ['countedCash'], message: PAYMENT_MESSAGES.countedRequired });
export type CloseCashSessionRequest = z.output<typeof closeCashSessionSchema>;

export const countedFromDenominations = (rows: readonly { value: Cents; quantity: number }[]): Cents =>
  rows.reduce((sum, r) => sum + r.value * r.quantity, 0);

export interface LedgerEntry {
  method: PaymentMethod;
  /** + for a charge, − for the reversal of a voided one. */
  amountCents: Cents;
  /** On a charge: its payment's status now, which decides how the session counts it (tally.ts). */
  paymentStatus?: PaymentStatus;
}

export interface ClosingLine {
  methodCode: PaymentMethod;
  methodName: string;
  count: number;
  expectedCents: Cents;
  countedCents: Cents;
  differenceCents: Cents;
}

export interface Closing {
  floatCents: Cents;
  lines: ClosingLine[];
  /** The session's charges whose payment was voided since (the same day or later). */
  voided: PaymentTallyTotal;
  expectedCents: Cents;
  countedCents: Cents;
  differenceCents: Cents;
}

/**
 * Expected vs counted per method. Cash expects the float plus its movements; a method not counted
 * is taken as expected (its difference is 0). Every method appears, in catalogue order. The count
 * of payments follows the reports' one rule (tally.ts): a voided charge is 'Anulado', not a payment.
 */
export function closingSummary(
  floatCents: Cents,
  entries: readonly LedgerEntry[],
  counted: { cashCents: Cents; byMethod?: Partial<Record<PaymentMethod, Cents>> },
): Closing {
  const tally = tallyPayments(
    entries.flatMap((e) => (e.paymentStatus ? [{ method: e.method, status: e.paymentStatus, count: 1, cents: e.amountCents }] : [])),
  );
  const lines = PAYMENT_METHODS.map((method): ClosingLine => {
    const mine = entries.filter((e) => e.method === method);
    const expectedCents = mine.reduce((s, e) => s + e.amountCents, method === 'cash' ? floatCents : 0);
    const countedCents = method === 'cash' ? counted.cashCents : (counted.byMethod?.[method] ?? expectedCents);
    return {
      methodCode: method,
      methodName: PAYMENT_METHOD_NAMES[method],
      count: tally.byMethod[method].count,
      expectedCents,
      countedCents,
      differenceCents: countedCents - expectedCents,
    };
  });
  const expectedCents = lines.reduce((s, l) => s + l.expectedCents, 0);
  const countedCents = lines.reduce((s, l) => s + l.countedCents, 0);
  return { floatCents, lines, voided: tally.voided, expectedCents, countedCents, differenceCents: countedCents - expectedCents };
}

/** The closing as the API answers it (soles with 2 decimals). */
export const closingAnswer = (c: Closing) => ({
  float: centsToNumber(c.floatCents),
  lines: c.lines.map((l) => ({
    methodCode: l.methodCode,
    methodName: l.methodName,
    count: l.count,
    expected: centsToNumber(l.expectedCents),
    counted: centsToNumber(l.countedCents),
    difference: centsToNumber(l.differenceCents),
  })),
  voided: { count: c.voided.count, amount: centsToNumber(c.voided.cents) },
  expected: centsToNumber(c.expectedCents),
  counted: centsToNumber(c.countedCents),
  difference: centsToNumber(c.differenceCents),
});

/** A shipment as receivables see it. */
export interface ReceivableShipment {
  customerKey: string;
  customerName: string;
  priceCents: Cents;
  createdAt: string;
  status: string;
  paid: boolean;
}

export interface ReceivableSum {
  customerKey: string;
  customerName: string;
  shipmentsCount: number;
  openCents: Cents;
  lastShipmentAt: string;
}

/** DESIGN.md section 5: per sender customer, the shipments not Anulado without a paid payment; largest balance first. */
export function receivableSums(rows: readonly ReceivableShipment[]): ReceivableSum[] {
  const byKey = new Map<string, ReceivableSum>();
  for (const r of rows) {
    if (r.status === 'Anulado' || r.paid) continue;
    const sum = byKey.get(r.customerKey) ?? {
      customerKey: r.customerKey,
      customerName: r.customerName,
      shipmentsCount: 0,
      openCents: 0,
      lastShipmentAt: r.createdAt,
    };
    sum.shipmentsCount += 1;
    sum.openCents += r.priceCents;
    if (r.createdAt > sum.lastShipmentAt) sum.lastShipmentAt = r.createdAt;
    byKey.set(r.customerKey, sum);
  }
  return [...byKey.values()].sort((a, b) => b.openCents - a.openCents || a.customerName.localeCompare(b.customerName));
}
