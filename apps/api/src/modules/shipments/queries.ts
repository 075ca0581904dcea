import { and, type SQL } from 'drizzle-orm';
import {
  canSee,
  normalizeShipmentCode,
  NUMBERED_PAGE_ROWS,
  SEARCH_FLOOR_MARGIN,
  SHIPMENT_MESSAGES,
  type ShipmentListQuery,
  type ShipmentSearchRow,
  type ShipmentStatus,
} from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';
import { dailyCountTotal } from './daily-counts.ts';
import { loadDto, shipmentKey, toShipmentDto } from './dto.ts';
import type { ShipmentRow } from './rows.ts';
import {
  branchScope,
  countUpTo,
  countUpToInWindows,
  filterConditions,
  listPage,
  searchMatchesFloor,
  searchRows,
  searchWindows,
  textFreeConditions,
  type SearchWindow,
} from './search.ts';

/**
 * A searched list's total. The statistics' floor is one of the whole table, so it stands only for
 * a search nothing else narrows (no other filter, every branch).
 */
async function searchTotal(
  db: Db,
  actor: SessionUser,
  filters: Omit<ShipmentListQuery, 'page' | 'pageSize' | 'after' | 'before'>,
  where: SQL | undefined,
  windows: SearchWindow[] | undefined,
) {
  const { q, ...others } = filters;
  const alone = q !== undefined && actor.role === 'admin' && Object.values(others).every((v) => v === undefined);
  if (alone && (await searchMatchesFloor(db, q)) >= SEARCH_FLOOR_MARGIN * NUMBERED_PAGE_ROWS) {
    return { total: NUMBERED_PAGE_ROWS, totalCapped: true };
  }
  // Counted newest first: a name common in the last year is capped there, not over every year's matches.
  return windows ? countUpToInWindows(db, where, NUMBERED_PAGE_ROWS, windows) : countUpTo(db, where, NUMBERED_PAGE_ROWS);
}

/**
 * The list: a page by number or by cursor, and its total. Without a text search the total is exact
 * and read from the daily counts (a few hundred rows, whatever the table holds); with one — or with
 * the open-incident filter, which the counts do not know — it is counted up to the numbered pages'
 * reach and is "more than" past it, or said to be "more than" uncounted when the search is one
 * common word and nothing else narrows it.
 */
export async function listShipments(ctx: ServiceContext, actor: SessionUser, query: ShipmentListQuery) {
  const { page, pageSize, after, before, ...filters } = query;
  // A text search's page and total read newest first, window by window, and stop when they have
  // what they show (issue 37); each window carries the search's condition, the rest is common.
  const windows = filters.q ? searchWindows(filters, ctx.now()) : undefined;
  const where = and(branchScope(actor), ...(windows ? textFreeConditions(filters) : filterConditions(filters)));
  const [found, counted] = await Promise.all([
    listPage(ctx.db, where, { page, pageSize, after, before }, windows),
    filters.q || filters.incidencia
      ? searchTotal(ctx.db, actor, filters, where, windows)
      : dailyCountTotal(ctx.db, actor, filters).then((total) => ({ total, totalCapped: false })),
  ]);
  return {
    items: found.rows.map((r) => toShipmentDto(r, actor)),
    ...counted,
    page,
    pageSize,
    next: found.next,
    prev: found.prev,
  };
}

/** Tracking: every role, every branch, read-only (DESIGN.md section 4). */
export async function searchShipments(
  ctx: ServiceContext,
  query: { q?: string | undefined; originId?: number | undefined; destinationId?: number | undefined; status?: ShipmentStatus | undefined },
) {
  const rows = await searchRows(ctx.db, query, 20, ctx.now());
  return rows.map(toSearchRow);
}

/** The tracking screen's row: nothing it does not show (every branch can search). */
function toSearchRow(row: ShipmentRow): ShipmentSearchRow {
  return {
    id: row.id,
    code: row.code,
    status: row.status as ShipmentStatus,
    createdAt: row.createdAt.toISOString(),
    originBranch: { name: row.originName, city: row.originCity },
    destinationBranch: { name: row.destinationName, city: row.destinationCity },
    recipientName: row.recipientName,
    recipientDoc: row.recipientDoc,
  };
}

/** Detail by id or code, scoped like the list. */
export async function getShipment(ctx: ServiceContext, actor: SessionUser, idOrCode: string) {
  const dto = await loadDto(ctx.db, actor, shipmentKey(idOrCode));
  if (!canSee(actor, dto)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
  return dto;
}

/** Tracking and delivery lookup by code: every branch, read-only for those who cannot manage. */
export async function getShipmentByCode(ctx: ServiceContext, actor: SessionUser, code: string) {
  const normalized = normalizeShipmentCode(code);
  if (!normalized) throw notFound(SHIPMENT_MESSAGES.notFound);
  return loadDto(ctx.db, actor, { code: normalized });
}
