import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import {
  ACTIVE_STATUSES,
  FINAL_STATUSES,
  limaDayEnd,
  limaDayStart,
  normalizeShipmentCode,
  scopeOf,
  type ShipmentFilters,
  type ShipmentStatus,
} from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import { shipmentSearchRecent, shipments } from '../../db/schema.ts';
import { branchScopeCondition } from '../../lib/branch-scope.ts';
import { countUpTo as countRowsUpTo, cursorOf, keysetPage, type KeysetOrder, type KeysetRequest } from '../../lib/keyset.ts';
import { selectWithFixedHead } from '../../lib/statements.ts';
import type { SessionUser } from '../../types.ts';
import { withinRecentSearch } from './recent-search.ts';
import { destinationBranch, originBranch, rowColumns, selectRows, type ShipmentRow } from './rows.ts';

/** DESIGN.md section 4: admins see every branch; agents and couriers what leaves or reaches theirs. */
export function branchScope(actor: SessionUser): SQL | undefined {
  return branchScopeCondition(scopeOf(actor), shipments.originBranchId, shipments.destinationBranchId);
}

/** The same folding as shipment_search_words()'s translate(): 'María Peña' → 'maria pena'. */
const foldAccents = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

/** A typed term's words as shipment_search_words() splits a name: lower-cased, accents folded. */
const termWords = (term: string) =>
  foldAccents(term.toLowerCase())
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Beginnings longer than this are indexed by their first letters only (migration 0016). */
const MAX_PREFIX = 20;

/**
 * The search tokens of a typed name (see shipment_search_words(), migration 0016): each word whole,
 * and the last one as the beginning of a word, as it is being typed: 'María  Quis' → maria, p:quis.
 * Every token is one exact entry of the index and of its statistics, so a common surname walks the
 * newest rows and a rare one reads a few index entries. Null when no word is left.
 */
export function nameTokens(term: string): string[] | null {
  const words = termWords(term);
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

/**
 * The token of a name of two words with its last word taken whole, not as a beginning: their pair
 * ('maria quispe' → maria+quispe). Every name it matches, the typed term matches too (a whole word
 * holds its beginnings), and a pair's list is short where the typed term intersects two long ones
 * (maria, p:quispe: ten years of each). Null for one word, a code or a document, and for three words
 * or more: their typed term already holds a pair (nameTokens), a short list, so counting a narrower
 * search first would only be one more statement, reading the same rows (issue 37, countUpToInWindows).
 */
function wholeWordPair(term: string): string[] | null {
  const words = [...new Set(termWords(term))].sort();
  return words.length === 2 ? [`${words[0]}+${words[1]}`] : null;
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

/** filterConditions but the text search: what a windowed search adds to each window's own (see searchWindows). */
export const textFreeConditions = (filters: ShipmentFilters): SQL[] => filterConditions({ ...filters, q: undefined });

/**
 * How far back each window of a name search reaches, in days before its newest end; after the last,
 * the rest. Few windows: each is one more statement for a rare name, which reads every one.
 */
const SEARCH_WINDOW_DAYS = [30, 365] as const;

/** A window of creation instants [from, to) (null: open), reaching `days` back from the search's newest end (Infinity: all the rest). */
export interface SearchWindow {
  from: Date | null;
  to: Date | null;
  days: number;
  /** Whether it reads the names from shipment_search_recent (a year of names, whatever the history). */
  recent?: boolean;
  /**
   * The text search as this window reads it: through shipment_search_recent for a recent window
   * (recentNames), else textSearch. Callers leave it out of their own conditions.
   */
  text?: SQL | undefined;
  /** The text search over every instant (textSearch): for a read of the whole range at once. */
  whole?: SQL | undefined;
  /**
   * A narrower search than `text` for a window of the whole history's index: a name of two words with
   * its last word taken whole (wholeWordPair). A capped count that finds enough of those needs no more.
   */
  narrower?: SQL | undefined;
}

/**
 * A text search's windows of creation instants, newest first, that together hold every instant
 * once: the first has no upper bound, the last no lower one, and none starts before the range's
 * first day (the search's own conditions keep the range). A search reads them in order and stops
 * once it has what it shows (a page, a capped count), so a common name costs the newest rows it
 * shows, not its matches over ten years of history (issue 37). Each window carries the search's
 * condition (`text`), which the caller's conditions then leave out (textFreeConditions).
 */
export function searchWindows(
  range: { q?: string | undefined; dateFrom?: string | undefined; dateTo?: string | undefined },
  now: Date,
  sides: { sender: boolean } = { sender: true },
): SearchWindow[] {
  const plain = range.q ? textSearch(range.q, sides) : undefined;
  const all = [{ from: null, to: null, days: Infinity, text: plain, whole: plain }];
  // A code or a document is one walk of its own index, a few rows: windows would only add statements.
  const term = range.q?.trim().toLowerCase() ?? '';
  if (normalizeShipmentCode(term) || /^\d+$/.test(term)) return all;
  const tokens = nameTokens(term);
  const names = tokens ? tokensQuery(tokens, sides) : undefined;
  const pair = wholeWordPair(term);
  const narrower = pair ? sql`${shipments.searchWords} @@ ${tokensQuery(pair, sides)}::tsquery` : undefined;
  // The newest end is the range's last day or now, whichever is earlier (a later one holds nothing yet).
  const end = range.dateTo && range.dateTo < '9999-12-31' ? Math.min(limaDayEnd(range.dateTo).getTime(), now.getTime()) : now.getTime();
  const floor = range.dateFrom ? limaDayStart(range.dateFrom).getTime() : -Infinity;
  const windows: SearchWindow[] = [];
  let upper: Date | null = null;
  for (const days of SEARCH_WINDOW_DAYS) {
    const lower = new Date(end - days * 86_400_000);
    if (lower.getTime() <= floor) break;
    const recent = names !== undefined && withinRecentSearch(lower);
    windows.push({ from: lower, to: upper, days, recent, ...windowText(recent, names, lower, upper, plain, narrower, windows.length > 0) });
    upper = lower;
  }
  // The last window reaches the range's first day, or the beginning: a range that starts inside
  // the recent year (the Panel's month) reads it from shipment_search_recent too.
  const first = floor > -Infinity ? new Date(floor) : null;
  const recent = names !== undefined && withinRecentSearch(first);
  windows.push({ from: first, to: upper, days: Infinity, recent, ...windowText(recent, names, first, upper, plain, narrower, windows.length > 0) });
  return windows;
}

/** A window's text conditions: a recent one reads shipment_search_recent, another the whole history's index. */
function windowText(
  recent: boolean,
  names: string | undefined,
  from: Date | null,
  to: Date | null,
  plain: SQL | undefined,
  narrower: SQL | undefined,
  later: boolean,
) {
  return recent ? { text: recentNames(names!, from!, to, later), whole: plain } : { text: plain, whole: plain, narrower };
}

/**
 * A recent window's names: the shipments whose names match in shipment_search_recent, whose index
 * holds a year of names, fetched by id, instead of the whole history's lists in
 * shipments_search_words (whose condition must then not be asked as well: PostgreSQL would read both).
 */
const recentNames = (names: string, from: Date, to: Date | null, later: boolean) => {
  const matches = sql`select ${shipmentSearchRecent.shipmentId} from ${shipmentSearchRecent}
    where ${shipmentSearchRecent.searchWords} @@ ${names}::tsquery and ${shipmentSearchRecent.createdAt} >= ${from}${
      to ? sql` and ${shipmentSearchRecent.createdAt} < ${to}` : sql``
    }`;
  // A window after the newest is read only when the newer ones held too few matches (eachWindow), so
  // its matches are few too: they are all taken from the names' index first, then ordered. Left to
  // itself, PostgreSQL may take the order's index instead, reckoning on a match every few hundred
  // rows: for a name of 160 matches in the year, three parallel workers walked 257,000 shipments
  // for the first (430 ms; 3 ms this way, issue 37). The array is computed once, before the rest.
  return later ? sql`${shipments.id} = any(array(${matches}))` : sql`${shipments.id} in (${matches})`;
};

/** A window as conditions: its creation instants and its text search (undefined: all of it). */
const windowCondition = (w: SearchWindow, text = w.text) =>
  and(w.from ? gte(shipments.createdAt, w.from) : undefined, w.to ? lt(shipments.createdAt, w.to) : undefined, text);

/** A window's conditions with its narrower search, if it has one. */
const narrowerCondition = (w: SearchWindow) => (w.narrower ? windowCondition(w, w.narrower) : undefined);

/** What eachWindow gives its reader: a window's conditions, how many are still needed, and its narrower conditions. */
type WindowRead = (window: SQL | undefined, left: number, narrower: SQL | undefined) => Promise<number>;

/**
 * Reads the windows newest first until `need` matches are found: `read` gets a window's condition
 * and how many are still needed, and answers how many it found there. When the pace so far says
 * the next window would not complete the answer (a rarer name), all the rest is read in one
 * statement instead: a window over the whole history's index only pays when it can end the search.
 */
export async function eachWindow(windows: SearchWindow[], need: number, read: WindowRead) {
  let found = 0;
  for (let i = 0; i < windows.length; i++) {
    const window = windows[i]!;
    found += await read(windowCondition(window), need - found, narrowerCondition(window));
    if (found >= need) return;
    const next = windows[i + 1];
    // A recent window reads a year of names (shipment_search_recent) whatever the pace: never merged into the rest.
    if (next && !next.recent && windows[i + 2] && found * (next.days / window.days) < need) {
      const rest: SearchWindow = { from: null, to: next.to, days: Infinity, text: next.whole, narrower: next.narrower };
      await read(windowCondition(rest), need - found, narrowerCondition(rest));
      return;
    }
  }
}

/** Rows read window by window, newest first, until `need` of them are found (see eachWindow). */
async function newestFirst<T>(windows: SearchWindow[], need: number, read: (window: SQL | undefined, need: number) => Promise<T[]>) {
  const found: T[] = [];
  await eachWindow(windows, need, async (window, left) => {
    const rows = await read(window, left);
    found.push(...rows);
    return rows.length;
  });
  return found;
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

/**
 * One page of the list, newest first: by number or next to a cursor (lib/keyset.ts). With a text
 * search's `windows`, the first page and 'Siguiente' read them newest first and stop when the page
 * is full; a numbered page further down and 'Anterior' read as one query.
 */
export async function listPage(db: Db, where: SQL | undefined, request: PageRequest, windows?: SearchWindow[]) {
  return keysetPage(listOrder, request, ({ seek, orderBy, limit, offset }) => {
    // As drizzle writes it (no `offset 0`): the same text, the same plan.
    const read = (window: SQL | undefined, rows: number) => {
      const conditions = and(where, seek, window);
      return selectListRows(
        db,
        sql`${conditions ? sql`where ${conditions} ` : sql``}order by ${orderBy} limit ${rows}${offset ? sql` offset ${offset}` : sql``}`,
      );
    };
    if (!windows) return read(undefined, limit);
    // A numbered page further down and 'Anterior' read the whole history at once.
    return offset === 0 && !request.before ? newestFirst(windows, limit, read) : read(windows[0]!.whole, limit);
  });
}

/**
 * How many shipments match, counting no further than `cap` (the total is then "more than cap"):
 * for a text search, whose matches no maintained counter knows.
 */
export const countUpTo = (db: Db, where: SQL | undefined, cap: number) => countRowsUpTo(db, shipments, where, cap);

/**
 * countUpTo for a text search, window by window newest first (see searchWindows): a common name
 * stops in the newest. In a window of the whole history's index, a name of two words counts its
 * pairs first ('maria+quispe', a short list): when they alone reach what is left, so does the name,
 * and its two long lists ('maria', 'p:quispe': ten years of each) are never intersected.
 */
export async function countUpToInWindows(db: Db, where: SQL | undefined, cap: number, windows: SearchWindow[]) {
  let found = 0;
  await eachWindow(windows, cap + 1, async (window, left, narrower) => {
    const enough = narrower ? (await countRowsUpTo(db, shipments, and(where, narrower), left)).total : 0;
    if (enough >= left) {
      found += left;
      return left;
    }
    const { total } = await countRowsUpTo(db, shipments, and(where, window), left);
    found += total;
    return total;
  });
  return { total: Math.min(found, cap), totalCapped: found > cap };
}

/** The rows' select up to its conditions, rendered once (lib/statements.ts). */
const selectSearchRows = selectWithFixedHead<ShipmentRow>(rowColumns, selectRows);

/** Tracking: a term, narrowed by route and status; nothing without one of them. */
export async function searchRows(
  db: Db,
  query: { q?: string | undefined; originId?: number | undefined; destinationId?: number | undefined; status?: ShipmentStatus | undefined },
  limit: number,
  now: Date,
) {
  const where: SQL[] = [];
  if (query.originId) where.push(eq(shipments.originBranchId, query.originId));
  if (query.destinationId) where.push(eq(shipments.destinationBranchId, query.destinationId));
  if (query.status) where.push(eq(shipments.status, query.status));
  if (where.length === 0 && !query.q) return [];
  // A term reads newest first, window by window, until the answer is full (see searchWindows); each
  // window carries the term's condition. Tracking and Entregas find by the recipient (spec: code,
  // recipient document or name), never the sender.
  return newestFirst(searchWindows({ q: query.q }, now, { sender: false }), limit, (window, rows) =>
    selectSearchRows(db, sql`where ${and(...where, window)} order by ${desc(shipments.createdAt)}, ${desc(shipments.id)} limit ${rows}`),
  );
}
