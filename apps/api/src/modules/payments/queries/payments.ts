import { and, eq, getTableColumns, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { limaDayEnd, limaDayStart, NUMBERED_PAGE_ROWS, type PriceComponentAnswer, type Scope } from '@tramo/domain';
import { audit, type AuditEntry } from '../../../lib/audit.ts';
import type { Db, Tx } from '../../../db/client.ts';
import { auditLog, branches, cashSessions, documents, paymentMovements, payments, shipments } from '../../../db/schema.ts';
import { countUpTo, cursorOf, keysetPage, type KeysetOrder, type KeysetRequest } from '../../../lib/keyset.ts';
import { branchScopeCondition } from '../../../lib/branch-scope.ts';
import { preparedQuery, preparedSelect } from '../../../lib/statements.ts';
import type { CashSessionRecord } from './cash-sessions.ts';

export type PaymentRecord = typeof payments.$inferSelect;
type ShipmentRecord = typeof shipments.$inferSelect;
export type MovementRecord = typeof paymentMovements.$inferSelect;

// The payment click's reads by id, built by drizzle once and run prepared (issue 37: building a
// select on every call was a tenth of a payment's CPU, with its receipt, at 150 a second).
const shipmentColumns = getTableColumns(shipments);
const shipmentById = preparedQuery<ShipmentRecord>('payments_shipment_by_id', shipmentColumns, (db) =>
  db
    .select(shipmentColumns)
    .from(shipments)
    .where(eq(shipments.id, sql.placeholder('id'))),
);
const paymentColumns = getTableColumns(payments);
const paymentRowById = preparedQuery<PaymentRecord>('payments_payment_by_id', paymentColumns, (db) =>
  db
    .select(paymentColumns)
    .from(payments)
    .where(eq(payments.id, sql.placeholder('id'))),
);

// The payment and its cash session locked, in one statement: the click's second transaction and a
// confirmation take both, the session first (see lifecycle's confirmIn), and the payment's row was
// read before the lock in two round trips. Here it is read from the statement's snapshot, taken
// before any wait on the lock, as it was; the session is the row as locked.
const sessionColumns = getTableColumns(cashSessions);
const sessionAliases = Object.fromEntries(Object.entries(sessionColumns).map(([k, column]) => [`session.${k}`, column]));
const paymentLockingSession = preparedQuery<Record<string, unknown>>(
  'payments_payment_locking_session',
  { ...paymentColumns, ...sessionAliases },
  (db) =>
    db
      .select({ ...paymentColumns, ...sessionAliases })
      .from(payments)
      .innerJoin(cashSessions, eq(cashSessions.id, payments.cashSessionId))
      .where(eq(payments.id, sql.placeholder('id')))
      .for('update', { of: cashSessions }),
);

/** The payment and its cash session, the session locked until the transaction ends; null when there is no such payment. */
export async function findPaymentLockingSession(tx: Tx, id: number): Promise<{ payment: PaymentRecord; session: CashSessionRecord } | null> {
  const [row] = await paymentLockingSession(tx, { id });
  if (!row) return null;
  const payment: Record<string, unknown> = {};
  const session: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k.startsWith('session.')) session[k.slice('session.'.length)] = v;
    else payment[k] = v;
  }
  return { payment: payment as PaymentRecord, session: session as CashSessionRecord };
}

export async function findShipment(db: Db | Tx, id: number): Promise<ShipmentRecord | null> {
  const [row] = await shipmentById(db, { id });
  return row ?? null;
}

export async function findPayment(db: Db | Tx, id: number): Promise<PaymentRecord | null> {
  const [row] = await paymentRowById(db, { id });
  return row ?? null;
}

/** The shipment's stored price components (issue 34), null for one priced before them. */
export async function priceComponentsOf(db: Db | Tx, shipmentId: number): Promise<PriceComponentAnswer[] | null> {
  const [row] = await db.select({ components: shipments.priceComponents }).from(shipments).where(eq(shipments.id, shipmentId));
  return (row?.components as PriceComponentAnswer[] | null | undefined) ?? null;
}

/** The live (pending or paid) payment of a shipment, if any. */
export async function livePaymentOf(db: Db | Tx, shipmentId: number): Promise<PaymentRecord | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.shipmentId, shipmentId), inArray(payments.status, ['pending', 'paid'])));
  return row ?? null;
}

/** The shipment's freight is paid: a payment of it is 'paid' (delivery of pago en destino waits for this). */
export async function freightPaid(db: Db | Tx, shipmentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.shipmentId, shipmentId), eq(payments.status, 'paid')))
    .limit(1);
  return row !== undefined;
}

/** A payment as the API answers it: the row plus its shipment code, branch and receipt. */
export const paymentView = {
  p: payments,
  shipmentCode: shipments.code,
  branchName: branches.name,
  docSeries: documents.series,
  docNumber: documents.number,
  docStatus: documents.status,
  docPdfUrl: documents.pdfUrl,
};
export type PaymentView = {
  p: PaymentRecord;
  shipmentCode: string;
  branchName: string | null;
  docSeries: string | null;
  docNumber: number | null;
  docStatus: string | null;
  docPdfUrl: string | null;
};

/** paymentView flat (a prepared statement maps flat rows): the payment's columns and the view's others. */
const { p: _payment, ...viewExtras } = paymentView;
const flatView = { ...paymentColumns, ...viewExtras };
const paymentViewById = preparedQuery<PaymentRecord & Omit<PaymentView, 'p'>>('payments_view_by_id', flatView, (db) =>
  db
    .select(flatView)
    .from(payments)
    .innerJoin(shipments, eq(shipments.id, payments.shipmentId))
    .leftJoin(branches, eq(branches.id, payments.branchId))
    .leftJoin(documents, eq(documents.id, payments.documentId))
    .where(eq(payments.id, sql.placeholder('id'))),
);

export async function paymentById(db: Db | Tx, id: number): Promise<PaymentView | null> {
  const [row] = await paymentViewById(db, { id });
  return row ? viewOf(row) : null;
}

function viewOf(row: PaymentRecord & Omit<PaymentView, 'p'>): PaymentView {
  const { shipmentCode, branchName, docSeries, docNumber, docStatus, docPdfUrl, ...p } = row;
  return { p, shipmentCode, branchName, docSeries, docNumber, docStatus, docPdfUrl };
}

/** The day's payments order: newest first, the id breaking ties (payments_created_idx). */
const paymentOrder: KeysetOrder = { at: payments.createdAt, id: payments.id, unit: 'microseconds' };

/**
 * One page of a day's payments (by number, or next to a cursor past the numbered pages) and how
 * many there are, counted no further than NUMBERED_PAGE_ROWS (the total is then "more than").
 */
export async function listPayments(db: Db, scope: Scope, day: string, status: string | undefined, request: KeysetRequest) {
  const where = and(
    gte(payments.createdAt, limaDayStart(day)),
    lt(payments.createdAt, limaDayEnd(day)),
    status ? eq(payments.status, status) : undefined,
    branchScopeCondition(scope, payments.branchId),
  );
  const [page, counted] = await Promise.all([
    keysetPage(paymentOrder, request, ({ seek, orderBy, limit, offset }) =>
      db
        .select({ ...paymentView, cursor: cursorOf(paymentOrder) })
        .from(payments)
        .innerJoin(shipments, eq(shipments.id, payments.shipmentId))
        .leftJoin(branches, eq(branches.id, payments.branchId))
        .leftJoin(documents, eq(documents.id, payments.documentId))
        .where(and(where, seek))
        .orderBy(orderBy)
        .limit(limit)
        .offset(offset),
    ),
    countUpTo(db, payments, where, NUMBERED_PAGE_ROWS),
  ]);
  return { ...page, ...counted };
}

/** The columns a counter payment is created with (`insertPaymentAudited`), undefined ones as null. */
const createdPaymentColumns = [
  'shipmentId',
  'status',
  'method',
  'amountCents',
  'discountCents',
  'discountReason',
  'currency',
  'providerTxId',
  'customerId',
  'customerDocType',
  'customerDocNumber',
  'customerName',
  'customerAddress',
  'branchId',
  'userId',
  'userName',
  'cashSessionId',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof typeof payments.$inferInsert)[];
export type NewPaymentRow = Pick<typeof payments.$inferInsert, (typeof createdPaymentColumns)[number]>;

/**
 * A new payment and its audit row ('create', `after` completed by nothing the database chooses) in
 * ONE statement prepared once (issue 37), as a shipment's creation writes its rows.
 */
const insertPaymentStatement = preparedSelect<{ id: number }>('insert_payment_audited', (db) => {
  const created = db.$with('created').as(
    db
      .insert(payments)
      .values(Object.fromEntries(createdPaymentColumns.map((k) => [k, sql.placeholder(k)])) as never)
      .returning({ id: payments.id, userId: payments.userId }),
  );
  const audited = db.$with('audited', { auditId: sql<number>`audit_id`.as('audit_id') }).as(
    sql`insert into ${auditLog} (user_id, entity, entity_id, action, after)
        select user_id, 'payment', id::text, 'create', ${sql.placeholder('after')}::jsonb from created returning id as audit_id`,
  );
  return db.with(created, audited).select({ id: created.id }).from(created);
});

export async function insertPaymentAudited(tx: Tx, values: NewPaymentRow, after: Record<string, unknown>): Promise<number> {
  const given = Object.fromEntries(createdPaymentColumns.map((k) => [k, values[k] ?? null]));
  const [row] = await insertPaymentStatement(tx, { ...given, after: JSON.stringify(after) });
  return row!.id;
}

/** The columns of a payment created into its cashier's open session, the session's id taken from the lock. */
const inSessionColumns = createdPaymentColumns.filter((k) => k !== 'cashSessionId');

/**
 * `insertPaymentAudited` into the cashier's open cash session, that session's row locked, in ONE
 * statement outside any transaction (issue 37): the lock, the payment and its audit commit together
 * or not at all, as the transaction did with its begin, lock, insert and commit, four round trips
 * to PostgreSQL and four turns of a busy event loop, on every payment. A close of the session waits
 * for it as it waited for that transaction. No row when the cashier has no open session: the
 * caller opens one in a transaction.
 */
const insertInOpenSessionStatement = preparedSelect<{ id: number; cashSessionId: number }>('insert_payment_in_open_session', (db) => {
  const p = (k: (typeof createdPaymentColumns)[number]) => sql`${sql.placeholder(k)}::${sql.raw(payments[k].getSQLType())}`;
  const session = db.$with('session', { sessionId: sql<number>`session_id`.as('session_id') }).as(
    sql`select ${cashSessions.id} as session_id from ${cashSessions}
        where ${cashSessions.userId} = ${p('userId')} and ${cashSessions.closedAt} is null for update`,
  );
  const created = db
    .$with('created', {
      id: sql<number>`id`.as('id'),
      userId: sql<number>`user_id`.as('user_id'),
      cashSessionId: sql<number>`cash_session_id`.as('cash_session_id'),
    })
    .as(
      sql`insert into ${payments} (${sql.join(
        inSessionColumns.map((k) => sql.identifier(payments[k].name)),
        sql`, `,
      )}, ${sql.identifier(payments.cashSessionId.name)})
          select ${sql.join(inSessionColumns.map(p), sql`, `)}, session_id from session
          returning ${payments.id} as id, ${payments.userId} as user_id, ${payments.cashSessionId} as cash_session_id`,
    );
  const audited = db.$with('audited', { auditId: sql<number>`audit_id`.as('audit_id') }).as(
    sql`insert into ${auditLog} (user_id, entity, entity_id, action, after)
        select user_id, 'payment', id::text, 'create', ${sql.placeholder('after')}::jsonb || jsonb_build_object('cashSessionId', cash_session_id)
          from created returning id as audit_id`,
  );
  return db.with(session, created, audited).select({ id: created.id, cashSessionId: created.cashSessionId }).from(created);
});

export async function insertPaymentInOpenSession(
  db: Db,
  values: Omit<NewPaymentRow, 'cashSessionId'>,
  after: Record<string, unknown>,
): Promise<{ id: number; cashSessionId: number } | null> {
  const given = Object.fromEntries(inSessionColumns.map((k) => [k, values[k] ?? null]));
  const [row] = await insertInOpenSessionStatement(db, { ...given, after: JSON.stringify(after) });
  return row ?? null;
}

/** The next receipt attempt of a payment (a new document under a new key). */
export async function setReceiptAttempts(db: Db | Tx, id: number, attempts: number, now: Date): Promise<void> {
  await db.update(payments).set({ receiptAttempts: attempts, updatedAt: now }).where(eq(payments.id, id));
}

/** Keeps a pending payment's receipt document and last error, whatever happens next. */
export async function recordReceipt(db: Db | Tx, id: number, documentId: number | null, lastError: string | null, now: Date): Promise<void> {
  await db
    .update(payments)
    .set({ documentId, lastError, updatedAt: now })
    .where(and(eq(payments.id, id), eq(payments.status, 'pending')));
}

/** pending → paid; null when it was not pending (the conditional update decides between concurrent confirmations). */
export async function markPaid(tx: Tx, id: number, now: Date, documentId?: number): Promise<PaymentRecord | null> {
  const [row] = await tx
    .update(payments)
    .set({ status: 'paid', paidAt: now, lastError: null, updatedAt: now, ...(documentId === undefined ? {} : { documentId }) })
    .where(and(eq(payments.id, id), eq(payments.status, 'pending')))
    .returning();
  return row ?? null;
}

/**
 * pending → paid with its 'cobro' movement in `sessionId` and its audit row, in ONE statement prepared
 * once (issue 37: three round trips and three drizzle builds on every payment before). The
 * conditional update decides between concurrent confirmations, as `markPaid`'s; the movement and
 * the audit row exist only where it changed the payment.
 */
const confirmStatement = preparedSelect<PaymentRecord & Omit<PaymentView, 'p'>>('confirm_payment', (db) => {
  const p = (name: string) => sql.placeholder(name);
  const paid = db.$with('paid').as(
    db
      .update(payments)
      .set({
        status: 'paid',
        paidAt: p('now'),
        lastError: null,
        updatedAt: p('now'),
        documentId: sql`coalesce(${p('documentId')}::int, ${payments.documentId})`,
      } as never)
      .where(and(eq(payments.id, p('id') as never), eq(payments.status, 'pending')))
      .returning(),
  );
  const moved = db.$with('moved', { movementId: sql<number>`movement_id`.as('movement_id') }).as(
    sql`insert into ${paymentMovements} (payment_id, kind, method, amount_cents, cash_session_id, user_id, at)
        select id, 'cobro', method, amount_cents, ${p('sessionId')}, ${p('userId')}, paid_at from paid returning id as movement_id`,
  );
  const audited = db.$with('audited', { auditId: sql<number>`audit_id`.as('audit_id') }).as(
    sql`insert into ${auditLog} (user_id, entity, entity_id, action, before, after)
        select ${p('userId')}, 'payment', id::text, 'confirm', jsonb_build_object('status', 'pending'),
          jsonb_build_object('status', 'paid', 'documentId', document_id)
        from paid returning id as audit_id`,
  );
  // The paid payment as the API answers it (paymentView), so the click reads nothing after commit.
  const paidColumns = Object.fromEntries(Object.keys(paymentColumns).map((k) => [k, paid[k as keyof typeof paymentColumns]]));
  return db
    .with(paid, moved, audited)
    .select({ ...paidColumns, ...viewExtras })
    .from(paid)
    .innerJoin(shipments, eq(shipments.id, paid.shipmentId))
    .leftJoin(branches, eq(branches.id, paid.branchId))
    .leftJoin(documents, eq(documents.id, paid.documentId));
});

/** Confirms a pending payment (see `confirmStatement`) and answers it as paid; null when it was not pending. */
export async function confirmPending(
  tx: Tx,
  c: { id: number; now: Date; documentId: number | null; sessionId: number; userId: number },
): Promise<PaymentView | null> {
  const [row] = await confirmStatement(tx, c);
  return row ? viewOf(row) : null;
}

/** from → canceled; null when the payment was no longer `from` (a concurrent void took it). */
export async function markCanceled(tx: Tx, id: number, from: string, reason: string, now: Date): Promise<PaymentRecord | null> {
  const [row] = await tx
    .update(payments)
    .set({ status: 'canceled', canceledAt: now, cancelReason: reason, updatedAt: now })
    .where(and(eq(payments.id, id), eq(payments.status, from)))
    .returning();
  return row ?? null;
}

/** Undoes a void whose receipt could not be voided: the payment's status back, its reversal gone. */
export async function undoCancel(tx: Tx, id: number, status: string, now: Date): Promise<void> {
  await tx.update(payments).set({ status, canceledAt: null, cancelReason: null, updatedAt: now }).where(eq(payments.id, id));
  await tx.delete(paymentMovements).where(and(eq(paymentMovements.paymentId, id), eq(paymentMovements.kind, 'anulacion')));
}

/** The céntimos a payment put in the ledger (0 when it never was confirmed). */
export async function chargeOf(tx: Tx, id: number): Promise<number> {
  const [charge] = await tx
    .select({ cents: paymentMovements.amountCents })
    .from(paymentMovements)
    .where(and(eq(paymentMovements.paymentId, id), eq(paymentMovements.kind, 'cobro')));
  return charge?.cents ?? 0;
}

export async function insertMovement(tx: Tx, values: typeof paymentMovements.$inferInsert): Promise<void> {
  await tx.insert(paymentMovements).values(values);
}

/** A payment's cash movement and the audit row of the change that made it (confirmed, voided, recovered), in the caller's transaction. */
export async function insertMovementAudited(
  tx: Tx,
  values: typeof paymentMovements.$inferInsert,
  entry: Omit<AuditEntry, 'entity' | 'entityId'>,
): Promise<void> {
  await insertMovement(tx, values);
  await audit(tx, { ...entry, entity: 'payment', entityId: values.paymentId });
}

/** Pending payments with no error untouched since `before` (a request that died between its steps), oldest first. */
export async function stalePendingPayments(db: Db, before: Date, limit: number): Promise<PaymentRecord[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), isNull(payments.lastError), lt(payments.updatedAt, before)))
    .orderBy(payments.updatedAt, payments.id)
    .limit(limit);
}

/**
 * The payment locked for the sweep if it is still such a stale pending one; null when another
 * process holds it (SKIP LOCKED: that one recovers it, or its own request is finishing it) or it moved on.
 */
export async function lockStalePending(tx: Tx, id: number, before: Date): Promise<PaymentRecord | null> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), eq(payments.status, 'pending'), isNull(payments.lastError), lt(payments.updatedAt, before)))
    .for('update', { skipLocked: true });
  return row ?? null;
}
