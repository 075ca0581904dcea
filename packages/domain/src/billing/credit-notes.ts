import { z } from 'zod';
import { centsToString, type Cents } from '../money.ts';
import { formatDocumentNumber } from './series.ts';

/*
 * A credit note against the document it modifies, as SUNAT checks it (SUNAT.md "Credit notes"):
 * the modified document must be in the register (2119) and accepted, neither voided (2120) nor
 * rejected (2121); it must be the same customer's; and all the notes against it may not credit
 * more than its total. A factura al crédito's collections already applied are paid, not owed: the
 * notes may credit only what is left once they are counted (docs/credit-accounts.md). These need
 * the register, so the API asks them once the payload passed `checkInvoice`, and again under the
 * modified document's lock.
 */

/** What the register says of the modified document. */
export interface ModifiedDocument {
  series: string;
  number: number;
  status: string;
  customerDocType: string;
  customerDocNumber: string;
  totalCents: Cents;
  /** 'contado' or 'credito' (reason 13 adjusts only a credit factura). */
  paymentForm?: string | null;
  /** Its detracción, which the instalments never include. */
  detractionCents?: Cents;
  /** What the live allocations of credit-account collections paid of it (a factura al crédito). */
  collectedCents?: Cents;
}

export interface CreditNoteAgainst {
  modifiedSeries: string;
  modifiedNumber: number;
  customerDocType: number;
  customerDocNumber: string;
  totalCents: Cents;
  /** Catalogue 09; '13' adjusts the instalments. */
  reason?: string;
  /** Reason 13: the sum of the note's new instalments. */
  instalmentsCents?: Cents;
}

export const CREDIT_NOTE_MESSAGES = {
  notFound: (number: string) => `Nota de crédito: el documento ${number} no está en el registro de comprobantes (SUNAT 2119).`,
  voided: (number: string) => `Nota de crédito: el documento ${number} está anulado; no se le emiten notas (SUNAT 2120).`,
  rejected: (number: string) => `Nota de crédito: el documento ${number} fue rechazado por SUNAT; no se le emiten notas (SUNAT 2121).`,
  notAccepted: (number: string) =>
    `Nota de crédito: el documento ${number} todavía no fue aceptado por SUNAT; consúltalo y emite la nota cuando esté aceptado.`,
  otherCustomer: (number: string) => `Nota de crédito: el cliente debe ser el mismo del documento ${number}.`,
  exceeds: (number: string, left: string) => `Nota de crédito: el total supera lo que queda por acreditar del documento ${number} (S/ ${left}).`,
  exceedsCollected: (number: string, left: string) =>
    `Nota de crédito: el total supera lo que queda por pagar de la factura ${number} (S/ ${left}): sus cobranzas ya aplicadas no se acreditan.`,
  /** The database's refusal (migration 0114) when a note raced past the check above. */
  invoiceChanged: 'Nota de crédito: el documento ya no tiene ese saldo por acreditar; vuelve a consultarlo.',
  adjustmentNotCredit: (number: string) => `Nota de crédito 13: el documento ${number} no es una factura al crédito; no tiene cuotas que ajustar.`,
  adjustmentSum: (sum: string, owed: string, number: string) =>
    `Nota de crédito 13: la suma de las nuevas cuotas (S/ ${sum}) debe ser igual a lo que queda por pagar del documento ${number} (S/ ${owed}) (SUNAT 3265).`,
  /** Voiding the note would make its document bill again shipments another comprobante bills now (`voidGivesShipmentsBack`). */
  voidShipmentsTaken: (holder: string | null) =>
    `Nota de crédito: no se puede anular, los envíos que liberó ya están en ${holder ? `el comprobante ${holder}` : 'otro comprobante'}; emite primero una nota de crédito para ese comprobante.`,
} as const;

/*
 * What a credit note does to the shipments of the document it modifies (docs/credit-accounts.md,
 * migration 0115): once the notes SUNAT accepted against it credit its whole total, the document no
 * longer bills them and a new factura may take them. A note still pending frees nothing (SUNAT may
 * reject it, and the document would owe them again), nor does one whose void is asked. Voiding an
 * accepted note that leaves the document owing gives them back, so it waits until no other live
 * comprobante bills them: otherwise the same freight would be owed twice.
 */

/** Whether the notes SUNAT accepted against a document (`acceptedCents`) free its shipments. */
export function creditsWhole(acceptedCents: Cents, totalCents: Cents): boolean {
  return acceptedCents >= totalCents;
}

/** Whether voiding an accepted note of `noteCents` (counted in `acceptedCents`) makes its document bill its shipments again. */
export function voidGivesShipmentsBack(acceptedCents: Cents, noteCents: Cents, totalCents: Cents): boolean {
  return creditsWhole(acceptedCents, totalCents) && !creditsWhole(acceptedCents - noteCents, totalCents);
}

/** Every rule the modified document breaks for this note, as 'Corrige:' lines (empty: the note may be issued). */
export function creditNoteAgainstProblems(note: CreditNoteAgainst, modified: ModifiedDocument | null, creditedCents: Cents): string[] {
  const number = formatDocumentNumber(note.modifiedSeries, Math.max(1, note.modifiedNumber));
  if (!modified) return [CREDIT_NOTE_MESSAGES.notFound(number)];
  if (modified.status === 'anulado' || modified.status === 'anulación pendiente') return [CREDIT_NOTE_MESSAGES.voided(number)];
  if (modified.status === 'rechazado') return [CREDIT_NOTE_MESSAGES.rejected(number)];
  if (modified.status !== 'aceptado') return [CREDIT_NOTE_MESSAGES.notAccepted(number)];
  const problems: string[] = [];
  if (modified.customerDocType !== String(note.customerDocType) || modified.customerDocNumber !== note.customerDocNumber) {
    problems.push(CREDIT_NOTE_MESSAGES.otherCustomer(number));
  }
  const collectedCents = modified.collectedCents ?? 0;
  const leftCents = modified.totalCents - creditedCents;
  if (note.reason === '13') {
    // The new instalments replace what the factura still owes: its total less its detracción, what
    // earlier notes credited and what collections paid.
    if (modified.paymentForm !== 'credito') problems.push(CREDIT_NOTE_MESSAGES.adjustmentNotCredit(number));
    else {
      const owed = Math.max(0, leftCents - collectedCents - (modified.detractionCents ?? 0));
      const sum = note.instalmentsCents ?? 0;
      if (sum !== owed) problems.push(CREDIT_NOTE_MESSAGES.adjustmentSum(centsToString(sum), centsToString(owed), number));
    }
    return problems;
  }
  if (collectedCents > 0 && note.totalCents > leftCents - collectedCents) {
    problems.push(CREDIT_NOTE_MESSAGES.exceedsCollected(number, centsToString(Math.max(0, leftCents - collectedCents))));
  } else if (note.totalCents > leftCents) problems.push(CREDIT_NOTE_MESSAGES.exceeds(number, centsToString(Math.max(0, leftCents))));
  return problems;
}

/** `GET /billing/creditable?q=&customerDocNumber=`: the query of the credit-note form's document picker. */
export const creditableQuerySchema = z.object({
  q: z.string().trim().max(60, 'Búsqueda demasiado larga').optional(),
  customerDocNumber: z.string().trim().max(15).optional(),
});

/** An accepted factura or boleta a credit note may modify, with what is left to credit. */
export const creditableDocumentSchema = z.object({
  id: z.number().int(),
  type: z.enum(['01', '03']),
  series: z.string(),
  number: z.number().int(),
  issueDate: z.string(),
  customerId: z.number().int().nullable(),
  customerDocType: z.string(),
  customerDocNumber: z.string(),
  customerName: z.string(),
  total: z.number(),
  /** Total less what live notes already credited and, for a factura, what collections paid (S/). */
  creditable: z.number(),
  paymentForm: z.string().nullable(),
});
export type CreditableDocument = z.infer<typeof creditableDocumentSchema>;
