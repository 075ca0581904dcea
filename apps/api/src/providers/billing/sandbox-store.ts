import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sandboxDocuments } from '../../db/schema.ts';
import { preparedQuery } from '../../lib/statements.ts';
import type { SandboxRecord, SandboxStore } from './sandbox.ts';

// Asked before every document the sandbox takes (a retry finds its first answer): built once, run prepared.
const recordByKey = preparedQuery<{ record: unknown }>('sandbox_record_by_key', { record: sandboxDocuments.record }, (db) =>
  db
    .select({ record: sandboxDocuments.record })
    .from(sandboxDocuments)
    .where(eq(sandboxDocuments.key, sql.placeholder('key'))),
);

/** The sandbox keeps what SUNAT would keep in a table, so it survives restarts and is shared by every process. */
export function databaseSandboxStore(db: Db): SandboxStore {
  return {
    async get(key) {
      const [row] = await recordByKey(db, { key });
      return row ? (row.record as SandboxRecord) : null;
    },
    async put(record) {
      await db.insert(sandboxDocuments).values({ key: record.key, record }).onConflictDoUpdate({ target: sandboxDocuments.key, set: { record } });
    },
    async claim(key) {
      // The primary key decides between two processes claiming the same RA/RC correlative.
      const taken = await db
        .insert(sandboxDocuments)
        .values({ key, record: { claimed: true } })
        .onConflictDoNothing({ target: sandboxDocuments.key })
        .returning({ key: sandboxDocuments.key });
      return taken.length === 1;
    },
  };
}
