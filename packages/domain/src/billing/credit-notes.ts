import { centsToString, type Cents } from '../money.ts';
import { formatDocumentNumber } from './series.ts';

/*
 * A credit note against the document it modifies, as SUNAT checks it (SUNAT.md "Credit notes"):
 * the modified document must be in the register (2119) and accepted, neither voided (2120) nor
 * rejected (2121); it must be the same customer's; and all the notes against it may not credit
 * more than its total. These need the register, so the API asks them once the payload passed
 * `checkInvoice`, and again under the modified document's lock.
 */

/** What the register says of the modified document. */
export interface ModifiedDocument {
  series: string;
  number: number;
  status: string;
  customerDocType: string;
  customerDocNumber: string;
  totalCents: Cents;
}

export interface CreditNoteAgainst {
  modifiedSeries: string;
  modifiedNumber: number;
  customerDocType: number;
  customerDocNumber: string;
  totalCents: Cents;
}

export const CREDIT_NOTE_MESSAGES = {
  notFound: (number: string) => `Nota de crédito: el documento ${number} no está en el registro de comprobantes (SUNAT 2119).`,
  voided: (number: string) => `Nota de crédito: el documento ${number} está anulado; no se le emiten notas (SUNAT 2120).`,
  rejected: (number: string) => `Nota de crédito: el documento ${number} fue rechazado por SUNAT; no se le emiten notas (SUNAT 2121).`,
  notAccepted: (number: string) =>
    `Nota de crédito: el documento ${number} todavía no fue aceptado por SUNAT; consúltalo y emite la nota cuando esté aceptado.`,
  otherCustomer: (number: string) => `Nota de crédito: el cliente debe ser el mismo del documento ${number}.`,
  exceeds: (number: string, left: string) => `Nota de crédito: el total supera lo que queda por acreditar del documento ${number} (S/ ${left}).`,
} as const;

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
  const leftCents = modified.totalCents - creditedCents;
  if (note.totalCents > leftCents) problems.push(CREDIT_NOTE_MESSAGES.exceeds(number, centsToString(Math.max(0, leftCents))));
  return problems;
}
