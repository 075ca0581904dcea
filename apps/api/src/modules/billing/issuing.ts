import {
  BILLING_MESSAGES,
  centsToString,
  checkInvoice,
  displayName,
  formatDocumentNumber,
  inScope,
  limaDay,
  limaTime,
  paymentReceiptDraft,
  scopeOf,
  toCents,
  type BillingCustomer,
  type ComponentItem,
  type BillingDocType,
  type InvoiceDraft,
  type InvoicePayload,
  type ReceiptRequest,
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

async function customerById(ctx: ServiceContext, id: number): Promise<BillingCustomer | null> {
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
async function withFacturaAddress<C extends BillingCustomer | null>(ctx: ServiceContext, customer: C): Promise<C> {
  if (!customer || customer.docType !== 6 || customer.address?.trim()) return customer;
  return { ...customer, address: await addressByRuc(ctx, customer.docNumber) };
}

interface IssueOptions {
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
    if (live) throw conflict(BILLING_MESSAGES.shipmentBilled(s.code, fullNumber(live)));
  }
}

/** What one issue stores: its register row (for the number it gets) and the shipments it links. */
interface NumberedIssue {
  type: SunatDocumentType;
  series: string;
  idempotencyKey: string | null;
  /** Fingerprint of the request the key came with (see `issueNumbered`). */
  payloadHash: string;
  /** The register's columns and the provider's document, once the series gave its number. */
  row(number: number, issueTime: string): { columns: RegisterColumns; document: BillingDocument | GuideDocument | VoucherDocument };
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
  const now = ctx.now();
  let doc: DocumentRecord;
  try {
    doc = await ctx.db.transaction(async (tx) => {
      await spec.checkLocked?.(tx);
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
    });
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

/** Numbers, stores and sends a checked invoice, boleta or note (see `issueNumbered`). */
async function issueDraft(ctx: ServiceContext, user: SessionUser, draft: InvoiceDraft, options: IssueOptions): Promise<IssueAnswer> {
  try {
    return await issueCheckedDraft(ctx, user, draft, options);
  } catch (err) {
    if (err instanceof CreditNoteRefused) return { statusCode: 422, result: refusal(err.problems) };
    throw err;
  }
}

async function issueCheckedDraft(ctx: ServiceContext, user: SessionUser, draft: InvoiceDraft, options: IssueOptions): Promise<IssueAnswer> {
  const t = draft.totals;
  return issueNumbered(ctx, user, {
    type: draft.type,
    series: draft.series,
    idempotencyKey: options.idempotencyKey,
    payloadHash: fingerprint({ request: options.request, shipmentIds: [...options.shipmentIds].sort((a, b) => a - b) }),
    row: (number, issueTime) => ({
      document: { ...draft, number, issueTime },
      columns: {
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
      },
    }),
    links: options.shipmentIds.map((shipmentId) => ({ shipmentId })),
    check: async () => {
      await assertCreditable(ctx.db, draft, false);
      await checkShipments(ctx, user, options.shipmentIds);
    },
    checkLocked: draft.creditNote ? (tx) => assertCreditable(tx, draft, true) : undefined,
    liveLink: { constraint: 'document_shipments_live_uq', explain: () => checkShipments(ctx, user, options.shipmentIds) },
  });
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

/**
 * A counter receipt as the payments module asks for it: the amount in céntimos (never as text), the
 * customer as the payment stored it, and the payment's own key (one document per payment attempt).
 */
export interface CounterReceipt {
  amountCents: number;
  customerId: number | null;
  customer: { docType: number; docNumber: string; name: string; address?: string | null; email?: string | null };
  shipmentCode: string | null;
  description: string | null;
  /** One item per price component of the shipment (issue 34); absent, the one 'Servicio de envío' item. */
  items?: readonly ComponentItem[] | null;
  /** The company's liability clause, printed on the receipt of a shipment (issue 34). */
  liabilityClause?: string | null;
  idempotencyKey: string | null;
}

/**
 * The fingerprint a payment's receipt key was stored with since keys were fingerprinted: the request
 * as `POST /billing/emit` would carry it. Kept so a payment numbered before this typed path replays
 * its receipt instead of being refused as a reused key.
 */
function counterReceiptRequest(r: CounterReceipt): ReceiptRequest {
  return {
    amount: centsToString(r.amountCents),
    customerId: r.customerId,
    customer: { doc_type: r.customer.docType, doc_number: r.customer.docNumber, name: r.customer.name },
    shipmentCode: r.shipmentCode ?? undefined,
    description: r.description ?? undefined,
    codigo_unico: r.idempotencyKey,
  };
}

/** The payments module: the receipt of a payment taken at the counter (see `issueCounterReceipt`). */
export function issuePaymentReceipt(ctx: ServiceContext, user: SessionUser, receipt: CounterReceipt): Promise<IssueAnswer> {
  return issueCounterReceipt(ctx, user, receipt, counterReceiptRequest(receipt), []);
}

/** `POST /billing/emit`: the wire request (amount in soles as text or number) read once into céntimos. */
export async function issueReceipt(ctx: ServiceContext, user: SessionUser, input: ReceiptRequest, shipmentIds: number[] = []): Promise<IssueAnswer> {
  let amountCents: number;
  try {
    amountCents = toCents(input.amount);
  } catch {
    return { statusCode: 422, result: refusal(['Monto inválido']) };
  }
  const c = input.customer;
  const receipt: CounterReceipt = {
    amountCents,
    customerId: input.customerId ?? null,
    customer: {
      docType: c?.doc_type ?? 1,
      docNumber: c?.doc_number ?? '',
      name: c?.name ?? '',
      address: c?.address ?? null,
      email: c?.email ?? null,
    },
    shipmentCode: input.shipmentCode ?? null,
    description: input.description ?? null,
    idempotencyKey: input.codigo_unico ?? null,
  };
  return issueCounterReceipt(ctx, user, receipt, input, shipmentIds);
}

/** Checks a counter receipt by the domain's rules and issues it; `request` is what its key is fingerprinted with. */
async function issueCounterReceipt(
  ctx: ServiceContext,
  user: SessionUser,
  input: CounterReceipt,
  request: unknown,
  shipmentIds: number[],
): Promise<IssueAnswer> {
  const today = limaDay(ctx.now());
  const registered = input.customerId ? await customerById(ctx, input.customerId) : null;
  if (input.customerId && !registered) return { statusCode: 422, result: refusal([BILLING_MESSAGES.customerNotFound]) };
  const c = input.customer;
  // A factura needs the customer's address: when neither the record nor the payment has one, the RUC lookup is asked.
  const customer: BillingCustomer = await withFacturaAddress(
    ctx,
    registered ?? {
      docType: c.docType as BillingDocType,
      docNumber: c.docNumber,
      name: c.name,
      address: c.address ?? null,
      email: c.email ?? null,
    },
  );
  const check = paymentReceiptDraft(
    {
      amountCents: input.amountCents,
      customer,
      customerId: input.customerId,
      issueDate: today,
      code: input.shipmentCode,
      ...(input.description ? { description: input.description } : {}),
      items: input.items ?? null,
    },
    { today, customer: registered },
  );
  if (!check.ok) return { statusCode: 422, result: refusal(check.problems) };
  const draft = input.liabilityClause ? { ...check.draft, liabilityClause: input.liabilityClause } : check.draft;
  return issueDraft(ctx, user, draft, { idempotencyKey: input.idempotencyKey, request, shipmentIds });
}
