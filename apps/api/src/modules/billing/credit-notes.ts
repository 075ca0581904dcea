import { creditNoteAgainstProblems, formatDocumentNumber, sumCents, toCents, type InvoiceDraft } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import * as repo from './repository.ts';

/**
 * A credit note is checked against the document it modifies (SUNAT 2119, 2120, 2121; never more
 * than is left to credit, once collections already applied to it are counted). Asked twice: before
 * a number is taken, for the form's 'Corrige:' list, and inside the numbering transaction with the
 * modified document locked, so two notes, or a note and a collection, sent at once cannot both take
 * what is left. The database holds the same rule (migration 0114).
 */

/** A note the register refuses: its problems go back under 'Corrige:' as a 422, and no number is taken. */
export class CreditNoteRefused extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join(' '));
  }
}

/** The modified document's payment form and detracción, as it was issued (its stored draft). */
function issuedTerms(document: unknown): { paymentForm: string | null; detractionCents: number } {
  const d = document as { payment?: { form?: string }; detraction?: { amountCents?: number } | null } | null;
  return { paymentForm: d?.payment?.form ?? null, detractionCents: d?.detraction?.amountCents ?? 0 };
}

async function problemsOf(db: Db | Tx, draft: InvoiceDraft, lock: boolean): Promise<string[]> {
  const note = draft.creditNote;
  if (!note) return [];
  const modified = await repo.modifiedDocument(db, note.modifiedType, note.modifiedSeries, note.modifiedNumber, lock);
  const credited = modified ? await repo.creditedCents(db, note.modifiedType, formatDocumentNumber(note.modifiedSeries, note.modifiedNumber)) : 0;
  // Only a factura takes collections; read after its lock, so an allocation committed meanwhile is counted.
  const collected = modified?.type === '01' ? await repo.collectedCents(db, modified.id) : 0;
  return creditNoteAgainstProblems(
    {
      modifiedSeries: note.modifiedSeries,
      modifiedNumber: note.modifiedNumber,
      customerDocType: draft.customer.docType,
      customerDocNumber: draft.customer.docNumber,
      totalCents: draft.totals.totalCents,
      reason: note.reason,
      instalmentsCents: sumCents(draft.payment.instalments.map((c) => c.importeCents)),
    },
    modified && {
      series: modified.series,
      number: modified.number,
      status: modified.status,
      customerDocType: modified.customerDocType,
      customerDocNumber: modified.customerDocNumber,
      totalCents: toCents(modified.total),
      ...issuedTerms(modified.document),
      collectedCents: collected,
    },
    credited,
  );
}

/** Refuses a note its modified document does not allow (the check before numbering, or under the lock). */
export async function assertCreditable(db: Db | Tx, draft: InvoiceDraft, lock: boolean): Promise<void> {
  const problems = await problemsOf(db, draft, lock);
  if (problems.length > 0) throw new CreditNoteRefused(problems);
}
