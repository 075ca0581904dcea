import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { runInBackground } from '../../lib/background.ts';
import type { App } from '../../types.ts';

/**
 * shipment_search_recent (migration 0107) holds the names of the shipments of the last 400 days: its
 * trigger adds what is created inside them, this prune takes out what fell out of them. A search
 * window reads it only when it starts inside the last RECENT_SEARCH_READ_DAYS, by the real clock
 * (the database's, as the trigger's): the 5 days between them absorb a late prune or a clock apart.
 */
export const RECENT_SEARCH_READ_DAYS = 395;
const KEEP = sql.raw(`interval '400 days'`);

/** Deletes the rows older than 400 days: a day's worth when it runs daily, a few index pages. */
export async function pruneRecentSearch(db: Db): Promise<number> {
  const result = await db.execute(sql`delete from shipment_search_recent where created_at < now() - ${KEEP}`);
  return result.rowCount ?? 0;
}

/** Whether a window starting at `from` lies inside what shipment_search_recent is sure to hold. */
export const withinRecentSearch = (from: Date | null): from is Date =>
  from !== null && from.getTime() >= Date.now() - RECENT_SEARCH_READ_DAYS * 86_400_000;

/** The prune, hourly while the app runs (every process tries; a delete twice deletes nothing more). */
export function pruneRecentSearchInBackground(app: App, everyMs = 3_600_000) {
  runInBackground(app, everyMs, () => pruneRecentSearch(app.db), 'No se pudo depurar el índice de búsqueda reciente');
}
