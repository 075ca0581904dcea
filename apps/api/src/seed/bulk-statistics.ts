import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * ANALYZE of the tables a bulk load grows, at its 1st, 2nd, 4th, 8th… step (so a few times in all,
 * whatever the history's length). The triggers' functions keep their plans for the connection's
 * life, made from the statistics of the moment: a plan made when payments was empty reads the whole
 * table on every later month (a hash anti-join where an index probe would do), and a ten-year load
 * took minutes per year. An ANALYZE invalidates those plans, and the next call plans for the table
 * as it is. In service autovacuum does this as tables grow; a bulk load outruns it.
 */
export async function analyzeAsTablesGrow(db: Db, step: number, tables: readonly string[]): Promise<void> {
  if (step < 1 || (step & (step - 1)) !== 0) return;
  await db.execute(sql.raw(`analyze ${tables.join(', ')}`));
}
