import { sumCents, type Cents } from '../money.ts';
import { ageingBucket, type AgeingBucket } from './ageing.ts';

/**
 * Estado de cuenta (issue 35). What the customer owes moves with shipments sent on credit (a
 * debit), credit notes, collections and deposited detracciones (credits). An invoice only gathers
 * shipments already counted, so it is listed with its amount for reference and moves nothing; that
 * keeps the closing balance equal to the account's balance however the shipments are invoiced. A
 * note that credits a factura whole sends its shipments back to be invoiced again: they are owed
 * again (a 'reapertura' debit of what the factura had gathered) until a new factura takes them.
 */
export const STATEMENT_LINE_KINDS = ['envio', 'factura', 'nota', 'reapertura', 'cobro', 'detraccion', 'anulacion'] as const;
export type StatementLineKind = (typeof STATEMENT_LINE_KINDS)[number];
export const STATEMENT_LINE_LABELS: Record<StatementLineKind, string> = {
  envio: 'Envío a crédito',
  factura: 'Factura',
  nota: 'Nota de crédito',
  reapertura: 'Envíos reabiertos',
  cobro: 'Cobro',
  detraccion: 'Detracción depositada',
  anulacion: 'Cobro anulado',
};

export interface StatementLine {
  /** Lima date, YYYY-MM-DD. */
  date: string;
  kind: StatementLineKind;
  reference: string;
  debitCents: Cents;
  creditCents: Cents;
  /** An invoice's amount, shown for reference (moves no balance). */
  documentCents?: Cents;
}

export interface StatementRow extends StatementLine {
  balanceCents: Cents;
}

export interface Statement {
  openingCents: Cents;
  rows: StatementRow[];
  debitsCents: Cents;
  creditsCents: Cents;
  closingCents: Cents;
}

/** Lines in date order (the order given within a day), each with the running balance. */
export function buildStatement(openingCents: Cents, lines: readonly StatementLine[]): Statement {
  let balance = openingCents;
  const rows = [...lines]
    .map((line, i) => ({ line, i }))
    .sort((a, b) => a.line.date.localeCompare(b.line.date) || a.i - b.i)
    .map(({ line }) => {
      balance += line.debitCents - line.creditCents;
      return { ...line, balanceCents: balance };
    });
  const debitsCents = sumCents(lines.map((l) => l.debitCents));
  const creditsCents = sumCents(lines.map((l) => l.creditCents));
  return { openingCents, rows, debitsCents, creditsCents, closingCents: openingCents + debitsCents - creditsCents };
}

export interface DueItem {
  reference: string;
  dueDate: string;
  openCents: Cents;
}

/** What is due, by due date, each with its ageing bucket on `today`. */
export function dueSchedule(items: readonly DueItem[], today: string): (DueItem & { bucket: AgeingBucket })[] {
  return items
    .filter((i) => i.openCents > 0)
    .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.reference.localeCompare(b.reference))
    .map((i) => ({ ...i, bucket: ageingBucket(i.dueDate, today) }));
}
