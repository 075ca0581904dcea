import { and, eq, gte, ilike, or, sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { addDays, limaDay, NUMBERED_PAGE_ROWS, type DocumentFilters, type Scope } from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import {
  branches,
  documentAllTimeTotals,
  documentDailyTotals,
  documentMonthlyTotals,
  documents,
  documentSearchRecent,
  documentShipments,
} from '../../db/schema.ts';
import { branchScopeCondition } from '../../lib/branch-scope.ts';
import { cursorOf, keysetPage, type KeysetOrder, type KeysetRequest } from '../../lib/keyset.ts';
import { counterRows, within } from '../../lib/month-span.ts';
import { containsPattern } from '../../lib/sql.ts';

/** The documents register's queries: a page of it and the filtered set's totals (from the counters where they can). */

/** The documents' counters: per issue day, per month, and over all time (the same key columns but for the dates). */
type Counters = typeof documentDailyTotals | typeof documentMonthlyTotals | typeof documentAllTimeTotals;

/**
 * The filters that are keys of the counters but for the day, and the branch an agent is limited to,
 * on documents or on their counters (the same column names). Branch 0 in the counters is a
 * document with no branch, which no agent sees.
 */
function keyConditions(t: typeof documents | Counters, filters: DocumentFilters, scope: Scope) {
  const conditions: (SQL | undefined)[] = [];
  conditions.push(branchScopeCondition(scope, t.branchId));
  if (filters.type) conditions.push(eq(t.type, filters.type));
  if (filters.series) conditions.push(eq(t.series, filters.series.toUpperCase()));
  if (filters.status) conditions.push(eq(t.status, filters.status));
  return conditions;
}

/**
 * How far back the customer filter reads document_search_recent (migration 0108 keeps 400 days of
 * issue dates; the margin absorbs a late prune and the database's clock being a day apart).
 */
const RECENT_DAYS = 365;

/** The customer filter's first read: the documents issued since `recentFrom`, found through document_search_recent. */
interface CustomerWindow {
  recentFrom: string;
}

/**
 * The first issue day the customer filter's totals read from document_search_recent, or null when
 * the filter is not a customer or its dates end before the recent year (the whole register's
 * indexes then). A common name reaches the totals' cap within that year (issue 37): 42 ms at 1M
 * documents over ten years, where the whole register's lists took 90; a rarer one is counted again
 * over the whole register, whose lists for it are short.
 */
function customerWindow(filters: DocumentFilters, today: string): CustomerWindow | null {
  if (!filters.customer?.trim()) return null;
  const recentFrom = addDays(today, -RECENT_DAYS);
  if (filters.dateTo && filters.dateTo < recentFrom) return null;
  return { recentFrom };
}

/**
 * Whether a term can be found through documents_customer_doc_fragments (migration 0110), whose
 * entries are every part of 8 to 15 characters of each number: one exact entry, whose list holds
 * that customer's documents, where the trigrams of a RUC are shared by every number and their lists
 * grow with every year of documents. Printable ASCII only, so its length here is its length in
 * PostgreSQL.
 */
const wholeNumberTerm = (q: string) => /^[\x21-\x7e]{8,15}$/.test(q);

/**
 * How the customer filter reads a number: through the trigrams of the name and the number (as any
 * term), through the number's parts (a whole number: wholeNumberTerm), or as the ids of the
 * documents that hold it, found beforehand (numberHolders).
 */
type NumberRead = 'trigrams' | 'parts' | { holders: number[] };

/**
 * A customer's name or document, anywhere in it: over the whole register, or through the recent
 * one. PostgreSQL keeps no statistics of an indexed expression's elements, so it takes the parts'
 * `@>` to match 0.5 % of the register: for the page's order it would walk the issue-day index
 * testing every document (3.6 s at a million for a customer of 120). The totals, which have no
 * order, read the parts' list as a condition; the page reads the ids numberHolders found there.
 */
function customerCondition(q: string, recent: CustomerWindow | null, numbers: NumberRead): SQL {
  const pattern = containsPattern(q);
  if (!recent) {
    // One parameter, an array literal of integers (the same text to both engines' drivers), whatever their number.
    if (typeof numbers === 'object') return sql`${documents.id} = any(${`{${numbers.holders.join(',')}}`}::int[])`;
    const number =
      numbers === 'parts' && wholeNumberTerm(q)
        ? sql`document_number_fragments(${documents.customerDocNumber}) @> array[${q.toLowerCase()}]::text[]`
        : ilike(documents.customerDocNumber, pattern);
    return or(ilike(documents.customerName, pattern), number)!;
  }
  const r = documentSearchRecent;
  return and(
    gte(documents.issueDate, recent.recentFrom),
    sql`${documents.id} in (select ${r.documentId} from ${r}
      where (${r.customerName} ilike ${pattern} or ${r.customerDocNumber} ilike ${pattern}) and ${r.issueDate} >= ${recent.recentFrom})`,
  )!;
}

/**
 * The documents whose customer a document number's filter matches (a whole number with a digit:
 * names have none), when they are NUMBERED_PAGE_ROWS or fewer; null otherwise. Through the parts'
 * index they are one short list (0.15 ms for a RUC of 120 documents over ten years), and a page of
 * them is those few ordered, where through the digits' trigrams, whose lists every number shares,
 * the page took 0.15 ms at one year and 1.6 at ten. A customer of more documents keeps the
 * trigrams: its page walks the register newest first and is full soon.
 */
async function numberHolders(db: Db, filters: DocumentFilters): Promise<number[] | null> {
  const q = filters.customer?.trim();
  if (!q || !wholeNumberTerm(q) || !/[0-9]/.test(q)) return null;
  const found = await db.execute(sql`
    select h.id from ${documents} h
     where h.customer_name ilike ${containsPattern(q)} or document_number_fragments(h.customer_doc_number) @> array[${q.toLowerCase()}]::text[]
     limit ${NUMBERED_PAGE_ROWS + 1}`);
  return found.rows.length <= NUMBERED_PAGE_ROWS ? found.rows.map((r) => Number((r as { id: number }).id)) : null;
}

/**
 * Where a register query starts: the filters, and the branch an agent is limited to. With `recent`,
 * the customer filter reads only the documents issued since its first day (customerWindow);
 * `numbers` says how it reads a number (customerCondition).
 */
export function registerWhere(
  filters: DocumentFilters,
  scope: Scope,
  recent: CustomerWindow | null = null,
  numbers: NumberRead = 'trigrams',
): SQL | undefined {
  const conditions = [
    ...keyConditions(documents, filters, scope),
    ...within(documents.issueDate, { from: filters.dateFrom ?? null, to: filters.dateTo ?? null }),
  ];
  if (filters.shipmentId) {
    conditions.push(
      sql`exists (select 1 from ${documentShipments} where ${documentShipments.documentId} = ${documents.id} and ${documentShipments.shipmentId} = ${filters.shipmentId})`,
    );
  }
  const q = filters.customer?.trim();
  if (q) conditions.push(customerCondition(q, recent, numbers));
  return and(...conditions);
}

/** The register's order: newest issue day first, the id breaking ties (documents_issue_date_idx). */
const registerOrder: KeysetOrder = { at: documents.issueDate, id: documents.id, unit: 'days' };

/** The register's totals: how many documents, and the amounts of the sales among them. */
export interface RegisterSums {
  total: string;
  gravada: string;
  exonerada: string;
  inafecta: string;
  igv: string;
  amount: string;
}

// The register's totals are of sales: a guide carries no amount, and a voucher's withheld or perceived amount is not a sale.
const salesOf = (t: { status: unknown; type: unknown }) => sql`${t.status} <> 'anulado' and ${t.type} in ('01', '03', '07')`;

/** The columns the register's totals add up, on documents or on their counters. */
type Amounts = Record<'status' | 'type' | 'gravada' | 'exonerada' | 'inafecta' | 'igv' | 'total', SQLWrapper | AnyColumn>;

/** The totals as the register answers them, over documents or over their counters (same columns). */
const sumsOver = (t: Amounts, count: SQL) => {
  const sales = salesOf(t);
  return {
    total: sql<string>`${count}`,
    gravada: sql<string>`coalesce(sum(${t.gravada}) filter (where ${sales}), 0)`,
    exonerada: sql<string>`coalesce(sum(${t.exonerada}) filter (where ${sales}), 0)`,
    inafecta: sql<string>`coalesce(sum(${t.inafecta}) filter (where ${sales}), 0)`,
    igv: sql<string>`coalesce(sum(${t.igv}) filter (where ${sales}), 0)`,
    amount: sql<string>`coalesce(sum(${t.total}) filter (where ${sales}), 0)`,
  };
};

/** Whether every filter is a key of the counters (a customer or a shipment is not). */
const onCounters = (filters: DocumentFilters) => !filters.shipmentId && !filters.customer?.trim();

/**
 * The counter rows the filters select, or null when one of them (customer, shipment) is not a key
 * of the counters. With no dates, the all-time rows (one per key, migration 0109): the same few
 * rows after ten years as after one. With dates, the whole months of them from
 * document_monthly_totals and the days they cut from document_daily_totals (monthSpan), so a long
 * range reads a dozen rows a year per key where it read one per day.
 */
function counters(filters: DocumentFilters, scope: Scope): SQL | null {
  if (!onCounters(filters)) return null;
  const rowsOf = (c: Counters, dates: (SQL | undefined)[] = []) =>
    sql`select ${c.n} as n, ${c.status} as status, ${c.type} as type, ${c.gravada} as gravada, ${c.exonerada} as exonerada,
          ${c.inafecta} as inafecta, ${c.igv} as igv, ${c.total} as total
        from ${c} where ${and(...keyConditions(c, filters, scope), ...dates) ?? sql`true`}`;
  if (!filters.dateFrom && !filters.dateTo) return sql`(${rowsOf(documentAllTimeTotals)}) c`;
  return counterRows(filters.dateFrom, filters.dateTo, {
    months: (range) => rowsOf(documentMonthlyTotals, within(documentMonthlyTotals.month, range)),
    days: (range) => rowsOf(documentDailyTotals, within(documentDailyTotals.issueDate, range)),
  });
}

/** The counter rows' columns, as counters() names them. */
const counterColumns = Object.fromEntries(
  ['n', 'status', 'type', 'gravada', 'exonerada', 'inafecta', 'igv', 'total'].map((k) => [k, sql.raw(`c.${k}`)]),
) as Record<keyof Amounts | 'n', SQL>;

/**
 * The filtered set's totals (issue #19): from the counters when the filters are their keys (a few
 * rows per month and per cut day whatever the number of documents), else over the matching
 * documents (a customer or a shipment, each narrowed by its own index first), at most
 * NUMBERED_PAGE_ROWS + 1 of them: a common name can match a tenth of the register, and adding up
 * every one of its wide rows would cost seconds; past the bound the totals are not answered. One
 * row; a query to await (or to EXPLAIN).
 */
export function registerSumsQuery(db: Db, filters: DocumentFilters, scope: Scope, recent: CustomerWindow | null = null) {
  const rows = counters(filters, scope);
  if (rows) return db.select(sumsOver(counterColumns, sql`coalesce(sum(${counterColumns.n}), 0)`)).from(rows);
  const d = documents;
  const matches = db
    .select({ status: d.status, type: d.type, gravada: d.gravada, exonerada: d.exonerada, inafecta: d.inafecta, igv: d.igv, total: d.total })
    .from(d)
    .where(registerWhere(filters, scope, recent, 'parts'))
    .limit(NUMBERED_PAGE_ROWS + 1)
    .as('d');
  return db.select(sumsOver(matches, sql`count(*)`)).from(matches);
}

/** The totals, or `capped` when the matches were too many to add up (only off the counters). */
export async function registerSums(db: Db, filters: DocumentFilters, scope: Scope, today: string): Promise<RegisterSums & { capped: boolean }> {
  const recent = customerWindow(filters, today);
  let [sums] = await registerSumsQuery(db, filters, scope, recent);
  // Fewer than the cap in the recent year: the whole register's matches are added up instead.
  if (recent && Number(sums!.total) <= NUMBERED_PAGE_ROWS) [sums] = await registerSumsQuery(db, filters, scope);
  return { ...sums!, capped: !onCounters(filters) && Number(sums!.total) > NUMBERED_PAGE_ROWS };
}

/**
 * One page of the register (by number, or next to a cursor past the numbered pages) and the
 * filtered set's totals, which the register shows whatever the page (so its count comes exact from
 * them at no extra cost).
 */
export async function listDocuments(db: Db, filters: DocumentFilters, scope: Scope, request: KeysetRequest, now: Date = new Date()) {
  const holders = await numberHolders(db, filters);
  const where = registerWhere(filters, scope, null, holders ? { holders } : 'trigrams');
  // The page and the totals are independent reads: on two pooled connections at once. A customer's
  // page walks the register newest first and stops when it is full (a common name after a few
  // hundred documents, a rare one through its short trigram lists); only its totals, which count up
  // to the cap, read the recent year first (registerSums). The recent year is what the database
  // keeps by its own clock (the real one), not a test's.
  const [page, sums] = await Promise.all([
    keysetPage(registerOrder, request, ({ seek, orderBy, limit, offset }) =>
      db
        .select({ doc: documents, branchName: branches.name, cursor: cursorOf(registerOrder) })
        .from(documents)
        .leftJoin(branches, eq(branches.id, documents.branchId))
        .where(and(where, seek))
        .orderBy(orderBy)
        .limit(limit)
        .offset(offset),
    ),
    registerSums(db, filters, scope, limaDay(now)),
  ]);
  return { ...page, sums };
}
