import { randomInt } from 'node:crypto';
import { limaDay, type SunatDocumentType } from '@tramo/domain';
import type { SigningKey } from './signature.ts';
import { signUbl } from './signature.ts';
import { buildSummaryDocuments, buildVoidedDocuments, voidSummaryId, type SummaryLine, type VoidSummaryKind } from './summary-ubl.ts';
import type { BillingDocument, BillingIssuer, VoidSummary } from './types.ts';

/*
 * How the sandbox voids as SUNAT is asked to: it builds the comunicación de baja (RA) of a factura
 * or note, or the resumen diario (RC) reporting a boleta or its note with status 3, signs it with the
 * demo certificate, and gets a ticket for it. The summary's id takes the next correlative of its
 * kind and day, claimed in the store (so two processes voiding at once never share one); the ticket
 * is SUNAT's kind of ticket, a 15-digit number unrelated to the document's number.
 */

/** What the resumen diario needs of a boleta or its note, kept by the sandbox when it receives the document. */
export type SummarySource = Omit<SummaryLine, 'status'>;

export function summarySourceOf(doc: BillingDocument): SummarySource {
  const t = doc.totals;
  const note = doc.creditNote;
  return {
    type: doc.type,
    series: doc.series,
    number: doc.number,
    customerDocType: String(doc.customer.docType),
    customerDocNumber: doc.customer.docNumber,
    gravadaCents: t.gravadaCents,
    exoneradaCents: t.exoneradaCents,
    inafectaCents: t.inafectaCents,
    igvCents: t.igvCents,
    totalCents: t.totalCents,
    modified: note ? { type: note.modifiedType, series: note.modifiedSeries, number: note.modifiedNumber } : null,
  };
}

/** SUNAT's ticket for an asynchronous send: digits only, never derived from the document. */
export const sunatTicket = (now: Date) => `${now.getTime()}${String(randomInt(100)).padStart(2, '0')}`;

/** Claims a key nobody else holds (false when taken): the store's insert-if-absent. */
export type Claim = (key: string) => Promise<boolean>;

/** The lowest free correlative of a kind and day is probed from a hint per store that only grows in this process. */
const hintsOf = new WeakMap<Claim, Map<string, number>>();

async function nextSummaryId(kind: VoidSummaryKind, day: string, claim: Claim): Promise<string> {
  const hints = hintsOf.get(claim) ?? new Map<string, number>();
  hintsOf.set(claim, hints);
  const hintKey = `${kind}-${day}`;
  for (let n = hints.get(hintKey) ?? 1; ; n++) {
    const id = voidSummaryId(kind, day, n);
    if (await claim(`summary:${id}`)) {
      hints.set(hintKey, n + 1);
      return id;
    }
  }
}

export interface VoidedDocumentRef {
  type: SunatDocumentType;
  series: string;
  number: number;
  issueDate: string;
  viaDailySummary: boolean;
  summarySource?: SummarySource;
}

/**
 * The signed RA or RC that voids `doc`, or null for a boleta kept by an older sandbox without what a
 * resumen line needs (its void still goes through, without the XML).
 */
export async function buildVoidSummary(
  doc: VoidedDocumentRef,
  reason: string,
  now: Date,
  issuer: BillingIssuer,
  key: SigningKey,
  claim: Claim,
): Promise<VoidSummary | null> {
  // A dispatch guide is not voided by an RA (SUNAT takes its baja in SOL): the sandbox only records it.
  if (doc.type === '09' || doc.type === '31') return null;
  const kind: VoidSummaryKind = doc.viaDailySummary ? 'RC' : 'RA';
  if (kind === 'RC' && !doc.summarySource) return null;
  const day = limaDay(now);
  const id = await nextSummaryId(kind, day, claim);
  const header = { id, referenceDate: doc.issueDate, issueDate: day };
  const xml =
    kind === 'RA'
      ? buildVoidedDocuments(header, [{ type: doc.type, series: doc.series, number: doc.number, reason }], issuer)
      : buildSummaryDocuments(header, [{ ...doc.summarySource!, status: '3' }], issuer);
  const signed = signUbl(xml, key);
  return { kind, id, ticket: sunatTicket(now), xml: signed.xml, hash: signed.hash };
}
