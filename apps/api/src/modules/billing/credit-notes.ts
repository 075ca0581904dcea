import {
  CREDIT_NOTE_MESSAGES,
  creditNoteAgainstProblems,
  formatDocumentNumber,
  sumCents,
  toCents,
  voidGivesShipmentsBack,
  type InvoiceDraft,
} from '@tramo/domain';
import { conflict } from '../../lib/errors.ts';
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

/**
 * Refuses to void an accepted note whose void would make the document it credits bill again
 * shipments another live comprobante bills now (the domain's voidGivesShipmentsBack): that
 * comprobante is credited first. Asked in the void's transaction before the note's status changes
 * (the note read there), with the modified document locked as the note's issue locks it and as
 * migration 0115's trigger, which holds the same rule whatever the path, locks it.
 */
export async function assertNoteVoidable(tx: Tx, noteId: number): Promise<void> {
  const note = await repo.findDocument(tx, noteId);
  if (!note || note.type !== '07' || note.status !== 'aceptado' || !note.modifies) return;
  const modifiedType = (note.document as { creditNote?: { modifiedType?: string } } | null)?.creditNote?.modifiedType ?? '01';
  const [series, number] = note.modifies.split('-');
  const modified = await repo.modifiedDocument(tx, modifiedType, series!, Number(number), true);
  if (!modified || ['anulado', 'anulación pendiente', 'rechazado'].includes(modified.status)) return;
  const accepted = await repo.creditedCents(tx, modifiedType, note.modifies, 'accepted');
  if (!voidGivesShipmentsBack(accepted, toCents(note.total), toCents(modified.total))) return;
  const holder = await repo.holderOfReleasedShipments(tx, modified.id);
  if (holder) throw conflict(CREDIT_NOTE_MESSAGES.voidShipmentsTaken(holder), undefined, 'CREDIT_NOTE_SHIPMENTS_TAKEN');
}
