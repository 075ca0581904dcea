import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { runInBackground } from '../../lib/background.ts';
import type { App } from '../../types.ts';

/**
 * document_search_recent (migration 0108) holds the customers of the documents issued in the last
 * 400 days: its trigger adds what is issued inside them, this prune takes out what fell out of them.
 * The customer filter reads its last 365 days (register.ts), so a late prune only leaves rows nobody reads.
 */
export async function pruneDocumentSearch(db: Db): Promise<number> {
  const result = await db.execute(sql`delete from document_search_recent where issue_date < current_date - 400`);
  return result.rowCount ?? 0;
}

/** The prune, hourly while the app runs (every process tries; a delete twice deletes nothing more). */
export function pruneDocumentSearchInBackground(app: App, everyMs = 3_600_000) {
  runInBackground(app, everyMs, () => pruneDocumentSearch(app.db), 'No se pudo depurar el índice de búsqueda de clientes de comprobantes');
}
