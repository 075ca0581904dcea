import {
  BILLING_MESSAGES,
  centsToString,
  checkInvoice,
  displayName,
  formatDocumentNumber,
  inScope,
  limaDay,
  limaTime,
  scopeOf,
  type BillingCustomer,
  type BillingDocType,
  type InvoiceDraft,
  type InvoicePayload,
  type SunatDocumentType,
} from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import { fingerprint } from '../../lib/fingerprint.ts';
import { conflict, forbidden, pgError, unprocessable } from '../../lib/errors.ts';
import type { BillingDocument, GuideDocument, VoucherDocument } from '../../providers/billing/index.ts';
import type { Tx } from '../../db/client.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { fullNumber, issueResult, refusal, type IssueAnswer } from './documents.ts';
import { addressByRuc } from './customer-address.ts';
import { assertCreditable, CreditNoteRefused } from './credit-notes.ts';
import { send } from './lifecycle.ts';
import * as repo from './repository.ts';
import type { DocumentRecord, NewDocument } from './repository.ts';

/** Issuing: a document checked by the domain, numbered gaplessly, stored with its shipments, then sent. */

export async function customerById(ctx: ServiceContext, id: number): Promise<BillingCustomer | null> {
  const c = await repo.customerById(ctx.db, id);
  if (!c) return null;
  return {
    docType: c.docType as BillingDocType,
    docNumber: c.docNumber,
    name: [c.firstName, c.lastName].filter(Boolean).join(' '),
    address: c.address,
    email: c.email,
  };
}

/** A RUC customer without an address (a factura needs one) takes the address its RUC lookup answers. */
export async function withFacturaAddress<C extends BillingCustomer | null>(ctx: ServiceContext, customer: C): Promise<C> {
  if (!customer || customer.docType !== 6 || customer.address?.trim()) return customer;
  return { ...customer, address: await addressByRuc(ctx, customer.docNumber) };
}

export interface IssueOptions {
  idempotencyKey: string | null;
  /** The request as the client sent it, fingerprinted beside its key. */
  request: unknown;
  shipmentIds: number[];
}

/** The shipments a document will bill, checked before a number is taken. */
async function checkShipments(ctx: ServiceContext, user: SessionUser, ids: number[]): Promise<void> {
  const rows = await repo.shipmentsByIds(ctx.db, ids);
  const scope = scopeOf(user);
  for (const id of ids) {
    const s = rows.find((r) => r.id === id);
    if (!s) throw unprocessable(BILLING_MESSAGES.shipmentNotFound(id));
    if (!inScope(scope, s.originBranchId, s.destinationBranchId)) throw forbidden(BILLING_MESSAGES.shipmentForbidden(s.code));
    if (s.status === 'Anulado') throw unprocessable(BILLING_MESSAGES.shipmentCancelled(s.code));
    const live = await repo.liveDocumentOfShipment(ctx.db, id);
    if (!live) continue;
    // A note that credits it is not accepted yet: the shipment is freed once SUNAT accepts it (migration 0115), which the cashier is told.
    const note = await repo.pendingCreditNoteAgainst(ctx.db, live);
    throw conflict(
      note
        ? BILLING_MESSAGES.shipmentBilledNotePending(s.code, fullNumber(live), fullNumber(note))
        : BILLING_MESSAGES.shipmentBilled(s.code, fullNumber(live)),
    );
  }
}

/** What one issue stores: its register row (for the number it gets) and the shipments it links. */
export interface NumberedIssue {
  type: SunatDocumentType;
  series: string;
  idempotencyKey: string | null;
  /** Fingerprint of the request the key came with (see `issueNumbered`). */
  payloadHash: string;
  /** The register's columns and the provider's document, once the series gave its number. */
  row(number: number, issueTime: string): { columns: RegisterColumns; document: BillingDocument | GuideDocument | VoucherDocument };
  /**
   * The same without the number, when the document holds its number only at its top level (an
   * invoice, boleta or note): numbered and stored in one statement (`repo.numberAndInsert`).
   */
  unnumbered?(issueTime: string): { columns: RegisterColumns; document: Record<string, unknown> };
  links: { shipmentId: number; role?: 'guia' }[];
  /** The partial unique index a concurrent issue over the same shipments breaks, and who explains it. */
  liveLink: { constraint: string; explain: () => Promise<void> };
  /** Refusals that need the database, asked after a replay is ruled out (a replay's shipments are billed already). */
  check?: () => Promise<void>;
  /** Refusals asked again inside the numbering transaction, before the number is taken (rows they lock stay locked). */
  checkLocked?: (tx: Tx) => Promise<void>;
}

type RegisterColumns = Omit<
  NewDocument,
  'id' | 'type' | 'series' | 'number' | 'document' | 'idempotencyKey' | 'idempotencyHash' | 'branchId' | 'userId' | 'userName'
>;

/**
 * Numbers, stores and sends any document (invoice, note, guide, voucher). The series' counter row is
 * locked in the inserting transaction (gapless, no duplicates under concurrency) and the number is
 * committed before the provider is called: whatever the provider does (answers, refuses, times out),
 * the document keeps its number, and a consult or retry completes it without taking another. The
 * same idempotency key from the same issuing branch with the same payload answers the same
 * document, even when two requests race; another branch's key is not theirs to replay (issue 31).
 */
async function issueNumbered(ctx: ServiceContext, user: SessionUser, spec: NumberedIssue): Promise<IssueAnswer> {
  const idempotencyKey = repo.idempotencyKeyOf(spec.idempotencyKey);
  const replay = async (): Promise<IssueAnswer | null> => {
    const existing = await repo.findByIdempotencyKey(ctx.db, user.branchId, idempotencyKey);
    if (!existing) return null;
    // The key with another payload is a different request: refused, and nothing of the document told.
    // A key stored before payloads were fingerprinted (no hash) replays as it always did.
    if (existing.idempotencyHash !== null && existing.idempotencyHash !== spec.payloadHash) {
      throw conflict(BILLING_MESSAGES.idempotencyKeyReused, undefined, 'IDEMPOTENCY_KEY_REUSED');
    }
    return { statusCode: 200, result: issueResult(existing) };
  };
  const earlier = await replay();
  if (earlier) return earlier;
  await spec.check?.();
  let doc: DocumentRecord;
  try {
    doc = numberedAlone(spec)
      ? await numberAlone(ctx, user, spec, idempotencyKey)
      : await ctx.db.transaction((tx) => numberIn(ctx, tx, user, spec, idempotencyKey));
  } catch (err) {
    const pg = pgError(err);
    // Two emissions with the same key raced: the loser's transaction (and its number) rolled back.
    if (pg?.code === '23505' && pg.constraint === 'documents_branch_idempotency_uq') {
      const winner = await replay();
      if (winner) return winner;
    }
    // A shipment taken by a concurrent document between the check and the insert.
    if (pg?.code === '23505' && pg.constraint === spec.liveLink.constraint) await spec.liveLink.explain();
    throw err;
  }
  return send(ctx, user, doc);
}

/** Whether a document is numbered by one statement: it takes its number at its top level, links nothing and checks nothing under a lock. */
const numberedAlone = (spec: NumberedIssue) => spec.unnumbered !== undefined && !spec.checkLocked && spec.links.length === 0;

/**
 * A document numbered and stored by ONE statement outside any transaction (see numberedAlone): no
 * begin and commit round trips, and the series' counter is locked only while PostgreSQL runs and
 * commits that statement, never while the statement's answer waits for a busy event loop to send
 * a commit (issue 37: eight cashiers on one boleta series queued on that wait).
 */
export function numberAlone(ctx: ServiceContext, user: SessionUser, spec: NumberedIssue, idempotencyKey: string | null): Promise<DocumentRecord> {
  if (!numberedAlone(spec)) throw new Error('numberAlone: a document with links or locked checks is numbered in a transaction (numberIn)');
  return repo.numberAndInsert(ctx.db, unnumberedValues(ctx, user, spec, idempotencyKey), []);
}

/**
 * The numbering transaction's writes, in the caller's transaction: the series' counter locked, the
 * number taken, the document stored with its links, its first event and its audit.
 */
async function numberIn(ctx: ServiceContext, tx: Tx, user: SessionUser, spec: NumberedIssue, idempotencyKey: string | null): Promise<DocumentRecord> {
  const now = ctx.now();
  await spec.checkLocked?.(tx);
  // Everything but the numbering is asked before it: the series' counter stays locked from here to the commit.
  if (spec.unnumbered) return repo.numberAndInsert(tx, unnumberedValues(ctx, user, spec, idempotencyKey), spec.links);
  const number = await repo.takeNumber(tx, spec.type, spec.series);
  const { columns, document } = spec.row(number, limaTime(now));
  const row = await repo.insertDocument(
    tx,
    {
      ...columns,
      type: spec.type,
      series: spec.series,
      number,
      document,
      idempotencyKey,
      idempotencyHash: idempotencyKey ? spec.payloadHash : null,
      branchId: user.branchId,
      userId: user.id,
      userName: displayName(user),
    },
    spec.links,
  );
  await repo.addEvent(tx, row.id, { kind: 'emitido', userId: user.id, userName: displayName(user), operation: 'emit', request: document });
  await audit(tx, {
    userId: user.id,
    entity: 'document',
    entityId: row.id,
    action: 'emit',
    after: { type: spec.type, series: spec.series, number },
  });
  return row;
}

/** What `repo.numberAndInsert` stores of an issue whose document takes its number at its top level. */
function unnumberedValues(ctx: ServiceContext, user: SessionUser, spec: NumberedIssue, idempotencyKey: string | null): repo.UnnumberedDocument {
  const { columns, document } = spec.unnumbered!(limaTime(ctx.now()));
  return {
    ...columns,
    type: spec.type,
    series: spec.series,
    document,
    idempotencyKey,
    idempotencyHash: idempotencyKey ? spec.payloadHash : null,
    branchId: user.branchId,
    userId: user.id,
    userName: displayName(user),
  };
}

/** Numbers, stores and sends a checked invoice, boleta or note (see `issueNumbered`). */
export async function issueDraft(ctx: ServiceContext, user: SessionUser, draft: InvoiceDraft, options: IssueOptions): Promise<IssueAnswer> {
  try {
    return await issueCheckedDraft(ctx, user, draft, options);
  } catch (err) {
    if (err instanceof CreditNoteRefused) return { statusCode: 422, result: refusal(err.problems) };
    throw err;
  }
}

function issueCheckedDraft(ctx: ServiceContext, user: SessionUser, draft: InvoiceDraft, options: IssueOptions): Promise<IssueAnswer> {
  return issueNumbered(ctx, user, draftIssue(ctx, user, draft, options));
}

/** The register's columns of a checked invoice, boleta or note: its customer and its totals as text. */
export function draftColumns(draft: InvoiceDraft): RegisterColumns {
  const t = draft.totals;
  return {
    issueDate: draft.issueDate,
    contingency: draft.contingency,
    customerId: draft.customerId,
    customerDocType: String(draft.customer.docType),
    customerDocNumber: draft.customer.docNumber,
    customerName: draft.customer.name,
    gravada: centsToString(t.gravadaCents),
    exonerada: centsToString(t.exoneradaCents),
    inafecta: centsToString(t.inafectaCents),
    igv: centsToString(t.igvCents),
    total: centsToString(t.totalCents),
    modifies: draft.creditNote ? formatDocumentNumber(draft.creditNote.modifiedSeries, draft.creditNote.modifiedNumber) : null,
  };
}

/** What numbering a checked invoice, boleta or note stores, and the refusals it asks first. */
export function draftIssue(ctx: ServiceContext, user: SessionUser, draft: InvoiceDraft, options: IssueOptions): NumberedIssue {
  return {
    type: draft.type,
    series: draft.series,
    idempotencyKey: options.idempotencyKey,
    payloadHash: fingerprint({ request: options.request, shipmentIds: [...options.shipmentIds].sort((a, b) => a - b) }),
    row: (number, issueTime) => ({
      document: { ...draft, number, issueTime },
      columns: draftColumns(draft),
    }),
    unnumbered: (issueTime) => ({ document: { ...draft, issueTime }, columns: draftColumns(draft) }),
    links: options.shipmentIds.map((shipmentId) => ({ shipmentId })),
    check: async () => {
      await assertCreditable(ctx.db, draft, false);
      await checkShipments(ctx, user, options.shipmentIds);
    },
    checkLocked: draft.creditNote ? (tx) => assertCreditable(tx, draft, true) : undefined,
    liveLink: { constraint: 'document_shipments_live_uq', explain: () => checkShipments(ctx, user, options.shipmentIds) },
  };
}

/** A guide or voucher checked by the domain, ready to be numbered and stored like an invoice. */
export interface OtherIssue {
  type: SunatDocumentType;
  series: string;
  issueDate: string;
  contingency: boolean;
  /** The guide's client or the voucher's subject: the register's customer columns. */
  party: { docType: number; docNumber: string; name: string };
  /** The voucher's withheld or perceived total (0 for a guide). */
  totalCents: number;
  /** The document the provider takes, once numbered. */
  build(number: number, issueTime: string): GuideDocument | VoucherDocument;
  idempotencyKey: string | null;
  /** Shipments carried under the guide (a GRE-T from a load), linked in the numbering transaction. */
  carriedShipmentIds?: number[];
  /** Asked again when a concurrent guide took one of the shipments between the check and the insert. */
  onShipmentTaken?: () => Promise<void>;
}

/** Numbers, stores and sends a guide or voucher exactly as an invoice (see `issueNumbered`). */
export async function issueOther(ctx: ServiceContext, user: SessionUser, spec: OtherIssue): Promise<IssueAnswer> {
  const carried = [...new Set(spec.carriedShipmentIds ?? [])];
  return issueNumbered(ctx, user, {
    type: spec.type,
    series: spec.series,
    idempotencyKey: spec.idempotencyKey,
    // A guide or voucher is fingerprinted as built: the domain's draft is all its request says.
    payloadHash: fingerprint(spec.build(0, '')),
    row: (number, issueTime) => ({
      document: spec.build(number, issueTime),
      columns: {
        issueDate: spec.issueDate,
        contingency: spec.contingency,
        customerDocType: String(spec.party.docType),
        customerDocNumber: spec.party.docNumber,
        customerName: spec.party.name,
        gravada: '0.00',
        exonerada: '0.00',
        inafecta: '0.00',
        igv: '0.00',
        total: centsToString(spec.totalCents),
      },
    }),
    links: carried.map((shipmentId) => ({ shipmentId, role: 'guia' as const })),
    liveLink: { constraint: 'document_shipments_guide_live_uq', explain: async () => spec.onShipmentTaken?.() },
  });
}

/** `POST /billing/create-emit`: the form's payload, checked by the same rules as the form. */
export async function createAndEmit(
  ctx: ServiceContext,
  user: SessionUser,
  payload: InvoicePayload,
  shipmentIds: number[] = [],
): Promise<IssueAnswer> {
  const registered = payload.customerId ? await customerById(ctx, payload.customerId) : null;
  const customer = payload.type === '01' ? await withFacturaAddress(ctx, registered) : registered;
  const typed = payload.customer;
  const checked =
    payload.type === '01' && !payload.customerId && typed && typed.doc_type === 6 && !typed.address
      ? { ...payload, customer: { ...typed, address: await addressByRuc(ctx, typed.doc_number) } }
      : payload;
  const check = checkInvoice(checked, { today: limaDay(ctx.now()), customer });
  if (!check.ok) return { statusCode: 422, result: refusal(check.problems) };
  return issueDraft(ctx, user, check.draft, {
    idempotencyKey: payload.extras.codigo_unico ?? null,
    request: payload,
    shipmentIds: [...new Set(shipmentIds)],
  });
}
