import { and, asc, count, desc, eq, gte, inArray, lt, lte, or, sql, sum, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ACTIVE_STATUSES,
  FINAL_STATUSES,
  limaDayEnd,
  limaDayStart,
  normalizeShipmentCode,
  type ShipmentFilters,
  type ShipmentStatus,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { containsPattern } from '../../lib/sql.ts';
import { branches, shipmentDailyCounts, shipmentEvents, shipments } from '../../db/schema.ts';
import type { SessionUser } from '../../types.ts';

const originBranch = alias(branches, 'origin_branch');
const destinationBranch = alias(branches, 'destination_branch');

const rowColumns = {
  id: shipments.id,
  code: shipments.code,
  status: shipments.status,
  createdAt: shipments.createdAt,
  updatedAt: shipments.updatedAt,
  createdByName: shipments.createdByName,
  originBranchId: shipments.originBranchId,
  destinationBranchId: shipments.destinationBranchId,
  originName: originBranch.name,
  originCity: originBranch.city,
  destinationName: destinationBranch.name,
  destinationCity: destinationBranch.city,
  senderCustomerId: shipments.senderCustomerId,
  senderName: shipments.senderName,
  recipientFirstName: shipments.recipientFirstName,
  recipientLastName: shipments.recipientLastName,
  recipientName: shipments.recipientName,
  recipientDoc: shipments.recipientDoc,
  productType: shipments.productType,
  weightKg: shipments.weightKg,
  billableWeightKg: shipments.billableWeightKg,
  description: shipments.description,
  quotedPrice: shipments.quotedPrice,
  quotedCurrency: shipments.quotedCurrency,
  quotedFactorPerKg: shipments.quotedFactorPerKg,
  usingReverse: shipments.usingReverse,
  multiLineDetail: shipments.multiLineDetail,
  deliveredInfo: shipments.deliveredInfo,
};

function selectRows(db: Db | Tx) {
  return db
    .select(rowColumns)
    .from(shipments)
    .innerJoin(originBranch, eq(originBranch.id, shipments.originBranchId))
    .innerJoin(destinationBranch, eq(destinationBranch.id, shipments.destinationBranchId));
}

export type ShipmentRow = Awaited<ReturnType<typeof selectRows>>[number];

export interface EventRow {
  id: number;
  kind: string;
  name: string;
  note: string | null;
  statusFrom: string | null;
  statusTo: string | null;
  at: Date;
  userName: string | null;
}

/** DESIGN.md section 4: admins see every branch; agents and couriers what leaves or reaches theirs. */
export function branchScope(actor: SessionUser): SQL | undefined {
  if (actor.role === 'admin') return undefined;
  if (actor.branchId === null) return sql`false`;
  return or(eq(shipments.originBranchId, actor.branchId), eq(shipments.destinationBranchId, actor.branchId));
}

/** The same folding as the trigram indexes' translate(): 'María Peña' → 'maria pena'. */
const foldAccents = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

/**
 * Text search: the exact code (TMT-000123, or just 123), a recipient document by prefix, or a
 * recipient/sender name fragment. Each branch of the OR has its own index (unique code, the
 * text_pattern_ops document index, the two trigram indexes), so PostgreSQL combines bitmaps.
 */
export function textSearch(q: string): SQL {
  const term = q.trim().toLowerCase();
  const conditions: SQL[] = [];
  const code = normalizeShipmentCode(term);
  if (code) conditions.push(eq(shipments.code, code));
  if (/^\d+$/.test(term)) conditions.push(sql`${shipments.recipientDoc} like ${`${term}%`}`);
  const fragment = containsPattern(foldAccents(term));
  conditions.push(sql`translate(lower(${shipments.recipientName}), 'áéíóúüñ', 'aeiouun') like ${fragment}`);
  conditions.push(sql`translate(lower(${shipments.senderName}), 'áéíóúüñ', 'aeiouun') like ${fragment}`);
  return or(...conditions)!;
}

export function filterConditions(filters: ShipmentFilters): SQL[] {
  const where: SQL[] = [];
  if (filters.q) where.push(textSearch(filters.q));
  if (filters.status) where.push(eq(shipments.status, filters.status));
  if (filters.active !== undefined) {
    where.push(inArray(shipments.status, [...(filters.active ? ACTIVE_STATUSES : FINAL_STATUSES)]));
  }
  if (filters.dateFrom) where.push(gte(shipments.createdAt, limaDayStart(filters.dateFrom)));
  // The day after 9999-12-31 is past what a timestamp parameter can carry; such a bound bounds nothing.
  if (filters.dateTo && filters.dateTo < '9999-12-31') where.push(lt(shipments.createdAt, limaDayEnd(filters.dateTo)));
  if (filters.originBranchId) where.push(eq(shipments.originBranchId, filters.originBranchId));
  if (filters.destinationBranchId) where.push(eq(shipments.destinationBranchId, filters.destinationBranchId));
  if (filters.incidencia === 'abierta') {
    where.push(sql`exists (select 1 from incidents i where i.shipment_id = ${shipments.id} and i.closed_at is null)`);
  }
  return where;
}

/**
 * Totals are exact up to this many shipments. Past it the list says "more than 10 000": counting
 * every match of a common surname, or of a branch's whole history, costs more than the page itself
 * (0.5 s against 2 ms at a million shipments) and nobody pages that far.
 */
export const MAX_EXACT_TOTAL = 10_000;

export async function listRows(db: Db, where: SQL | undefined, page: number, pageSize: number) {
  const matches = db
    .select({ one: sql`1` })
    .from(shipments)
    .where(where)
    .limit(MAX_EXACT_TOTAL + 1)
    .as('matches');
  const [items, [totalRow]] = await Promise.all([
    selectRows(db)
      .where(where)
      .orderBy(desc(shipments.createdAt), desc(shipments.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(matches),
  ]);
  const counted = Number(totalRow?.total ?? 0);
  return { items, total: Math.min(counted, MAX_EXACT_TOTAL), totalCapped: counted > MAX_EXACT_TOTAL };
}

export async function searchRows(db: Db, where: SQL | undefined, limit: number) {
  const rows = await selectRows(db).where(where).orderBy(desc(shipments.createdAt), desc(shipments.id)).limit(limit);
  return rows;
}

export async function findRow(db: Db | Tx, key: { id: number } | { code: string }): Promise<ShipmentRow | null> {
  const [row] = await selectRows(db).where('id' in key ? eq(shipments.id, key.id) : eq(shipments.code, key.code));
  return row ?? null;
}

export async function findEvents(db: Db | Tx, shipmentId: number): Promise<EventRow[]> {
  return db
    .select({
      id: shipmentEvents.id,
      kind: shipmentEvents.kind,
      name: shipmentEvents.name,
      note: shipmentEvents.note,
      statusFrom: shipmentEvents.statusFrom,
      statusTo: shipmentEvents.statusTo,
      at: shipmentEvents.at,
      userName: shipmentEvents.userName,
    })
    .from(shipmentEvents)
    .where(eq(shipmentEvents.shipmentId, shipmentId))
    .orderBy(asc(shipmentEvents.at), asc(shipmentEvents.id));
}

export interface DayStatusCount {
  day: string;
  status: ShipmentStatus;
  n: number;
}

/**
 * Counts per Lima day and status in one grouped scan; the counters are their sums. Lima has no
 * DST, so the fixed −5 h shift gives the same days as `limaDay()`.
 */
export async function countByDayAndStatus(db: Db, where: SQL | undefined): Promise<DayStatusCount[]> {
  const day = sql<string>`to_char((${shipments.createdAt} at time zone 'UTC') - interval '5 hours', 'YYYY-MM-DD')`;
  const rows = await db.select({ day, status: shipments.status, n: count() }).from(shipments).where(where).groupBy(day, shipments.status);
  return rows.map((r) => ({ day: r.day, status: r.status as ShipmentStatus, n: Number(r.n) }));
}

/**
 * The same per-day, per-status counts read from shipment_daily_counts (kept by a trigger): a few
 * hundred rows whatever the number of shipments. Every filter but the text search maps onto it.
 */
export async function dailyCountsByStatus(db: Db, actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): Promise<DayStatusCount[]> {
  const c = shipmentDailyCounts;
  const where: (SQL | undefined)[] = [];
  // Inclusive Lima days, as the list's createdAt bounds; a missing bound is open.
  if (filters.dateFrom) where.push(gte(c.day, filters.dateFrom));
  if (filters.dateTo) where.push(lte(c.day, filters.dateTo));
  if (actor.role !== 'admin') {
    where.push(actor.branchId === null ? sql`false` : or(eq(c.originBranchId, actor.branchId), eq(c.destinationBranchId, actor.branchId)));
  }
  if (filters.status) where.push(eq(c.status, filters.status));
  if (filters.active !== undefined) where.push(inArray(c.status, [...(filters.active ? ACTIVE_STATUSES : FINAL_STATUSES)]));
  if (filters.originBranchId) where.push(eq(c.originBranchId, filters.originBranchId));
  if (filters.destinationBranchId) where.push(eq(c.destinationBranchId, filters.destinationBranchId));
  const rows = await db
    .select({ day: c.day, status: c.status, n: sum(c.n) })
    .from(c)
    .where(and(...where))
    .groupBy(c.day, c.status);
  return rows.map((r) => ({ day: r.day, status: r.status as ShipmentStatus, n: Number(r.n) }));
}
