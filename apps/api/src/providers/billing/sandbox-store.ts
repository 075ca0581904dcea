import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sandboxDocuments } from '../../db/schema.ts';
import type { SandboxRecord, SandboxStore } from './sandbox.ts';

/** The sandbox keeps what SUNAT would keep in a table, so it survives restarts and is shared by every process. */
export function databaseSandboxStore(db: Db): SandboxStore {
  return {
    async get(key) {
      const [row] = await db.select().from(sandboxDocuments).where(eq(sandboxDocuments.key, key));
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
