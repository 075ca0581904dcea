import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import {
  centsToNumber,
  closingAnswer,
  closingSummary,
  countedFromDenominations,
  csvDialectFor,
  displayName,
  formatDocumentNumber,
  limaDay,
  movementCsvLine,
  movementCsvPreamble,
  paidPill,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_NAMES,
  PAYMENT_METHODS,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  receiptItemFor,
  receiptKey,
  toCents,
  type CashSession,
  type CloseCashSessionRequest,
  type DocumentStatus,
  type IssueResult,
  type ManualPayment,
  type ManualPaymentRequest,
  type ManualPaymentResult,
  type MovementFilters,
  type MovementPage,
  type MovementRow,
  type PaymentMethod,
  type PaymentStatus,
} from '@tramo/domain';
import { cashSessions, paymentMovements, payments } from '../../db/schema.ts';
import type { Tx } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import type { KeysetRequest } from '../../lib/keyset.ts';
import { AppError, conflict, forbidden, notFound, pgError, unprocessable } from '../../lib/errors.ts';
import type { App, SessionUser } from '../../types.ts';
import { issueReceipt, lookupDocument, voidDocument } from '../billing/index.ts';
import * as repo from './repository.ts';
import type { PaymentView, Scope } from './repository.ts';

/** DESIGN.md sections 4 and 5a: admins every branch; agents what their branch collected. */
const scopeOf = (u: SessionUser): Scope => (u.role === 'admin' ? 'all' : u.branchId);
const inScope = (scope: Scope, branchId: number | null) => scope === 'all' || (scope !== null && branchId === scope);

const iso = (v: Date | string | null): string | null => (v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString());

function toPayment(v: PaymentView): ManualPayment {
  const p = v.p;
  return {
    id: p.id,
    shipment_id: p.shipmentId,
    shipmentCode: v.shipmentCode,
    status: p.status as PaymentStatus,
    statusLabel: PAYMENT_STATUS_LABELS[p.status as PaymentStatus],
    method_code: p.method as PaymentMethod,
    methodName: PAYMENT_METHOD_NAMES[p.method as PaymentMethod],
    amount: centsToNumber(p.amountCents),
    currency: 'PEN',
    customer_id: p.customerId,
    customer_name: p.customerName,
    customerDocType: p.customerDocType,
    customerDocNumber: p.customerDocNumber,
    providerTxId: p.providerTxId,
    received_at: p.createdAt.toISOString(),
    paidAt: iso(p.paidAt),
    canceledAt: iso(p.canceledAt),
    cancelReason: p.cancelReason,
    branchId: p.branchId,
    branchName: v.branchName,
    collectedByUserId: p.userId,
    collectedByName: p.userName,
    cashSessionId: p.cashSessionId,
    documentId: p.documentId,
    documentNumber: v.docSeries && v.docNumber ? formatDocumentNumber(v.docSeries, v.docNumber) : null,
    documentStatus: (v.docStatus as DocumentStatus | null) ?? null,
    pdfUrl: p.documentId ? (v.docPdfUrl ?? `/api/billing/documents/${p.documentId}/pdf?format=a4`) : null,
    lastError: p.lastError,
  };
}

async function visiblePayment(app: App, user: SessionUser, id: number): Promise<PaymentView> {
  const v = await repo.paymentById(app.db, id);
  if (!v) throw notFound(PAYMENT_MESSAGES.notFound);
  if (!inScope(scopeOf(user), v.p.branchId)) throw forbidden(PAYMENT_MESSAGES.forbidden);
  return v;
}

// ---- cash sessions -----------------------------------------------------------------------------

/** The collector's open session, locked for this transaction; opened with S/ 0.00 when none. */
async function sessionForPayment(app: App, tx: Tx, user: SessionUser): Promise<{ id: number; opened: boolean }> {
  const open = await repo.lockOpenSession(tx, user.id);
  if (open) return { id: open.id, opened: false };
  if (user.branchId === null) throw unprocessable(PAYMENT_MESSAGES.noBranch);
  const opened = await repo.insertSessionIfNone(tx, {
    userId: user.id,
    userName: displayName(user),
    branchId: user.branchId,
    floatCents: 0,
    openedAt: app.now(),
  });
  const session = (await repo.lockOpenSession(tx, user.id))!;
  if (opened)
    await audit(tx, { userId: user.id, entity: 'cash_session', entityId: session.id, action: 'open', after: { float: 0, automatic: true } });
  return { id: session.id, opened };
}

// ---- payments ----------------------------------------------------------------------------------

export async function listManualPayments(
  app: App,
  user: SessionUser,
  day: string | undefined,
  status: PaymentStatus | undefined,
  request: KeysetRequest,
) {
  const { rows, total, totalCapped, next, prev } = await repo.listPayments(app.db, scopeOf(user), day ?? limaDay(app.now()), status, request);
  return { items: rows.map(toPayment), total, totalCapped, page: request.page, pageSize: request.pageSize, next, prev };
}

export async function getPayment(app: App, user: SessionUser, id: number): Promise<ManualPayment> {
  return toPayment(await visiblePayment(app, user, id));
}

/**
 * `POST /payments/manual`: the payment is stored pending (the partial unique index refuses a second
 * live one for the shipment), then its receipt is issued and the payment confirmed.
 */
export async function createManualPayment(
  app: App,
  user: SessionUser,
  input: ManualPaymentRequest,
): Promise<{ statusCode: 201 | 202; result: ManualPaymentResult }> {
  const shipment = await repo.findShipment(app.db, input.shipmentId);
  if (!shipment) throw notFound(PAYMENT_MESSAGES.shipmentNotFound);
  const scope = scopeOf(user);
  if (!inScope(scope, shipment.originBranchId)) throw forbidden(PAYMENT_MESSAGES.shipmentForbidden);
  if (shipment.status !== 'Creado') throw unprocessable(PAYMENT_MESSAGES.shipmentNotCreado);
  if (limaDay(shipment.createdAt) !== limaDay(app.now())) throw unprocessable(PAYMENT_MESSAGES.shipmentNotToday);

  let created: { id: number; opened: boolean };
  try {
    created = await app.db.transaction(async (tx) => {
      let session: { id: number; opened: boolean };
      if (input.cashSessionId) {
        const s = await repo.lockSession(tx, input.cashSessionId);
        if (!s) throw notFound(PAYMENT_MESSAGES.sessionNotFound);
        if (s.userId !== user.id) throw forbidden(PAYMENT_MESSAGES.sessionNotYours);
        if (s.closedAt) throw conflict(PAYMENT_MESSAGES.sessionClosed, undefined, 'CASH_SESSION_CLOSED');
        session = { id: s.id, opened: false };
      } else session = await sessionForPayment(app, tx, user);
      const now = app.now();
      const [row] = await tx
        .insert(payments)
        .values({
          shipmentId: shipment.id,
          status: 'pending',
          method: input.methodCode,
          amountCents: input.amountCents,
          currency: 'PEN',
          providerTxId: input.providerTxId,
          customerId: input.customerId,
          customerDocType: input.customerDocType,
          customerDocNumber: input.customerDocNumber,
          customerName: input.customerName,
          branchId: user.branchId ?? shipment.originBranchId,
          userId: user.id,
          userName: displayName(user),
          cashSessionId: session.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: payments.id });
      await audit(tx, {
        userId: user.id,
        entity: 'payment',
        entityId: row!.id,
        action: 'create',
        after: { shipmentId: shipment.id, amountCents: input.amountCents, method: input.methodCode, cashSessionId: session.id },
      });
      return { id: row!.id, opened: session.opened };
    });
  } catch (err) {
    const pg = pgError(err);
    if (pg?.code === '23505' && pg.constraint === 'payments_one_live_per_shipment_uq') {
      const live = await repo.livePaymentOf(app.db, shipment.id);
      throw conflict(live?.status === 'paid' ? PAYMENT_MESSAGES.duplicatePaid : PAYMENT_MESSAGES.duplicatePending, undefined, 'PAYMENT_EXISTS');
    }
    throw err;
  }
  const answer = await complete(app, user, created.id);
  return { statusCode: answer.statusCode, result: { ...answer.result, cashSessionOpened: created.opened } };
}

/** `POST /payments/manual/{id}/confirm`: issues (or finds) the receipt of a pending payment and confirms it. Idempotent. */
export async function confirmManualPayment(app: App, user: SessionUser, id: number): Promise<{ statusCode: 201 | 202; result: ManualPaymentResult }> {
  const v = await visiblePayment(app, user, id);
  if (v.p.status === 'canceled') throw conflict(PAYMENT_MESSAGES.alreadyCanceled);
  if (v.p.status === 'paid')
    return { statusCode: 201, result: { ok: true, payment: toPayment(v), receipt: null, error: null, warning: null, cashSessionOpened: false } };
  return complete(app, user, id);
}

interface ReceiptOutcome {
  ok: boolean;
  receipt: IssueResult | null;
  documentId: number | null;
  error: string | null;
}

/** Issues the receipt under the payment's key; a document already under it is consulted instead (one document, never two). */
async function receiptFor(app: App, user: SessionUser, p: repo.PaymentRecord, shipmentCode: string): Promise<ReceiptOutcome> {
  const item = receiptItemFor(shipmentCode, p.amountCents, p.customerDocType === 6 ? 6 : 1);
  const issue = (attempt: number) =>
    issueReceipt(
      app,
      user,
      {
        amount: (p.amountCents / 100).toFixed(2),
        customerId: p.customerId,
        customer: { doc_type: p.customerDocType, doc_number: p.customerDocNumber, name: p.customerName },
        shipmentCode,
        description: item.description,
        codigo_unico: receiptKey(p.id, attempt),
      },
      [],
    );
  let attempt = p.receiptAttempts;
  let answer = await issue(attempt);
  if (answer.statusCode === 200 && answer.result.id !== null) {
    // Already issued under this key (a retry): ask the provider where it stands (a lost one is sent again).
    const detail = await lookupDocument(app, user, answer.result.id);
    const last = detail.history.at(-1);
    if (detail.status === 'aceptado' || (detail.status === 'pendiente' && last?.kind !== 'error')) {
      return { ok: true, receipt: { ...answer.result, ok: true, error: null, status: detail.status }, documentId: detail.id, error: null };
    }
    if (detail.status === 'pendiente') {
      return {
        ok: false,
        receipt: { ...answer.result, ok: false, status: 'pendiente', error: last?.note ?? null },
        documentId: detail.id,
        error: last?.note ?? PAYMENT_MESSAGES.createFailed,
      };
    }
    // Rejected (or voided through billing): the next attempt takes a new document under a new key.
    attempt += 1;
    await app.db.update(payments).set({ receiptAttempts: attempt, updatedAt: app.now() }).where(eq(payments.id, p.id));
    answer = await issue(attempt);
  }
  const r = answer.result;
  // 201: the provider took it. 202 (no answer: pending), 422 (refused) and 424 (provider failed) leave the payment pending.
  const ok = answer.statusCode === 201 && r.status !== 'rechazado';
  return { ok, receipt: { ...r, ok }, documentId: r.id, error: ok ? null : (r.error ?? PAYMENT_MESSAGES.createFailed) };
}

async function complete(app: App, user: SessionUser, id: number): Promise<{ statusCode: 201 | 202; result: ManualPaymentResult }> {
  const v = (await repo.paymentById(app.db, id))!;
  let outcome: ReceiptOutcome;
  try {
    outcome = await receiptFor(app, user, v.p, v.shipmentCode);
  } catch (err) {
    const message = err instanceof AppError ? err.message : PAYMENT_MESSAGES.createFailed;
    if (!(err instanceof AppError)) app.log.error({ err }, 'payment receipt failed');
    outcome = { ok: false, receipt: null, documentId: null, error: message };
  }
  // The receipt's document and the last error are kept on the payment whatever happens next.
  await app.db
    .update(payments)
    .set({ documentId: outcome.documentId ?? v.p.documentId, lastError: outcome.error, updatedAt: app.now() })
    .where(and(eq(payments.id, id), eq(payments.status, 'pending')));
  if (!outcome.ok) {
    const after = (await repo.paymentById(app.db, id))!;
    return {
      statusCode: 202,
      result: { ok: false, payment: toPayment(after), receipt: outcome.receipt, error: outcome.error, warning: null, cashSessionOpened: false },
    };
  }
  let warning: string | null = outcome.receipt && !outcome.receipt.enlace_del_pdf ? PAYMENT_MESSAGES.noPdf : null;
  try {
    await confirm(app, user, id);
  } catch (err) {
    if (err instanceof AppError) throw err;
    app.log.error({ err }, 'payment confirmation failed');
    warning = PAYMENT_MESSAGES.confirmWarning;
  }
  const after = (await repo.paymentById(app.db, id))!;
  const paid = after.p.status === 'paid';
  return {
    statusCode: paid ? 201 : 202,
    result: { ok: paid, payment: toPayment(after), receipt: outcome.receipt, error: null, warning, cashSessionOpened: false },
  };
}

/** pending → paid, its charge in the ledger (the payment's session if still open, else the confirming user's), and the audit row. */
async function confirm(app: App, user: SessionUser, id: number): Promise<void> {
  await app.db.transaction(async (tx) => {
    const now = app.now();
    // Sessions are locked before the payment row, in every transaction here: a creation holds its
    // session and then waits on the shipment's live payment, so the other order would deadlock.
    const current = await repo.findPayment(tx, id);
    if (!current) throw notFound(PAYMENT_MESSAGES.notFound);
    const own = await repo.lockSession(tx, current.cashSessionId);
    const sessionId = own && !own.closedAt ? own.id : (await sessionForPayment(app, tx, user)).id;
    const [row] = await tx
      .update(payments)
      .set({ status: 'paid', paidAt: now, lastError: null, updatedAt: now })
      .where(and(eq(payments.id, id), eq(payments.status, 'pending')))
      .returning();
    if (!row) {
      const after = await repo.findPayment(tx, id);
      if (after?.status === 'canceled') throw conflict(PAYMENT_MESSAGES.alreadyCanceled);
      return; // already paid by a concurrent confirmation
    }
    await tx
      .insert(paymentMovements)
      .values({ paymentId: id, kind: 'cobro', method: row.method, amountCents: row.amountCents, cashSessionId: sessionId, userId: user.id, at: now });
    await audit(tx, {
      userId: user.id,
      entity: 'payment',
      entityId: id,
      action: 'confirm',
      before: { status: 'pending' },
      after: { status: 'paid', documentId: row.documentId },
    });
  });
}

/**
 * `POST /payments/manual/{id}/cancel` and `/payments/payments/{id}/cancel`: the payment becomes
 * canceled (once: the conditional update decides between concurrent voids), a reversal lands in the
 * voiding user's open session, and the receipt is voided through billing. If billing refuses, the
 * payment is as it was.
 */
export async function cancelPayment(app: App, user: SessionUser, id: number, motivo: string): Promise<ManualPayment> {
  const v = await visiblePayment(app, user, id);
  const before = v.p;
  if (before.status === 'canceled') throw conflict(PAYMENT_MESSAGES.alreadyCanceled, undefined, 'ALREADY_CANCELED');
  let voidReceipt = false;
  if (before.documentId) {
    const doc = await lookupDocument(app, user, before.documentId);
    if (doc.status === 'aceptado') voidReceipt = true;
    else if (doc.status === 'pendiente' && before.status === 'paid') throw conflict(PAYMENT_MESSAGES.receiptPending, undefined, 'RECEIPT_PENDING');
  }
  await app.db.transaction(async (tx) => {
    const now = app.now();
    const session = await sessionForPayment(app, tx, user); // the session first, then the payment (see confirm)
    const [row] = await tx
      .update(payments)
      .set({ status: 'canceled', canceledAt: now, cancelReason: motivo, updatedAt: now })
      .where(and(eq(payments.id, id), eq(payments.status, before.status)))
      .returning();
    // Taken by a concurrent void: throwing rolls back whatever this transaction opened.
    if (!row) throw conflict(PAYMENT_MESSAGES.alreadyCanceled, undefined, 'ALREADY_CANCELED');
    const [charge] = await tx
      .select({ cents: paymentMovements.amountCents })
      .from(paymentMovements)
      .where(and(eq(paymentMovements.paymentId, id), eq(paymentMovements.kind, 'cobro')));
    await tx.insert(paymentMovements).values({
      paymentId: id,
      kind: 'anulacion',
      method: row.method,
      amountCents: -(charge?.cents ?? 0),
      cashSessionId: session.id,
      userId: user.id,
      at: now,
    });
    await audit(tx, {
      userId: user.id,
      entity: 'payment',
      entityId: id,
      action: 'cancel',
      before: { status: before.status },
      after: { status: 'canceled', reason: motivo },
    });
  });
  if (voidReceipt) {
    try {
      await voidDocument(app, user, before.documentId!, motivo);
    } catch (err) {
      await app.db.transaction(async (tx) => {
        await tx
          .update(payments)
          .set({ status: before.status, canceledAt: null, cancelReason: null, updatedAt: app.now() })
          .where(eq(payments.id, id));
        await tx.delete(paymentMovements).where(and(eq(paymentMovements.paymentId, id), eq(paymentMovements.kind, 'anulacion')));
        await audit(tx, {
          userId: user.id,
          entity: 'payment',
          entityId: id,
          action: 'cancel-failed',
          after: { status: before.status, error: err instanceof Error ? err.message : String(err) },
        });
      });
      const detail = err instanceof AppError ? ` ${err.message}` : '';
      throw new AppError(err instanceof AppError ? err.statusCode : 424, 'CANCEL_FAILED', `${PAYMENT_MESSAGES.cancelFailed}${detail}`);
    }
  }
  return toPayment((await repo.paymentById(app.db, id))!);
}

// ---- shipments to collect, customers, receivables ----------------------------------------------

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export async function shipmentsToCollect(app: App, user: SessionUser, page: number, pageSize: number) {
  const { rows, total } = await repo.shipmentsToCollect(app.db, scopeOf(user), limaDay(app.now()), page, pageSize);
  return {
    items: rows.map((r) => {
      const paymentStatus = (r.payment_status as PaymentStatus | null) ?? null;
      return {
        id: Number(r.id),
        code: String(r.code),
        status: String(r.status),
        senderName: String(r.sender_name),
        senderCustomerId: num(r.sender_customer_id),
        senderDocType: num(r.sender_doc_type),
        senderDoc: str(r.sender_doc),
        recipientName: String(r.recipient_name),
        recipientDoc: String(r.recipient_doc),
        originBranchId: Number(r.origin_branch_id),
        destinationBranchId: Number(r.destination_branch_id),
        originBranch: { name: String(r.origin_name) },
        destinationBranch: { name: String(r.destination_name) },
        createdAt: iso(r.created_at as string)!,
        quotedPrice: centsToNumber(toCents(String(r.quoted_price))),
        quotedCurrency: String(r.quoted_currency),
        weightKg: Number(r.weight_kg),
        productType: String(r.product_type),
        description: str(r.description),
        paid: paymentStatus === 'paid',
        pill: paidPill(paymentStatus === 'paid'),
        paymentId: num(r.payment_id),
        paymentStatus,
      };
    }),
    total,
    page,
    pageSize,
  };
}

const customerAnswer = (c: NonNullable<Awaited<ReturnType<typeof repo.findCustomer>>>) => ({
  id: c.id,
  doc_type: c.docType,
  doc_number: c.docNumber,
  name: [c.firstName, c.lastName].filter(Boolean).join(' '),
  first_name: c.firstName,
  last_name: c.lastName,
  address: c.address,
  email: c.email,
});

export async function lookupCustomers(app: App, q: string | undefined) {
  return (await repo.searchCustomers(app.db, q)).map(customerAnswer);
}

export async function customerById(app: App, id: number) {
  const c = await repo.findCustomer(app.db, id);
  if (!c) throw notFound(PAYMENT_MESSAGES.customerNotFound);
  return customerAnswer(c);
}

export async function receivables(app: App, user: SessionUser, q: string | undefined) {
  const rows = await repo.receivables(app.db, scopeOf(user), q);
  const items = rows.map((r) => ({
    customer_key: r.key,
    customer_id: num(r.customer_id),
    customer_name: r.name,
    customer_doc: r.doc_number,
    shipments_count: Number(r.shipments_count),
    open_amount: centsToNumber(toCents(r.open_amount)),
    currency: 'PEN' as const,
    last_shipment_at: iso(r.last_shipment_at)!,
  }));
  const totalOpen = rows.reduce((s, r) => s + toCents(r.open_amount), 0);
  return { items, total: items.length, totalOpen: centsToNumber(totalOpen) };
}

// ---- the movements report ----------------------------------------------------------------------

function checkBranchFilter(user: SessionUser, filters: MovementFilters) {
  const scope = scopeOf(user);
  if (scope !== 'all' && filters.branchId !== undefined && filters.branchId !== scope) throw forbidden(PAYMENT_MESSAGES.branchForbidden);
}

function toMovement(r: repo.MovementSqlRow): MovementRow {
  const drivers = [r.driver1, r.driver2].filter(Boolean).join(' / ') || null;
  return {
    type: 'payment',
    id: Number(r.id),
    date: iso(r.created_at)!,
    branchId: num(r.branch_id),
    branchName: r.branch_name,
    collectedByName: r.user_name,
    collectedByUserId: Number(r.user_id),
    methodName: PAYMENT_METHOD_NAMES[r.method],
    methodCode: r.method,
    amount: centsToNumber(Number(r.amount_cents)),
    currency: r.currency,
    statusLabel: PAYMENT_STATUS_LABELS[r.status],
    status: r.status,
    payerName: r.customer_name,
    customerName: r.customer_name,
    reference: r.reference,
    shipmentId: num(r.shipment_id),
    shipmentCode: r.shipment_code,
    platePrimary: r.plate_primary,
    plateSecondary: r.plate_secondary,
    driver1Name: r.driver1,
    driver2Name: r.driver2,
    drivers,
    senderName: r.sender_name,
    senderDoc: r.sender_doc,
    shipmentDescription: r.description,
    providerTxId: r.provider_tx_id,
    evidenceUrl: null,
    notes: r.cancel_reason,
  };
}

export async function movements(app: App, user: SessionUser, filters: MovementFilters, request: KeysetRequest): Promise<MovementPage> {
  checkBranchFilter(user, filters);
  const { page, pageSize } = request;
  const { rows, next, prev, groups } = await repo.movementPage(app.db, filters, scopeOf(user), request);
  const sum = (pick: (g: (typeof groups)[number]) => boolean) => {
    const mine = groups.filter(pick);
    return { count: mine.reduce((s, g) => s + Number(g.n), 0), cents: mine.reduce((s, g) => s + Number(g.cents), 0) };
  };
  const count = sum(() => true).count;
  return {
    items: rows.map(toMovement),
    total: count,
    page,
    pageSize,
    next,
    prev,
    totals: {
      byMethod: PAYMENT_METHODS.map((m) => {
        const s = sum((g) => g.method === m);
        return { methodCode: m, methodName: PAYMENT_METHOD_NAMES[m], count: s.count, amount: centsToNumber(s.cents) };
      }),
      byStatus: PAYMENT_STATUSES.map((st) => {
        const s = sum((g) => g.status === st);
        return { status: st, statusLabel: PAYMENT_STATUS_LABELS[st], count: s.count, amount: centsToNumber(s.cents) };
      }),
      paid: centsToNumber(sum((g) => g.status === 'paid').cents),
      count,
    },
  };
}

const CSV_BATCH = 1000;

/**
 * The whole filtered set as CSV in batches of 1000, written with back-pressure: memory stays flat
 * whatever the size, and the export stops when the client goes away. PostgreSQL reads through a
 * server-side cursor on its own connection. The embedded engine has a single connection that a
 * transaction would hold for the whole download (a slow client would stall every other request),
 * so there each batch is a seek past the last row, in the same order.
 */
export function movementsCsv(app: App, user: SessionUser, filters: MovementFilters, locale: string): Readable {
  checkBranchFilter(user, filters);
  const dialect = csvDialectFor(locale);
  const out = new PassThrough();
  const where = repo.movementWhere(filters, scopeOf(user));
  let closed = false;
  out.on('close', () => (closed = true));
  const write = (chunk: string) =>
    out.write(chunk)
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            out.off('close', done);
            resolve();
          };
          out.on('drain', done);
          out.on('close', done);
        });
  const writeBatch = (batch: repo.MovementSqlRow[]) => {
    let chunk = '';
    for (const r of batch) chunk += movementCsvLine(toMovement(r), dialect);
    return write(chunk);
  };
  void (async () => {
    try {
      await write(movementCsvPreamble(dialect));
      if (app.dbKind === 'postgres') {
        const cursor = `movements_csv_${randomBytes(6).toString('hex')}`;
        await app.db.transaction(async (tx) => {
          await tx.execute(sql`declare ${sql.raw(cursor)} no scroll cursor for ${repo.movementSelect(where)}`);
          while (!closed) {
            const batch = (await tx.execute(sql`fetch forward ${sql.raw(String(CSV_BATCH))} from ${sql.raw(cursor)}`))
              .rows as unknown as repo.MovementSqlRow[];
            if (batch.length > 0) await writeBatch(batch);
            if (batch.length < CSV_BATCH) break;
          }
          await tx.execute(sql`close ${sql.raw(cursor)}`);
        });
      } else {
        let after: { key: string; id: number } | null = null;
        while (!closed) {
          const batch = await repo.movementBatchAfter(app.db, where, after, CSV_BATCH);
          if (batch.length > 0) await writeBatch(batch);
          if (batch.length < CSV_BATCH) break;
          const last = batch[batch.length - 1]!;
          after = { key: last.created_at_key, id: Number(last.id) };
        }
      }
      out.end();
    } catch (err) {
      app.log.error({ err }, 'movements CSV export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  return out;
}

export async function dailyReport(app: App, user: SessionUser, day: string | undefined) {
  const date = day ?? limaDay(app.now());
  const rows = await repo.dailyRows(app.db, date, scopeOf(user));
  const paid = rows.filter((r) => r.status === 'paid');
  const canceled = rows.filter((r) => r.status === 'canceled');
  return {
    date,
    rows: paid.map((r) => ({
      branchId: num(r.branch_id),
      branchName: r.branch_name,
      userId: Number(r.user_id),
      userName: r.user_name,
      methodCode: r.method,
      methodName: PAYMENT_METHOD_NAMES[r.method],
      count: Number(r.n),
      amount: centsToNumber(Number(r.cents)),
    })),
    byMethod: PAYMENT_METHODS.map((m) => {
      const mine = paid.filter((r) => r.method === m);
      return {
        methodCode: m,
        methodName: PAYMENT_METHOD_NAMES[m],
        count: mine.reduce((s, r) => s + Number(r.n), 0),
        amount: centsToNumber(mine.reduce((s, r) => s + Number(r.cents), 0)),
      };
    }),
    total: centsToNumber(paid.reduce((s, r) => s + Number(r.cents), 0)),
    canceled: { count: canceled.reduce((s, r) => s + Number(r.n), 0), amount: centsToNumber(canceled.reduce((s, r) => s + Number(r.cents), 0)) },
  };
}

// ---- cash sessions -----------------------------------------------------------------------------

interface StoredClosing {
  cashCents: number;
  byMethod: Partial<Record<PaymentMethod, number>>;
}

async function sessionAnswer(app: App, s: NonNullable<Awaited<ReturnType<typeof repo.findSession>>>): Promise<CashSession> {
  const moves = await repo.movementsOfSession(app.db, s.id);
  const entries = moves.map((m) => ({ method: m.m.method as PaymentMethod, amountCents: m.m.amountCents }));
  const stored = s.closing as StoredClosing | null;
  const live = closingSummary(s.floatCents, entries, { cashCents: 0 });
  const counted = stored ?? { cashCents: live.lines[0]!.expectedCents, byMethod: {} };
  return {
    id: s.id,
    userId: s.userId,
    userName: s.userName,
    branchId: s.branchId,
    branchName: s.branchName,
    openedAt: s.openedAt.toISOString(),
    closedAt: iso(s.closedAt),
    float: centsToNumber(s.floatCents),
    status: s.closedAt ? 'closed' : 'open',
    closing: closingAnswer(closingSummary(s.floatCents, entries, counted)),
    movements: moves.map((m) => ({
      id: m.m.id,
      kind: m.m.kind as 'cobro' | 'anulacion',
      at: m.m.at.toISOString(),
      paymentId: m.m.paymentId,
      shipmentCode: m.shipmentCode,
      methodCode: m.m.method as PaymentMethod,
      amount: centsToNumber(m.m.amountCents),
      adjustment: m.m.kind === 'anulacion' && m.paymentSessionId !== s.id,
    })),
  };
}

export async function currentSession(app: App, user: SessionUser) {
  const s = await repo.openSessionOf(app.db, user.id);
  return { session: s ? await sessionAnswer(app, s) : null };
}

export async function openSession(app: App, user: SessionUser, floatCents: number): Promise<CashSession> {
  if (user.branchId === null) throw unprocessable(PAYMENT_MESSAGES.noBranch);
  const id = await app.db.transaction(async (tx) => {
    const opened = await repo.insertSessionIfNone(tx, {
      userId: user.id,
      userName: displayName(user),
      branchId: user.branchId!,
      floatCents,
      openedAt: app.now(),
    });
    if (!opened) throw conflict(PAYMENT_MESSAGES.sessionAlreadyOpen, undefined, 'CASH_SESSION_OPEN');
    const s = (await repo.lockOpenSession(tx, user.id))!;
    await audit(tx, { userId: user.id, entity: 'cash_session', entityId: s.id, action: 'open', after: { floatCents } });
    return s.id;
  });
  return sessionAnswer(app, (await repo.findSession(app.db, id))!);
}

/** Closes a session once: the conditional update locks it (a payment writing into it finishes first), then the closing is computed and kept. */
export async function closeSession(app: App, user: SessionUser, id: number, body: CloseCashSessionRequest): Promise<CashSession> {
  const existing = await repo.findSession(app.db, id);
  if (!existing) throw notFound(PAYMENT_MESSAGES.sessionNotFound);
  if (existing.userId !== user.id && user.role !== 'admin') throw forbidden(PAYMENT_MESSAGES.sessionNotYours);
  const cashCents = body.denominations ? countedFromDenominations(body.denominations) : body.countedCash!;
  await app.db.transaction(async (tx) => {
    const now = app.now();
    const [row] = await tx
      .update(cashSessions)
      .set({
        closedAt: now,
        closedBy: user.id,
        countedCashCents: cashCents,
        closing: { cashCents, byMethod: body.countedByMethod ?? {} } satisfies StoredClosing,
      })
      .where(and(eq(cashSessions.id, id), sql`${cashSessions.closedAt} is null`))
      .returning();
    if (!row) throw conflict(PAYMENT_MESSAGES.sessionAlreadyClosed, undefined, 'CASH_SESSION_CLOSED');
    const moves = await repo.movementsOfSession(tx, id);
    const closing = closingSummary(
      row.floatCents,
      moves.map((m) => ({ method: m.m.method as PaymentMethod, amountCents: m.m.amountCents })),
      { cashCents, byMethod: body.countedByMethod ?? {} },
    );
    await audit(tx, {
      userId: user.id,
      entity: 'cash_session',
      entityId: id,
      action: 'close',
      after: { countedCashCents: cashCents, differenceCents: closing.differenceCents },
    });
  });
  return sessionAnswer(app, (await repo.findSession(app.db, id))!);
}

export async function sessionsOfDay(app: App, user: SessionUser, day: string | undefined) {
  const date = day ?? limaDay(app.now());
  const sessions = await repo.sessionsOfDay(app.db, date, scopeOf(user));
  return { date, items: await Promise.all(sessions.map((s) => sessionAnswer(app, s))) };
}
