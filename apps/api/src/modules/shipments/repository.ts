import { and, asc, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  ACTIVE_STATUSES,
  FINAL_STATUSES,
  limaDayEnd,
  limaDayStart,
  normalizeShipmentCode,
  type ChartBucket,
  type ShipmentFilters,
  type ShipmentStatus,
} from '@tramo/domain';
import { readBoth, type Db, type Tx } from '../../db/client.ts';
import {
  auditLog,
  branches,
  customers,
  shipmentDailyBranchCounts,
  shipmentDailyCountDeltas,
  shipmentDailyCounts,
  shipmentDailyStatusCounts,
  shipmentEvents,
  shipments,
  transportAssignments,
  transports,
} from '../../db/schema.ts';
import { countUpTo as countRowsUpTo, cursorOf, keysetPage, type KeysetOrder, type KeysetRequest } from '../../lib/keyset.ts';
import { insertReturning, preparedQuery, preparedSelect, selectWithFixedHead } from '../../lib/statements.ts';
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

/** The shipment's own columns of a row (without the branches' names), as an insert returns them. */
const { originName: _on, originCity: _oc, destinationName: _dn, destinationCity: _dc, ...ownColumns } = rowColumns;

function selectRows(db: Db | Tx) {
  return db
    .select(rowColumns)
    .from(shipments)
    .innerJoin(originBranch, eq(originBranch.id, shipments.originBranchId))
    .innerJoin(destinationBranch, eq(destinationBranch.id, shipments.destinationBranchId));
}

export type ShipmentRow = Awaited<ReturnType<typeof selectRows>>[number];

export type ShipmentKey = { id: number } | { code: string };
const byKey = (key: ShipmentKey) => ('id' in key ? eq(shipments.id, key.id) : eq(shipments.code, key.code));

export interface BranchRef {
  id: number;
  name: string;
  city: string | null;
}

const branchRef = { id: branches.id, name: branches.name, city: branches.city };
const selectTwoBranches = preparedQuery<BranchRef>('select_two_branches', branchRef, (db) =>
  db
    .select(branchRef)
    .from(branches)
    .where(inArray(branches.id, [sql.placeholder('a'), sql.placeholder('b')])),
);

/** A shipment's two branches (origin and destination), in one prepared read. */
export async function findBranches(db: Db | Tx, [a, b]: readonly [number, number]): Promise<BranchRef[]> {
  return selectTwoBranches(db, { a, b });
}

export async function customerExists(db: Db | Tx, id: number): Promise<boolean> {
  const [c] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, id));
  return c !== undefined;
}

const nextShipmentCode = sql<string>`(select 'TMT-' || lpad(n::text, greatest(6, length(n::text)), '0') from nextval('shipment_code_seq') as n)`;

/**
 * Inserts a shipment and answers its row as findRow would, without reading it back: the insert
 * returns the shipment's columns and the caller already holds both branches.
 */
export async function insertShipment(
  tx: Tx,
  values: Omit<typeof shipments.$inferInsert, 'code'>,
  origin: BranchRef,
  destination: BranchRef,
): Promise<ShipmentRow> {
  // The code (formatShipmentCode of the sequence's next number) is taken by the insert itself, after
  // every check that can refuse, so refused requests burn no code.
  const row = await insertReturning<Omit<ShipmentRow, 'originName' | 'originCity' | 'destinationName' | 'destinationCity'>>(
    tx,
    'insert_shipment',
    shipments,
    values,
    ownColumns,
    { code: nextShipmentCode },
  );
  return { ...row, originName: origin.name, originCity: origin.city, destinationName: destination.name, destinationCity: destination.city };
}

/** The columns a creation gives a value (null included), in one fixed order: the statement's shape never varies. */
const newShipmentColumns = [
  'status',
  'createdAt',
  'updatedAt',
  'createdBy',
  'createdByName',
  'originBranchId',
  'destinationBranchId',
  'senderCustomerId',
  'senderName',
  'recipientFirstName',
  'recipientLastName',
  'recipientName',
  'recipientDoc',
  'productType',
  'weightKg',
  'billableWeightKg',
  'description',
  'quotedPrice',
  'quotedCurrency',
  'quotedFactorPerKg',
  'usingReverse',
  'multiLineDetail',
  'recipientPhone',
  'recipientEmail',
  'secretCodeHash',
] as const satisfies readonly (keyof typeof shipments.$inferInsert)[];

/** What a creation writes of the shipment itself, every column given (the code is the sequence's, taken by the statement). */
export type NewShipmentRow = Required<Pick<typeof shipments.$inferInsert, (typeof newShipmentColumns)[number]>>;

/**
 * A creation's three rows in ONE statement (issue 19: a round trip each was a quarter of the API's
 * CPU): the shipment, its first history line ('Creado', by its creator, at its creation time) and
 * its audit row, whose `after` is the caller's snapshot completed with the id and code the insert
 * took. One statement is one transaction: the three land together or not at all. It answers only
 * what the database chose (id, code, the event's id): the caller holds every value it wrote.
 */
const insertCreated = preparedSelect<{ id: number; code: string; eventId: number }>('insert_created_shipment', (db) => {
  const created = db.$with('created').as(
    db
      .insert(shipments)
      .values({ ...Object.fromEntries(newShipmentColumns.map((k) => [k, sql.placeholder(k)])), code: nextShipmentCode } as never)
      .returning({
        id: shipments.id,
        code: shipments.code,
        createdAt: shipments.createdAt,
        createdBy: shipments.createdBy,
        createdByName: shipments.createdByName,
      }),
  );
  const firstEvent = db.$with('first_event', { eventId: sql<number>`event_id`.mapWith(Number).as('event_id') }).as(
    sql`insert into ${shipmentEvents} (shipment_id, kind, name, status_to, at, user_id, user_name)
        select id, 'status', 'Creado', 'Creado', created_at, created_by, created_by_name from ${created} returning id as event_id`,
  );
  const audited = db.$with('audited', { auditId: sql<number>`audit_id`.as('audit_id') }).as(
    sql`insert into ${auditLog} (user_id, entity, entity_id, action, after)
        select created_by, 'shipment', id::text, 'create', ${sql.placeholder('after')}::jsonb || jsonb_build_object('id', id, 'code', code)
        from ${created} returning id as audit_id`,
  );
  return db
    .with(created, firstEvent, audited)
    .select({ id: created.id, code: created.code, eventId: firstEvent.eventId })
    .from(created)
    .crossJoin(firstEvent);
});

/**
 * Inserts a new shipment with its first event and its audit row (insertCreated); answers the
 * shipment's id and code and the event's id. `after` is the audit snapshot without the id and
 * code, which the statement fills in.
 */
export async function insertNewShipment(db: Db | Tx, values: NewShipmentRow, after: Record<string, unknown>) {
  const [created] = await insertCreated(db, { ...values, after: JSON.stringify(after) });
  return created!;
}

export async function updateShipmentRow(tx: Tx, id: number, changes: Partial<typeof shipments.$inferInsert>): Promise<void> {
  await tx.update(shipments).set(changes).where(eq(shipments.id, id));
}

/** Locks the shipment row for the rest of the transaction. */
export async function lockRow(tx: Tx, key: ShipmentKey) {
  const [locked] = await tx
    .select({ id: shipments.id, status: shipments.status, originBranchId: shipments.originBranchId })
    .from(shipments)
    .where(byKey(key))
    .for('update');
  return locked ?? null;
}

/** The plate of the transport the shipment is loaded on, if any. */
export async function loadedOnPlate(tx: Tx, shipmentId: number): Promise<string | null> {
  const [loaded] = await tx
    .select({ plate: transports.platePrimary })
    .from(transportAssignments)
    .innerJoin(transports, eq(transports.id, transportAssignments.transportId))
    .where(eq(transportAssignments.shipmentId, shipmentId));
  return loaded?.plate ?? null;
}

export async function findEventOf(tx: Tx, shipmentId: number, eventId: number) {
  const [event] = await tx
    .select({ id: shipmentEvents.id, kind: shipmentEvents.kind, name: shipmentEvents.name, at: shipmentEvents.at, userName: shipmentEvents.userName })
    .from(shipmentEvents)
    .where(and(eq(shipmentEvents.id, eventId), eq(shipmentEvents.shipmentId, shipmentId)));
  return event ?? null;
}

export async function deleteEvent(tx: Tx, eventId: number): Promise<void> {
  await tx.delete(shipmentEvents).where(eq(shipmentEvents.id, eventId));
}

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

/** The same folding as shipment_search_words()'s translate(): 'María Peña' → 'maria pena'. */
const foldAccents = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

/** Beginnings longer than this are indexed by their first letters only (migration 0016). */
const MAX_PREFIX = 20;

/**
 * The search tokens of a typed name (see shipment_search_words(), migration 0016): each word whole,
 * and the last one as the beginning of a word, as it is being typed: 'María  Quis' → maria, p:quis.
 * Every token is one exact entry of the index and of its statistics, so a common surname walks the
 * newest rows and a rare one reads a few index entries. Null when no word is left.
 */
export function nameTokens(term: string): string[] | null {
  const words = foldAccents(term.toLowerCase())
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length === 0) return null;
  const last = words.at(-1)!;
  // Code-unit order, as the migration's COLLATE "C" least()/greatest().
  const whole = [...new Set(words.slice(0, -1))].sort();
  // Every pair of whole words is one token of its own (migration 0016): 'rosa quispe flo' reads the
  // short list of names holding both Rosa and Quispe instead of intersecting their two long ones.
  // A pair holds both its words, so with two whole words or more the pairs alone say it all: each
  // single word's list would be one more long list for the index to intersect (issue 19).
  const pairs = whole.flatMap((a, i) => whole.slice(i + 1).map((b) => `${a}+${b}`));
  return [...(pairs.length > 0 ? pairs : whole), last.length > MAX_PREFIX ? `p:${last.slice(0, MAX_PREFIX)}` : `p:${last}`];
}

/** The one token a name search is, or null when it is a code, a document or more than one token. */
function singleNameToken(q: string): string | null {
  const term = q.trim().toLowerCase();
  if (normalizeShipmentCode(term) || /^\d+$/.test(term)) return null;
  const tokens = nameTokens(term);
  return tokens?.length === 1 ? tokens[0]! : null;
}

/**
 * A floor under how many shipments a text search of one word finds, from the statistics ANALYZE
 * keeps of the names' tokens (their most common ones and the share of rows holding each, from a
 * sample of 30 000 rows or more): the share times the rows the table held then. Zero when the
 * search is several tokens (shares of several tokens give no floor for their intersection) or its
 * token is not among the common ones. Either side (the recipient's token, or the sender's 's:' one)
 * is a floor of the list's matches. Shipments are never deleted and a name edit moves one row, so
 * the count only grows after the sample; the caller still wants it far above what it decides.
 */
export async function searchMatchesFloor(db: Db, q: string): Promise<number> {
  const token = singleNameToken(q);
  if (!token) return 0;
  const result = await db.execute(sql`
    select coalesce(max(e.share * c.reltuples), 0)::float8 as floor
      from pg_stats s
     cross join lateral unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as e(token, share)
      join pg_class c on c.oid = 'shipments'::regclass
     where s.schemaname = current_schema() and s.tablename = 'shipments' and s.attname = 'search_words' and e.token in (${token}, ${`s:${token}`})`);
  return Number((result.rows[0] as { floor: number }).floor);
}

/** The tokens as a text query, on the recipient's side and, if asked, the sender's ('s:' tokens). */
function tokensQuery(tokens: string[], sides: { sender: boolean }): string {
  // Tokens hold only a–z, 0–9, ':' and '+' (nameTokens), so quoting them is all a tsquery literal needs.
  const side = (prefix: string) => `(${tokens.map((t) => `'${prefix}${t}'`).join(' & ')})`;
  return sides.sender ? `${side('')} | ${side('s:')}` : side('');
}

/**
 * Text search: the exact code (TMT-000123, or just 123), a recipient document by prefix, or a
 * recipient (or sender) name holding every word typed ('rosa quis' finds 'Rosa Quispe Flores').
 * Each branch of the OR has its own index (unique code, the text_pattern_ops document index, the
 * names' token index), so PostgreSQL combines bitmaps.
 */
export function textSearch(q: string, sides: { sender: boolean } = { sender: true }): SQL {
  const term = q.trim().toLowerCase();
  const conditions: SQL[] = [];
  const code = normalizeShipmentCode(term);
  if (code) conditions.push(eq(shipments.code, code));
  if (/^\d+$/.test(term)) conditions.push(sql`${shipments.recipientDoc} like ${`${term}%`}`);
  // A code or a document is no name: a name condition would only cost a look at the names' index.
  const tokens = code || /^\d+$/.test(term) ? null : nameTokens(term);
  if (tokens) conditions.push(sql`${shipments.searchWords} @@ ${tokensQuery(tokens, sides)}::tsquery`);
  return or(...conditions) ?? sql`false`;
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

/** The list's order (newest first, id breaking ties), the order of shipments_created_idx. */
const listOrder: KeysetOrder = { at: shipments.createdAt, id: shipments.id, unit: 'microseconds' };

export type PageRequest = KeysetRequest;

const listColumns = { ...rowColumns, cursor: cursorOf(listOrder) };
/** The list's select up to its conditions, rendered once (lib/statements.ts). */
const selectListRows = selectWithFixedHead<ShipmentRow & { cursor: string }>(listColumns, (db) =>
  db
    .select(listColumns)
    .from(shipments)
    .innerJoin(originBranch, eq(originBranch.id, shipments.originBranchId))
    .innerJoin(destinationBranch, eq(destinationBranch.id, shipments.destinationBranchId)),
);

/** One page of the list, newest first: by number or next to a cursor (lib/keyset.ts). */
export async function listPage(db: Db, where: SQL | undefined, request: PageRequest) {
  return keysetPage(listOrder, request, ({ seek, orderBy, limit, offset }) => {
    const conditions = and(where, seek);
    // As drizzle writes it (no `offset 0`): the same text, the same plan.
    return selectListRows(
      db,
      sql`${conditions ? sql`where ${conditions} ` : sql``}order by ${orderBy} limit ${limit}${offset ? sql` offset ${offset}` : sql``}`,
    );
  });
}

/**
 * How many shipments match, counting no further than `cap` (the total is then "more than cap"):
 * for a text search, whose matches no maintained counter knows.
 */
export const countUpTo = (db: Db, where: SQL | undefined, cap: number) => countRowsUpTo(db, shipments, where, cap);

/** The rows' select up to its conditions, rendered once (lib/statements.ts). */
const selectSearchRows = selectWithFixedHead<ShipmentRow>(rowColumns, selectRows);

/** Tracking: a term, narrowed by route and status; nothing without one of them. */
export async function searchRows(
  db: Db,
  query: { q?: string | undefined; originId?: number | undefined; destinationId?: number | undefined; status?: ShipmentStatus | undefined },
  limit: number,
) {
  const where: SQL[] = [];
  // Tracking and Entregas find by the recipient (spec: code, recipient document or name), never the sender.
  if (query.q) where.push(textSearch(query.q, { sender: false }));
  if (query.originId) where.push(eq(shipments.originBranchId, query.originId));
  if (query.destinationId) where.push(eq(shipments.destinationBranchId, query.destinationId));
  if (query.status) where.push(eq(shipments.status, query.status));
  if (where.length === 0) return [];
  return selectSearchRows(db, sql`where ${and(...where)} order by ${desc(shipments.createdAt)}, ${desc(shipments.id)} limit ${limit}`);
}

// A shipment's detail (every view, every change's answer) reads its row, events and links: prepared
// once each (lib/statements.ts) instead of drizzle rebuilding ~30 columns and two joins per call.
const selectRowById = preparedQuery<ShipmentRow>('select_shipment_by_id', rowColumns, (db) =>
  selectRows(db).where(eq(shipments.id, sql.placeholder('id'))),
);
const selectRowByCode = preparedQuery<ShipmentRow>('select_shipment_by_code', rowColumns, (db) =>
  selectRows(db).where(eq(shipments.code, sql.placeholder('code'))),
);

export async function findRow(db: Db | Tx, key: ShipmentKey): Promise<ShipmentRow | null> {
  const [row] = 'id' in key ? await selectRowById(db, { id: key.id }) : await selectRowByCode(db, { code: key.code });
  return row ?? null;
}

const eventColumns = {
  id: shipmentEvents.id,
  kind: shipmentEvents.kind,
  name: shipmentEvents.name,
  note: shipmentEvents.note,
  statusFrom: shipmentEvents.statusFrom,
  statusTo: shipmentEvents.statusTo,
  at: shipmentEvents.at,
  userName: shipmentEvents.userName,
};
const selectEvents = preparedQuery<EventRow>('select_shipment_events', eventColumns, (db) =>
  db
    .select(eventColumns)
    .from(shipmentEvents)
    .where(eq(shipmentEvents.shipmentId, sql.placeholder('shipmentId')))
    .orderBy(asc(shipmentEvents.at), asc(shipmentEvents.id)),
);

export async function findEvents(db: Db | Tx, shipmentId: number): Promise<EventRow[]> {
  return selectEvents(db, { shipmentId });
}

export interface DayStatusCount {
  day: string;
  status: ShipmentStatus;
  n: number;
}

/**
 * Counts per Lima day and status (Lima has no DST: the fixed −5 h shift gives the same days as
 * `limaDay()`) of at most the newest `cap` matching shipments, and whether more match: for a
 * text search, which no maintained counter knows. LIMIT lets the planner stop walking the newest
 * rows (a common name) or sort only a rare name's few index matches; never a count of every match.
 */
export async function countByDayAndStatusUpTo(db: Db, where: SQL | undefined, cap: number): Promise<{ counts: DayStatusCount[]; capped: boolean }> {
  const result = await db.execute(sql`
    select to_char((m.created_at at time zone 'UTC') - interval '5 hours', 'YYYY-MM-DD') as day, m.status,
           count(*) filter (where m.rn <= ${cap})::int as n, max(m.rn)::int as found
      from (select ${shipments.createdAt} as created_at, ${shipments.status} as status,
                   row_number() over (order by ${shipments.createdAt} desc, ${shipments.id} desc) as rn
              from ${shipments} ${where ? sql`where ${where}` : sql``}
             order by ${shipments.createdAt} desc, ${shipments.id} desc limit ${cap + 1}) m
     group by 1, 2`);
  const rows = result.rows as { day: string; status: string; n: number; found: number }[];
  return {
    counts: rows.filter((r) => Number(r.n) > 0).map((r) => ({ day: r.day, status: r.status as ShipmentStatus, n: Number(r.n) })),
    capped: rows.some((r) => Number(r.found) > cap),
  };
}

const dayStatusCounts = (rows: unknown[]): DayStatusCount[] =>
  (rows as { day: string; status: string; n: string | number }[]).map((r) => ({ day: r.day, status: r.status as ShipmentStatus, n: Number(r.n) }));

/**
 * The same counts grouped by chart bucket (the day, its Monday-started week, month or year, as the
 * domain's bucketStart), keyed by the bucket's first day within a chart starting on `from`: at most
 * a few hundred rows whatever the span, where a year day by day is thousands for the Panel to group.
 * Days before `from` keep their bucket's own start, so a chart that drops its oldest years (over 92
 * bars) leaves them out of the series and in the counters, as day-by-day rows did.
 */
export async function dailyCountsByBucket(
  db: Db,
  actor: SessionUser,
  filters: Omit<ShipmentFilters, 'q'>,
  bucket: ChartBucket,
  from: string,
): Promise<DayStatusCount[]> {
  // Per day first (the counts' rows are per route too), then per bar: the date arithmetic runs on
  // a row per day and status, not on every counter row.
  const start = bucket === 'day' ? sql`d.day` : sql`date_trunc(${bucket}, d.day::timestamp)::date`;
  const result = await db.execute(sql`
    select (case when d.day < ${from}::date then ${start} else greatest(${start}, ${from}::date) end)::text as day, d.status, sum(d.n)::bigint as n
      from (select k.day, k.status, sum(k.n) as n from (${dailyCountRows(actor, filters)}) k group by k.day, k.status) d
     group by 1, 2`);
  return dayStatusCounts(result.rows);
}

/**
 * The first and last day the counters hold a shipment matching the filters (null when none): where
 * a chart with an open end starts or stops. Each end is one walk of the counters' day index.
 */
export async function dailyCountDays(
  db: Db,
  actor: SessionUser,
  filters: Omit<ShipmentFilters, 'q'>,
): Promise<{ first: string; last: string } | null> {
  // Scalar min()/max() per table, which PostgreSQL answers from the day index; over a union it
  // would read every row.
  const ends = dailyCountSources(actor, filters).map(
    ({ table, where, n }) =>
      sql`(select min(${table.day}) from ${table} where ${where} and ${n} > 0), (select max(${table.day}) from ${table} where ${where} and ${n} > 0)`,
  );
  const result = await db.execute(sql`
    select least(f.first, d.first)::text as first, greatest(f.last, d.last)::text as last
      from (select ${ends[0]}) f(first, last), (select ${ends[1]}) d(first, last)`);
  const row = result.rows[0] as { first: string | null; last: string | null };
  return row.first && row.last ? { first: row.first, last: row.last } : null;
}

/**
 * The list's total from the same counters, added up by the database: one row comes back, where the
 * per-day answer would bring a row per day and status (thousands over a few years).
 */
export async function dailyCountTotal(db: Db, actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): Promise<number> {
  const result = await db.execute(sql`select coalesce(sum(k.n), 0)::bigint as n from (${dailyCountRows(actor, filters)}) k`);
  return Number((result.rows[0] as { n: string | number }).n);
}

/**
 * Counter rows (folded counts and pending deltas) matching the filters: day, status, n. The folded
 * part comes from the smallest table that answers the filters (see foldedSource).
 */
function dailyCountRows(actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): SQL {
  const [folded, deltas] = dailyCountSources(actor, filters);
  return sql`select ${folded.table.day} as day, ${folded.table.status} as status, ${folded.n} as n from ${folded.table} where ${folded.where}
      union all
      select ${deltas.table.day}, ${deltas.table.status}, ${deltas.n} from ${deltas.table} where ${deltas.where}`;
}

type CounterTable =
  typeof shipmentDailyCounts | typeof shipmentDailyCountDeltas | typeof shipmentDailyStatusCounts | typeof shipmentDailyBranchCounts;

/** A counter table, the filters as its conditions, and the column that counts what they match. */
interface CounterSource {
  table: CounterTable;
  where: SQL;
  n: AnyPgColumn;
}

/** The two sources a count is the sum of: folded counts, then pending deltas (always per route). */
function dailyCountSources(actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): readonly [CounterSource, CounterSource] {
  const deltas = shipmentDailyCountDeltas;
  return [foldedSource(actor, filters), { table: deltas, where: routeConditions(deltas, actor, filters), n: deltas.n }] as const;
}

/**
 * With no route in play (an admin, no origin or destination filter) the counts added up over the
 * routes (migration 0019), a row per day and status; with one branch on one side or either (an
 * agent's scope, an admin's origin or destination filter) that branch's counts (migration 0023), a
 * row per day and status too; else every route's row.
 */
function foldedSource(actor: SessionUser, filters: Omit<ShipmentFilters, 'q'>): CounterSource {
  if (actor.role === 'admin' && !filters.originBranchId && !filters.destinationBranchId) {
    const c = shipmentDailyStatusCounts;
    return { table: c, where: dayAndStatusConditions(c, filters) ?? sql`true`, n: c.n };
  }
  const one = oneBranch(actor, filters);
  if (one) {
    const c = shipmentDailyBranchCounts;
    const n = one.side === 'origin' ? c.nOrigin : one.side === 'destination' ? c.nDestination : c.n;
    return { table: c, where: and(eq(c.branchId, one.branchId), dayAndStatusConditions(c, filters))!, n };
  }
  return { table: shipmentDailyCounts, where: routeConditions(shipmentDailyCounts, actor, filters), n: shipmentDailyCounts.n };
}

/**
 * The one branch whose shipments the scope and route filters leave, and on which side (either is
 * origin OR destination, an agent's scope); null when they name a route or none.
 */
function oneBranch(
  actor: SessionUser,
  { originBranchId: origin, destinationBranchId: destination }: Omit<ShipmentFilters, 'q'>,
): { branchId: number; side: 'either' | 'origin' | 'destination' } | null {
  if (actor.role === 'admin') {
    if (origin && !destination) return { branchId: origin, side: 'origin' };
    if (destination && !origin) return { branchId: destination, side: 'destination' };
    return null;
  }
  const own = actor.branchId;
  if (own === null) return null;
  if (!origin && !destination) return { branchId: own, side: 'either' };
  // Their own branch on one side narrows their scope to that side; another branch makes a route.
  if (origin === own && !destination) return { branchId: own, side: 'origin' };
  if (destination === own && !origin) return { branchId: own, side: 'destination' };
  return null;
}

/** The filters' days and status on a counter table (a missing date bound is open, as in the list). */
function dayAndStatusConditions(c: CounterTable, filters: Omit<ShipmentFilters, 'q'>): SQL | undefined {
  const where: SQL[] = [];
  // Inclusive Lima days, as the list's createdAt bounds.
  if (filters.dateFrom) where.push(gte(c.day, filters.dateFrom));
  if (filters.dateTo) where.push(lte(c.day, filters.dateTo));
  if (filters.status) where.push(eq(c.status, filters.status));
  if (filters.active !== undefined) where.push(inArray(c.status, [...(filters.active ? ACTIVE_STATUSES : FINAL_STATUSES)]));
  return and(...where);
}

/** The filters, the actor's branch scope included, on a table with a row per route. */
function routeConditions(
  c: typeof shipmentDailyCounts | typeof shipmentDailyCountDeltas,
  actor: SessionUser,
  filters: Omit<ShipmentFilters, 'q'>,
): SQL {
  const where: (SQL | undefined)[] = [dayAndStatusConditions(c, filters)];
  if (actor.role !== 'admin') {
    where.push(actor.branchId === null ? sql`false` : or(eq(c.originBranchId, actor.branchId), eq(c.destinationBranchId, actor.branchId)));
  }
  if (filters.originBranchId) where.push(eq(c.originBranchId, filters.originBranchId));
  if (filters.destinationBranchId) where.push(eq(c.destinationBranchId, filters.destinationBranchId));
  return and(...where) ?? sql`true`;
}

/** Key of the advisory lock that lets one process at a time fold the daily count deltas. */
const FOLD_LOCK = 7_283_019;

/**
 * Moves the deltas the trigger appended into shipment_daily_counts, in one statement: a reader
 * sees them either still as deltas or already folded, never both nor neither. Creations append
 * rows instead of updating one counter row per (day, route, status), so they never queue on it.
 */
export async function foldDailyCounts(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const lock = await tx.execute(sql`select pg_try_advisory_xact_lock(${FOLD_LOCK}) as ok`);
    if (!(lock.rows[0] as { ok: boolean }).ok) return;
    await tx.execute(sql`
      with moved as (delete from shipment_daily_count_deltas returning day, origin_branch_id, destination_branch_id, status, n)
      insert into shipment_daily_counts as c (day, origin_branch_id, destination_branch_id, status, n)
      select day, origin_branch_id, destination_branch_id, status, sum(n) from moved group by 1, 2, 3, 4
      on conflict (day, origin_branch_id, destination_branch_id, status) do update set n = c.n + excluded.n`);
  });
}

/** The shipment an original was returned as (its return leg), if any. */
const legColumns = { id: shipments.id, code: shipments.code };
const selectReturnLeg = preparedQuery<{ id: number; code: string }>('select_return_leg', legColumns, (db) =>
  db
    .select(legColumns)
    .from(shipments)
    .where(eq(shipments.returnOfShipmentId, sql.placeholder('originalId'))),
);

export async function findReturnLeg(db: Db | Tx, originalId: number): Promise<{ id: number; code: string } | null> {
  const [leg] = await selectReturnLeg(db, { originalId });
  return leg ?? null;
}

const original = alias(shipments, 'original');
const returnOfColumns = { returnOfId: original.id, returnOfCode: original.code };
const selectReturnOf = preparedQuery<{ returnOfId: number | null; returnOfCode: string | null }>('select_return_of', returnOfColumns, (db) =>
  db
    .select(returnOfColumns)
    .from(shipments)
    .leftJoin(original, eq(original.id, shipments.returnOfShipmentId))
    .where(eq(shipments.id, sql.placeholder('id'))),
);

/** Both links of a shipment: the original it returns (when it is a return leg) and the leg it was returned as. */
export async function findReturnLinks(db: Db | Tx, shipmentId: number) {
  const [[row], returnedAs] = await readBoth(
    db,
    () => selectReturnOf(db, { id: shipmentId }),
    () => findReturnLeg(db, shipmentId),
  );
  return {
    returnOf: row?.returnOfId != null && row.returnOfCode != null ? { id: row.returnOfId, code: row.returnOfCode } : null,
    returnedAs,
  };
}

/** A customer's document and contact: the return leg's recipient is the original's sender. */
export async function customerContact(tx: Tx, customerId: number | null) {
  if (customerId === null) return null;
  const [c] = await tx
    .select({ docNumber: customers.docNumber, phone: customers.phone, email: customers.email })
    .from(customers)
    .where(eq(customers.id, customerId));
  return c ?? null;
}

/** The idempotency key the return of `originalId` was made with (kept in its audit row). */
export async function returnIdempotencyKey(db: Db | Tx, originalId: number): Promise<string | null> {
  const [row] = await db
    .select({ key: sql<string | null>`${auditLog.after} ->> 'idempotencyKey'` })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'shipment'), eq(auditLog.entityId, String(originalId)), eq(auditLog.action, 'return')))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row?.key ?? null;
}

/** Customers by document: the return leg's sender is the original recipient's customer record when there is one. */
export async function customerByDoc(tx: Tx, docNumber: string): Promise<number | null> {
  const [c] = await tx.select({ id: customers.id }).from(customers).where(eq(customers.docNumber, docNumber)).limit(1);
  return c?.id ?? null;
}
