import { randomBytes } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { limaDayEnd, limaDayStart, type MovementFilters, type PaymentMethod, type Scope } from '@tramo/domain';
import type { Db, Tx } from '../../../db/client.ts';
import { paymentAllTimeTotals, paymentDailyTotals, paymentMonthlyTotals, payments } from '../../../db/schema.ts';
import { cursorOf, keysetPage, type KeysetOrder, type KeysetRequest } from '../../../lib/keyset.ts';
import { counterRows, within } from '../../../lib/month-span.ts';
import { branchScopeCondition } from '../../../lib/branch-scope.ts';

/** The payments table as the report's raw queries name it (`p`), so the scope's condition names it alike. */
const p = alias(payments, 'p');

export function movementWhere(f: MovementFilters, scope: Scope): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.dateFrom) parts.push(sql`p.created_at >= ${limaDayStart(f.dateFrom)}`);
  if (f.dateTo) parts.push(sql`p.created_at < ${limaDayEnd(f.dateTo)}`);
  const scoped = branchScopeCondition(scope, p.branchId);
  if (scoped) parts.push(scoped);
  // Only who sees every branch narrows the report to one.
  else if (f.branchId) parts.push(sql`p.branch_id = ${f.branchId}`);
  // The branch that sold (the shipment's origin), beside the one that collected (issue 33).
  if (f.soldBranchId) parts.push(sql`s.origin_branch_id = ${f.soldBranchId}`);
  if (f.userId) parts.push(sql`p.user_id = ${f.userId}`);
  if (f.method) parts.push(sql`p.method = ${f.method}`);
  if (f.status) parts.push(sql`p.status = ${f.status}`);
  return sql.join(parts, sql` and `);
}

/** The report's order: newest first, the id breaking ties (payments_created_idx). */
export const movementOrder: KeysetOrder = { at: sql`p.created_at`, id: sql`p.id`, unit: 'microseconds' };
const newestFirst = sql`p.created_at desc, p.id desc`;

/**
 * Where the report's looked-up columns come from (the branches' names, the sender's document, the
 * drivers, the receipt's number). Joined for a scan of the whole set (the CSV: a hash join reads
 * each table once), looked up per row for a page: the planner's search over the ten joined tables
 * took 3.5–7 ms of every page request (issue 37), where a page's rows need ~600 index lookups.
 */
interface Lookups {
  branchName: SQL;
  soldBranchName: SQL;
  senderDoc: SQL;
  driver1: SQL;
  driver2: SQL;
  reference: SQL;
  joins: SQL;
}
const receiptNumber = sql`doc.series || '-' || lpad(doc.number::text, 8, '0')`;
const joined: Lookups = {
  branchName: sql`b.name`,
  soldBranchName: sql`sb.name`,
  senderDoc: sql`c.doc_number`,
  driver1: sql`d1.full_name`,
  driver2: sql`d2.full_name`,
  reference: sql`case when doc.id is null then null else ${receiptNumber} end`,
  joins: sql`
  left join branches b on b.id = p.branch_id
  left join branches sb on sb.id = s.origin_branch_id
  left join customers c on c.id = s.sender_customer_id
  left join drivers d1 on d1.id = t.driver_id_1
  left join drivers d2 on d2.id = t.driver_id_2
  left join documents doc on doc.id = p.document_id`,
};
const perRow: Lookups = {
  branchName: sql`(select b.name from branches b where b.id = p.branch_id)`,
  soldBranchName: sql`(select sb.name from branches sb where sb.id = s.origin_branch_id)`,
  senderDoc: sql`(select c.doc_number from customers c where c.id = s.sender_customer_id)`,
  driver1: sql`(select d1.full_name from drivers d1 where d1.id = t.driver_id_1)`,
  driver2: sql`(select d2.full_name from drivers d2 where d2.id = t.driver_id_2)`,
  reference: sql`(select ${receiptNumber} from documents doc where doc.id = p.document_id)`,
  joins: sql``,
};

/** The report's rows from `payments` (aliased p: the payments or a page of them): with their shipment, branches, transport and drivers. */
const movementRows = (payments: SQL, where: SQL, orderBy: SQL, l: Lookups) => sql`
  select p.id, p.created_at, p.created_at::text as created_at_key, ${cursorOf(movementOrder)} as cursor, p.branch_id, ${l.branchName} as branch_name, p.user_name, p.user_id, p.method, p.amount_cents, p.currency, p.status,
    p.customer_name, p.cancel_reason, p.provider_tx_id, s.id as shipment_id, s.code as shipment_code, s.sender_name, s.description,
    ${l.senderDoc} as sender_doc, t.plate_primary, t.plate_secondary, ${l.driver1} as driver1, ${l.driver2} as driver2,
    ${l.reference} as reference, s.origin_branch_id as sold_branch_id, ${l.soldBranchName} as sold_branch_name, s.payment_moment
  from ${payments} p
  join shipments s on s.id = p.shipment_id
  left join transport_assignments ta on ta.shipment_id = s.id
  left join transports t on t.id = ta.transport_id${l.joins}
  where ${where}
  order by ${orderBy}`;

/** The report's whole filtered set, in order (the CSV). */
export const movementSelect = (where: SQL, orderBy: SQL = newestFirst) => movementRows(sql`payments`, where, orderBy, joined);

/**
 * One page of the report: its payments first (filtered, ordered, cut: no lookup for the rows an
 * offset skips), then their columns looked up for those rows alone.
 */
const movementPageSelect = (where: SQL, orderBy: SQL, limit: number, offset: number) =>
  movementRows(
    sql`(select p.* from payments p join shipments s on s.id = p.shipment_id where ${where} order by ${orderBy} limit ${limit} offset ${offset})`,
    sql`true`,
    orderBy,
    perRow,
  );

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
  sold_branch_id: number | null;
  sold_branch_name: string | null;
  payment_moment: 'origen' | 'destino' | 'credito' | null;
}

/** The next rows after (createdAtKey, id) in the report's order: a seek, no offset. */
export async function movementBatchAfter(db: Db, where: SQL, after: { key: string; id: number } | null, size: number) {
  const seek = after ? sql`${where} and (p.created_at, p.id) < (${after.key}::timestamptz, ${after.id})` : where;
  return (await db.execute(sql`${movementSelect(seek)} limit ${size}`)).rows as unknown as MovementSqlRow[];
}

/**
 * The filtered set's counts and céntimos by method and status (issue #19), added up from the
 * counters: every filter of the report is one of their keys (the date bounds are Lima days, as
 * their day). With no dates, the all-time rows (one per key, migration 0111): the same few rows
 * after ten years as after one. With dates, the whole months of them from payment_monthly_totals
 * and the days they cut from payment_daily_totals (monthSpan), so this reads a few rows per month
 * whatever the number of payments. Branch 0 there is a payment with no branch, which no agent sees.
 * A query to await (or to EXPLAIN).
 */
/** The payments' counters: per Lima day, per month, and over all time (the same key columns but for the dates). */
type Counters = typeof paymentDailyTotals | typeof paymentMonthlyTotals | typeof paymentAllTimeTotals;

export function movementGroupsQuery(db: Db, f: MovementFilters, scope: Scope) {
  const keys = (c: Counters) => [
    branchScopeCondition(scope, c.branchId) ?? (f.branchId ? eq(c.branchId, f.branchId) : undefined),
    f.userId ? eq(c.userId, f.userId) : undefined,
    f.method ? eq(c.method, f.method) : undefined,
    f.status ? eq(c.status, f.status) : undefined,
  ];
  const rowsOf = (c: Counters, dates: (SQL | undefined)[] = []) =>
    sql`select ${c.method} as method, ${c.status} as status, ${c.n} as n, ${c.cents} as cents from ${c} where ${and(...keys(c), ...dates) ?? sql`true`}`;
  const rows =
    !f.dateFrom && !f.dateTo
      ? sql`(${rowsOf(paymentAllTimeTotals)}) c`
      : counterRows(f.dateFrom, f.dateTo, {
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

/**
 * The same totals when the set is narrowed to the branch that sold: the counters are not keyed by
 * the shipment's origin, so these add up the payments themselves (one branch's, within the dates).
 */
function soldBranchGroupsQuery(db: Db, f: MovementFilters, scope: Scope) {
  return db.execute(sql`
    select p.method, p.status, count(*)::bigint::text as n, coalesce(sum(p.amount_cents), 0)::bigint::text as cents
    from payments p join shipments s on s.id = p.shipment_id
    where ${movementWhere(f, scope)}
    group by p.method, p.status`);
}

export async function movementGroups(db: Db, f: MovementFilters, scope: Scope) {
  const rows = f.soldBranchId ? (await soldBranchGroupsQuery(db, f, scope)).rows : await movementGroupsQuery(db, f, scope);
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
      const rows = await db.execute(movementPageSelect(seek ? sql`${where} and ${seek}` : where, orderBy, limit, offset));
      return rows.rows as unknown as MovementSqlRow[];
    }),
    movementGroups(db, f, scope),
  ]);
  return { ...page, groups };
}

/**
 * The report's rows through a server-side cursor (PostgreSQL only), in batches handed to `each`
 * until it answers false or the rows end; the caller holds the transaction.
 */
export async function movementsThroughCursor(tx: Tx, where: SQL, size: number, each: (batch: MovementSqlRow[]) => Promise<boolean>) {
  const cursor = sql.raw(`movements_csv_${randomBytes(6).toString('hex')}`);
  await tx.execute(sql`declare ${cursor} no scroll cursor for ${movementSelect(where)}`);
  for (;;) {
    const batch = (await tx.execute(sql`fetch forward ${sql.raw(String(size))} from ${cursor}`)).rows as unknown as MovementSqlRow[];
    const more = batch.length > 0 ? await each(batch) : true;
    if (!more || batch.length < size) break;
  }
  await tx.execute(sql`close ${cursor}`);
}
