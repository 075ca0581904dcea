import { and, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { limaDayEnd, limaDayStart, NUMBERED_PAGE_ROWS, type MovementFilters, type PaymentMethod } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import {
  branches,
  cashSessions,
  customers,
  documents,
  paymentDailyTotals,
  paymentMonthlyTotals,
  paymentMovements,
  payments,
  shipments,
} from '../../db/schema.ts';
import { countUpTo, cursorOf, keysetPage, type KeysetOrder, type KeysetRequest } from '../../lib/keyset.ts';
import { counterRows, within } from '../../lib/month-span.ts';
import { containsPattern, escapeLike } from '../../lib/sql.ts';

export type PaymentRecord = typeof payments.$inferSelect;
export type CashSessionRecord = typeof cashSessions.$inferSelect;
export type MovementRecord = typeof paymentMovements.$inferSelect;
/** Admins see every branch; an agent their branch (null: none). */
export type Scope = number | null | 'all';

const scopeWhere = (column: SQL | typeof payments.branchId, scope: Scope): SQL | undefined =>
  scope === 'all' ? undefined : scope === null ? sql`false` : sql`${column} = ${scope}`;

export async function findShipment(db: Db | Tx, id: number) {
  const [row] = await db.select().from(shipments).where(eq(shipments.id, id));
  return row ?? null;
}

export async function findPayment(db: Db | Tx, id: number): Promise<PaymentRecord | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row ?? null;
}

/** The live (pending or paid) payment of a shipment, if any. */
export async function livePaymentOf(db: Db | Tx, shipmentId: number): Promise<PaymentRecord | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.shipmentId, shipmentId), inArray(payments.status, ['pending', 'paid'])));
  return row ?? null;
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

function paymentQuery(db: Db | Tx) {
  return db
    .select(paymentView)
    .from(payments)
    .innerJoin(shipments, eq(shipments.id, payments.shipmentId))
    .leftJoin(branches, eq(branches.id, payments.branchId))
    .leftJoin(documents, eq(documents.id, payments.documentId));
}

export async function paymentById(db: Db | Tx, id: number): Promise<PaymentView | null> {
  const [row] = await paymentQuery(db).where(eq(payments.id, id));
  return row ?? null;
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
    scopeWhere(sql`${payments.branchId}`, scope),
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

// ---- cash sessions -----------------------------------------------------------------------------

/** The user's open session, locked until the transaction ends (a close waits for it). */
export async function lockOpenSession(tx: Tx, userId: number): Promise<CashSessionRecord | null> {
  const [row] = await tx
    .select()
    .from(cashSessions)
    .where(and(eq(cashSessions.userId, userId), isNull(cashSessions.closedAt)))
    .for('update');
  return row ?? null;
}

export async function lockSession(tx: Tx, id: number): Promise<CashSessionRecord | null> {
  const [row] = await tx.select().from(cashSessions).where(eq(cashSessions.id, id)).for('update');
  return row ?? null;
}

/** Opens a session unless one is open (the partial unique index decides between concurrent openers). */
export async function insertSessionIfNone(tx: Tx, values: typeof cashSessions.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(cashSessions)
    .values(values)
    .onConflictDoNothing({ target: cashSessions.userId, where: sql`${cashSessions.closedAt} is null` })
    .returning({ id: cashSessions.id });
  return rows.length > 0;
}

export async function findSession(db: Db | Tx, id: number): Promise<(CashSessionRecord & { branchName: string | null }) | null> {
  const [row] = await db
    .select({ s: cashSessions, branchName: branches.name })
    .from(cashSessions)
    .leftJoin(branches, eq(branches.id, cashSessions.branchId))
    .where(eq(cashSessions.id, id));
  return row ? { ...row.s, branchName: row.branchName } : null;
}

export async function openSessionOf(db: Db, userId: number) {
  const [row] = await db
    .select({ id: cashSessions.id })
    .from(cashSessions)
    .where(and(eq(cashSessions.userId, userId), isNull(cashSessions.closedAt)));
  return row ? findSession(db, row.id) : null;
}

export async function sessionsOfDay(db: Db, day: string, scope: Scope) {
  const rows = await db
    .select({ id: cashSessions.id })
    .from(cashSessions)
    .where(
      and(
        gte(cashSessions.openedAt, limaDayStart(day)),
        lt(cashSessions.openedAt, limaDayEnd(day)),
        scopeWhere(sql`${cashSessions.branchId}`, scope),
      ),
    )
    .orderBy(cashSessions.branchId, cashSessions.openedAt);
  return (await Promise.all(rows.map((r) => findSession(db, r.id)))).filter((s) => s !== null);
}

export async function movementsOfSession(db: Db | Tx, sessionId: number) {
  return db
    .select({ m: paymentMovements, shipmentCode: shipments.code, paymentSessionId: payments.cashSessionId })
    .from(paymentMovements)
    .innerJoin(payments, eq(payments.id, paymentMovements.paymentId))
    .innerJoin(shipments, eq(shipments.id, payments.shipmentId))
    .where(eq(paymentMovements.cashSessionId, sessionId))
    .orderBy(paymentMovements.id);
}

// ---- shipments to collect, customers, receivables ----------------------------------------------

export async function shipmentsToCollect(db: Db, scope: Scope, day: string, page: number, pageSize: number) {
  const where = sql`s.status = 'Creado' and s.created_at >= ${limaDayStart(day)} and s.created_at < ${limaDayEnd(day)}
    ${scope === 'all' ? sql`` : scope === null ? sql`and false` : sql`and s.origin_branch_id = ${scope}`}`;
  const [rows, count] = await Promise.all([
    db.execute(sql`
      select s.id, s.code, s.status, s.sender_name, s.sender_customer_id, c.doc_type as sender_doc_type, c.doc_number as sender_doc,
        s.recipient_name, s.recipient_doc, s.origin_branch_id, s.destination_branch_id, o.name as origin_name, d.name as destination_name,
        s.created_at, s.quoted_price::text as quoted_price, s.quoted_currency, s.weight_kg::text as weight_kg, s.product_type, s.description,
        p.id as payment_id, p.status as payment_status
      from shipments s
      join branches o on o.id = s.origin_branch_id
      join branches d on d.id = s.destination_branch_id
      left join customers c on c.id = s.sender_customer_id
      left join payments p on p.shipment_id = s.id and p.status in ('pending', 'paid')
      where ${where}
      order by s.created_at desc, s.id desc
      limit ${pageSize} offset ${(page - 1) * pageSize}`),
    db.execute(sql`select count(*)::int as n from shipments s where ${where}`),
  ]);
  return { rows: rows.rows as Record<string, unknown>[], total: Number((count.rows[0] as { n: number }).n) };
}

export async function searchCustomers(db: Db, q: string | undefined) {
  const term = q?.trim();
  const where = term
    ? sql`${customers.docNumber} like ${escapeLike(term) + '%'} or (coalesce(${customers.firstName}, '') || ' ' || coalesce(${customers.lastName}, '')) ilike ${containsPattern(term)}`
    : undefined;
  return db.select().from(customers).where(where).orderBy(customers.firstName, customers.id).limit(20);
}

export async function findCustomer(db: Db, id: number) {
  const [row] = await db.select().from(customers).where(eq(customers.id, id));
  return row ?? null;
}

export async function receivables(db: Db, scope: Scope, q: string | undefined) {
  const term = q?.trim();
  const rows = await db.execute(sql`
    with open as (
      select coalesce('c' || s.sender_customer_id::text, 'n:' || lower(s.sender_name)) as key,
        s.sender_customer_id,
        coalesce(nullif(trim(c.first_name || ' ' || coalesce(c.last_name, '')), ''), s.sender_name) as name,
        c.doc_number, s.quoted_price, s.created_at
      from shipments s
      left join customers c on c.id = s.sender_customer_id
      where s.status <> 'Anulado'
        and not exists (select 1 from payments p where p.shipment_id = s.id and p.status = 'paid')
        ${scope === 'all' ? sql`` : scope === null ? sql`and false` : sql`and s.origin_branch_id = ${scope}`}
    )
    select key, max(sender_customer_id) as customer_id, min(name) as name, min(doc_number) as doc_number,
      count(*)::int as shipments_count, sum(quoted_price)::text as open_amount, max(created_at) as last_shipment_at
    from open
    ${term ? sql`where name ilike ${containsPattern(term)} or doc_number like ${escapeLike(term) + '%'}` : sql``}
    group by key
    order by sum(quoted_price) desc, min(name)
    limit 500`);
  return rows.rows as {
    key: string;
    customer_id: number | null;
    name: string;
    doc_number: string | null;
    shipments_count: number;
    open_amount: string;
    last_shipment_at: Date | string;
  }[];
}

// ---- the movements report ----------------------------------------------------------------------

export function movementWhere(f: MovementFilters, scope: Scope): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.dateFrom) parts.push(sql`p.created_at >= ${limaDayStart(f.dateFrom)}`);
  if (f.dateTo) parts.push(sql`p.created_at < ${limaDayEnd(f.dateTo)}`);
  if (scope !== 'all') parts.push(scope === null ? sql`false` : sql`p.branch_id = ${scope}`);
  else if (f.branchId) parts.push(sql`p.branch_id = ${f.branchId}`);
  if (f.userId) parts.push(sql`p.user_id = ${f.userId}`);
  if (f.method) parts.push(sql`p.method = ${f.method}`);
  if (f.status) parts.push(sql`p.status = ${f.status}`);
  return sql.join(parts, sql` and `);
}

/** The report's order: newest first, the id breaking ties (payments_created_idx). */
export const movementOrder: KeysetOrder = { at: sql`p.created_at`, id: sql`p.id`, unit: 'microseconds' };
const newestFirst = sql`p.created_at desc, p.id desc`;

/** The report's rows: the payment with its shipment, branch, transport and drivers. */
export const movementSelect = (where: SQL, orderBy: SQL = newestFirst) => sql`
  select p.id, p.created_at, p.created_at::text as created_at_key, ${cursorOf(movementOrder)} as cursor, p.branch_id, b.name as branch_name, p.user_name, p.user_id, p.method, p.amount_cents, p.currency, p.status,
    p.customer_name, p.cancel_reason, p.provider_tx_id, s.id as shipment_id, s.code as shipment_code, s.sender_name, s.description,
    c.doc_number as sender_doc, t.plate_primary, t.plate_secondary, d1.full_name as driver1, d2.full_name as driver2,
    case when doc.id is null then null else doc.series || '-' || lpad(doc.number::text, 8, '0') end as reference
  from payments p
  join shipments s on s.id = p.shipment_id
  left join branches b on b.id = p.branch_id
  left join customers c on c.id = s.sender_customer_id
  left join transport_assignments ta on ta.shipment_id = s.id
  left join transports t on t.id = ta.transport_id
  left join drivers d1 on d1.id = t.driver_id_1
  left join drivers d2 on d2.id = t.driver_id_2
  left join documents doc on doc.id = p.document_id
  where ${where}
  order by ${orderBy}`;

export interface MovementSqlRow {
  id: number;
  created_at: Date | string;
  /** The instant to the microsecond, for seeking past this row. */
  created_at_key: string;
  /** The row's keyset cursor (lib/keyset.ts). */
  cursor: string;
  branch_id: number | null;
  branch_name: string | null;
  user_name: string;
  user_id: number;
  method: PaymentMethod;
  amount_cents: number;
  currency: string;
  status: 'pending' | 'paid' | 'canceled';
  customer_name: string;
  cancel_reason: string | null;
  provider_tx_id: string | null;
  shipment_id: number;
  shipment_code: string;
  sender_name: string;
  description: string | null;
  sender_doc: string | null;
  plate_primary: string | null;
  plate_secondary: string | null;
  driver1: string | null;
  driver2: string | null;
  reference: string | null;
}

/** The next rows after (createdAtKey, id) in the report's order: a seek, no offset. */
export async function movementBatchAfter(db: Db, where: SQL, after: { key: string; id: number } | null, size: number) {
  const seek = after ? sql`${where} and (p.created_at, p.id) < (${after.key}::timestamptz, ${after.id})` : where;
  return (await db.execute(sql`${movementSelect(seek)} limit ${size}`)).rows as unknown as MovementSqlRow[];
}

/**
 * The filtered set's counts and céntimos by method and status (issue #19), added up from the
 * counters: every filter of the report is one of their keys (the date bounds are Lima days, as
 * their day). The whole months of the dates come from payment_monthly_totals and the days they cut
 * from payment_daily_totals (monthSpan), so this reads a few rows per month whatever the number of
 * payments. Branch 0 there is a payment with no branch, which no agent sees. A query to await (or
 * to EXPLAIN).
 */
export function movementGroupsQuery(db: Db, f: MovementFilters, scope: Scope) {
  const keys = (c: typeof paymentMonthlyTotals | typeof paymentDailyTotals) => [
    scope !== 'all' ? scopeWhere(sql`${c.branchId}`, scope) : f.branchId ? eq(c.branchId, f.branchId) : undefined,
    f.userId ? eq(c.userId, f.userId) : undefined,
    f.method ? eq(c.method, f.method) : undefined,
    f.status ? eq(c.status, f.status) : undefined,
  ];
  const rowsOf = (c: typeof paymentMonthlyTotals | typeof paymentDailyTotals, dates: (SQL | undefined)[]) =>
    sql`select ${c.method} as method, ${c.status} as status, ${c.n} as n, ${c.cents} as cents from ${c} where ${and(...keys(c), ...dates) ?? sql`true`}`;
  const rows = counterRows(f.dateFrom, f.dateTo, {
    months: (range) => rowsOf(paymentMonthlyTotals, within(paymentMonthlyTotals.month, range)),
    days: (range) => rowsOf(paymentDailyTotals, within(paymentDailyTotals.day, range)),
  });
  return db
    .select({
      method: sql<string>`c.method`,
      status: sql<string>`c.status`,
      n: sql<string>`sum(c.n)::bigint::text`,
      cents: sql<string>`sum(c.cents)::bigint::text`,
    })
    .from(rows)
    .groupBy(sql`c.method`, sql`c.status`);
}

export async function movementGroups(db: Db, f: MovementFilters, scope: Scope) {
  const rows = await movementGroupsQuery(db, f, scope);
  return rows as { method: PaymentMethod; status: 'pending' | 'paid' | 'canceled'; n: string; cents: string }[];
}

/**
 * One page of the report (by number, or next to a cursor past the numbered pages) and the filtered
 * set's totals by method and status, which the report shows whatever the page (so `total` comes
 * exact from them at no extra cost).
 */
export async function movementPage(db: Db, f: MovementFilters, scope: Scope, request: KeysetRequest) {
  const where = movementWhere(f, scope);
  const [page, groups] = await Promise.all([
    keysetPage(movementOrder, request, async ({ seek, orderBy, limit, offset }) => {
      const rows = await db.execute(sql`${movementSelect(seek ? sql`${where} and ${seek}` : where, orderBy)} limit ${limit} offset ${offset}`);
      return rows.rows as unknown as MovementSqlRow[];
    }),
    movementGroups(db, f, scope),
  ]);
  return { ...page, groups };
}

export async function dailyRows(db: Db, day: string, scope: Scope) {
  const where = sql`p.created_at >= ${limaDayStart(day)} and p.created_at < ${limaDayEnd(day)}
    ${scope === 'all' ? sql`` : scope === null ? sql`and false` : sql`and p.branch_id = ${scope}`}`;
  const rows = await db.execute(sql`
    select p.branch_id, b.name as branch_name, p.user_id, min(p.user_name) as user_name, p.method, p.status,
      count(*)::int as n, sum(p.amount_cents)::bigint::text as cents
    from payments p left join branches b on b.id = p.branch_id
    where ${where} and p.status in ('paid', 'canceled')
    group by p.branch_id, b.name, p.user_id, p.method, p.status
    order by b.name, min(p.user_name), p.method`);
  return rows.rows as {
    branch_id: number | null;
    branch_name: string | null;
    user_id: number;
    user_name: string;
    method: PaymentMethod;
    status: string;
    n: number;
    cents: string;
  }[];
}
