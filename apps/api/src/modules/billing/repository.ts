import { and, asc, eq, ilike, inArray, ne, or, sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { NUMBERED_PAGE_ROWS, type DocumentFilters } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import {
  branches,
  documentDailyTotals,
  documentEvents,
  documentMonthlyTotals,
  documents,
  documentSeries,
  documentShipments,
  payments,
  shipments,
} from '../../db/schema.ts';
import { cursorOf, keysetPage, type KeysetOrder, type KeysetRequest } from '../../lib/keyset.ts';
import { counterRows, within } from '../../lib/month-span.ts';
import { containsPattern } from '../../lib/sql.ts';

export type DocumentRecord = typeof documents.$inferSelect;
export type DocumentEventRecord = typeof documentEvents.$inferSelect;

/**
 * The next number of a series, taken by an upsert that holds the counter row's lock until the
 * emitting transaction ends: concurrent emissions queue on it, and a rolled-back emission gives its
 * number back, so the series has no gaps and no duplicates (never max()+1).
 */
export async function takeNumber(tx: Tx, type: string, series: string): Promise<number> {
  const [row] = await tx
    .insert(documentSeries)
    .values({ type, series, lastNumber: 1 })
    .onConflictDoUpdate({ target: [documentSeries.type, documentSeries.series], set: { lastNumber: sql`${documentSeries.lastNumber} + 1` } })
    .returning({ n: documentSeries.lastNumber });
  return row!.n;
}

export async function findDocument(db: Db | Tx, id: number): Promise<DocumentRecord | null> {
  const [row] = await db.select().from(documents).where(eq(documents.id, id));
  return row ?? null;
}

export async function findByNumber(db: Db, type: string, series: string, number: number): Promise<DocumentRecord | null> {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.type, type), eq(documents.series, series), eq(documents.number, number)));
  return row ?? null;
}

/** A client's idempotency key as stored: trimmed, and a blank one is no key at all (null). */
export const idempotencyKeyOf = (key: string | null | undefined): string | null => key?.trim() || null;

/** The document a branch issued under an idempotency key; keys are per issuing branch (documents_branch_idempotency_uq). */
export async function findByIdempotencyKey(db: Db, branchId: number | null, key: string | null | undefined): Promise<DocumentRecord | null> {
  const stored = idempotencyKeyOf(key);
  if (!stored) return null;
  const [row] = await db
    .select()
    .from(documents)
    .where(and(sql`coalesce(${documents.branchId}, 0) = ${branchId ?? 0}`, eq(documents.idempotencyKey, stored)));
  return row ?? null;
}

/**
 * Whether a document is the receipt of a payment still pending or paid: it is voided with its
 * payment, never on its own (the trigger of migration 0029 holds the same rule in the database).
 */
export async function isReceiptOfLivePayment(db: Db, documentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.documentId, documentId), inArray(payments.status, ['pending', 'paid'])))
    .limit(1);
  return row !== undefined;
}

export interface EventInput {
  kind: string;
  userId?: number | null;
  userName?: string | null;
  note?: string | null;
  operation?: string | null;
  request?: unknown;
  answer?: unknown;
}

export async function addEvent(db: Db | Tx, documentId: number, e: EventInput): Promise<void> {
  await db.insert(documentEvents).values({
    documentId,
    kind: e.kind,
    userId: e.userId ?? null,
    userName: e.userName ?? null,
    note: e.note ?? null,
    operation: e.operation ?? null,
    request: e.request ?? null,
    answer: e.answer ?? null,
  });
}

/** Whether SUNAT accepted the document at some point (its history holds the acceptance). */
export async function wasAccepted(db: Db | Tx, documentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: documentEvents.id })
    .from(documentEvents)
    .where(and(eq(documentEvents.documentId, documentId), eq(documentEvents.kind, 'aceptado')))
    .limit(1);
  return row !== undefined;
}

export async function eventsOf(db: Db, documentId: number): Promise<DocumentEventRecord[]> {
  return db.select().from(documentEvents).where(eq(documentEvents.documentId, documentId)).orderBy(asc(documentEvents.id));
}

export async function branchName(db: Db, id: number | null): Promise<string | null> {
  if (id === null) return null;
  const [row] = await db.select({ name: branches.name }).from(branches).where(eq(branches.id, id));
  return row?.name ?? null;
}

export async function shipmentsOf(db: Db, documentId: number): Promise<{ id: number; code: string }[]> {
  return db
    .select({ id: shipments.id, code: shipments.code })
    .from(documentShipments)
    .innerJoin(shipments, eq(shipments.id, documentShipments.shipmentId))
    .where(eq(documentShipments.documentId, documentId))
    .orderBy(asc(shipments.id));
}

/**
 * The filters that are keys of the counters but for the day, and the branch an agent is limited to,
 * on documents or on their daily or monthly counters (the same column names). Branch 0 in the
 * counters is a document with no branch, which no agent sees.
 */
function keyConditions(
  t: typeof documents | typeof documentDailyTotals | typeof documentMonthlyTotals,
  filters: DocumentFilters,
  branchId: number | null | 'all',
) {
  const conditions: (SQL | undefined)[] = [];
  if (branchId !== 'all') conditions.push(branchId === null ? sql`false` : eq(t.branchId, branchId));
  if (filters.type) conditions.push(eq(t.type, filters.type));
  if (filters.series) conditions.push(eq(t.series, filters.series.toUpperCase()));
  if (filters.status) conditions.push(eq(t.status, filters.status));
  return conditions;
}

/** Where a register query starts: the filters, and the branch an agent is limited to. */
export function registerWhere(filters: DocumentFilters, branchId: number | null | 'all'): SQL | undefined {
  const conditions = [
    ...keyConditions(documents, filters, branchId),
    ...within(documents.issueDate, { from: filters.dateFrom ?? null, to: filters.dateTo ?? null }),
  ];
  if (filters.shipmentId) {
    conditions.push(
      sql`exists (select 1 from ${documentShipments} where ${documentShipments.documentId} = ${documents.id} and ${documentShipments.shipmentId} = ${filters.shipmentId})`,
    );
  }
  const q = filters.customer?.trim();
  if (q) {
    const pattern = containsPattern(q);
    conditions.push(or(ilike(documents.customerName, pattern), ilike(documents.customerDocNumber, pattern)));
  }
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
 * of the counters: the whole months of the dates from document_monthly_totals and the days they cut
 * from document_daily_totals (monthSpan), so no dates or a long range reads a dozen rows a year per
 * key where it read one per day.
 */
function counters(filters: DocumentFilters, branchId: number | null | 'all'): SQL | null {
  if (!onCounters(filters)) return null;
  const rowsOf = (c: typeof documentMonthlyTotals | typeof documentDailyTotals, dates: (SQL | undefined)[]) =>
    sql`select ${c.n} as n, ${c.status} as status, ${c.type} as type, ${c.gravada} as gravada, ${c.exonerada} as exonerada,
          ${c.inafecta} as inafecta, ${c.igv} as igv, ${c.total} as total
        from ${c} where ${and(...keyConditions(c, filters, branchId), ...dates) ?? sql`true`}`;
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
export function registerSumsQuery(db: Db, filters: DocumentFilters, branchId: number | null | 'all') {
  const rows = counters(filters, branchId);
  if (rows) return db.select(sumsOver(counterColumns, sql`coalesce(sum(${counterColumns.n}), 0)`)).from(rows);
  const d = documents;
  const matches = db
    .select({ status: d.status, type: d.type, gravada: d.gravada, exonerada: d.exonerada, inafecta: d.inafecta, igv: d.igv, total: d.total })
    .from(d)
    .where(registerWhere(filters, branchId))
    .limit(NUMBERED_PAGE_ROWS + 1)
    .as('d');
  return db.select(sumsOver(matches, sql`count(*)`)).from(matches);
}

/** The totals, or `capped` when the matches were too many to add up (only off the counters). */
export async function registerSums(db: Db, filters: DocumentFilters, branchId: number | null | 'all'): Promise<RegisterSums & { capped: boolean }> {
  const [sums] = await registerSumsQuery(db, filters, branchId);
  return { ...sums!, capped: !onCounters(filters) && Number(sums!.total) > NUMBERED_PAGE_ROWS };
}

/**
 * One page of the register (by number, or next to a cursor past the numbered pages) and the
 * filtered set's totals, which the register shows whatever the page (so its count comes exact from
 * them at no extra cost).
 */
export async function listDocuments(db: Db, filters: DocumentFilters, branchId: number | null | 'all', request: KeysetRequest) {
  const where = registerWhere(filters, branchId);
  // The page and the totals are independent reads: on two pooled connections at once.
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
    registerSums(db, filters, branchId),
  ]);
  return { ...page, sums };
}

/** A sender's shipments that may be billed: not Anulado and on no live document. */
export async function unbilledShipments(db: Db, customerId: number, branchId: number | null | 'all') {
  const origin = sql`(select name from branches b where b.id = ${shipments.originBranchId})`;
  const destination = sql`(select name from branches b where b.id = ${shipments.destinationBranchId})`;
  return db
    .select({
      id: shipments.id,
      code: shipments.code,
      createdAt: shipments.createdAt,
      status: shipments.status,
      price: shipments.quotedPrice,
      originName: sql<string>`${origin}`,
      destinationName: sql<string>`${destination}`,
    })
    .from(shipments)
    .where(
      and(
        eq(shipments.senderCustomerId, customerId),
        ne(shipments.status, 'Anulado'),
        branchId === 'all'
          ? undefined
          : branchId === null
            ? sql`false`
            : or(eq(shipments.originBranchId, branchId), eq(shipments.destinationBranchId, branchId)),
        sql`not exists (select 1 from document_shipments ds where ds.shipment_id = ${shipments.id} and ds.live and ds.role = 'comprobante')`,
      ),
    )
    .orderBy(asc(shipments.id))
    .limit(500);
}

export async function shipmentsByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  const origin = sql`(select name from branches b where b.id = ${shipments.originBranchId})`;
  const destination = sql`(select name from branches b where b.id = ${shipments.destinationBranchId})`;
  return db
    .select({
      id: shipments.id,
      code: shipments.code,
      status: shipments.status,
      originBranchId: shipments.originBranchId,
      destinationBranchId: shipments.destinationBranchId,
      originName: sql<string>`${origin}`,
      destinationName: sql<string>`${destination}`,
    })
    .from(shipments)
    .where(inArray(shipments.id, ids));
}

/** The live document a shipment is on (for the refusal message), if any: billed on a comprobante, or carried under a guide. */
export async function liveDocumentOfShipment(
  db: Db,
  shipmentId: number,
  role: ShipmentRole = 'comprobante',
): Promise<{ series: string; number: number } | null> {
  const [row] = await db
    .select({ series: documents.series, number: documents.number })
    .from(documentShipments)
    .innerJoin(documents, eq(documents.id, documentShipments.documentId))
    .where(and(eq(documentShipments.shipmentId, shipmentId), eq(documentShipments.live, true), eq(documentShipments.role, role)));
  return row ?? null;
}

/** How a shipment is on a document: billed on it, or carried under it (a GRE-T). */
export type ShipmentRole = 'comprobante' | 'guia';

/** The live carrier guide of each of these shipments ('VVV1-00000003'), for the load listing. */
export async function liveGuidesOf(
  db: Db | Tx,
  shipmentIds: number[],
): Promise<Map<number, { id: number; series: string; number: number; status: string }>> {
  if (shipmentIds.length === 0) return new Map();
  const rows = await db
    .select({
      shipmentId: documentShipments.shipmentId,
      id: documents.id,
      series: documents.series,
      number: documents.number,
      status: documents.status,
    })
    .from(documentShipments)
    .innerJoin(documents, eq(documents.id, documentShipments.documentId))
    .where(and(inArray(documentShipments.shipmentId, shipmentIds), eq(documentShipments.live, true), eq(documentShipments.role, 'guia')));
  return new Map(rows.map((r) => [r.shipmentId, { id: r.id, series: r.series, number: r.number, status: r.status }]));
}
