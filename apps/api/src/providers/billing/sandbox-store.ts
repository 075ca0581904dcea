import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sandboxDocuments } from '../../db/schema.ts';
import { preparedQuery, preparedSql } from '../../lib/statements.ts';
import type { SandboxRecord, SandboxStore } from './sandbox.ts';

// Asked by every consult, void and note (its modified document): built once, run prepared.
const recordByKey = preparedQuery<{ record: unknown }>('sandbox_record_by_key', { record: sandboxDocuments.record }, (db) =>
  db
    .select({ record: sandboxDocuments.record })
    .from(sandboxDocuments)
    .where(eq(sandboxDocuments.key, sql.placeholder('key'))),
);

// The insert and, when the key is taken, the record it holds, in one round trip (every document
// the sandbox receives comes here). One row always: `record` is what the key held before (null when
// it held nothing), as of the statement's snapshot.
const key = sql.placeholder('key');
const addRecord = preparedSql<{ added: boolean; record: unknown }>(
  'sandbox_add_record',
  { added: sql<boolean>`added`, record: sandboxDocuments.record },
  sql`with added as (
        insert into ${sandboxDocuments} (key, record) values (${key}, ${sql.placeholder('record')}::jsonb)
        on conflict (key) do nothing returning key
      )
      select exists (select 1 from added) as added,
        (select ${sandboxDocuments.record} from ${sandboxDocuments} where ${sandboxDocuments.key} = ${key}) as record`,
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
    async add(record) {
      const [row] = await addRecord(db, { key: record.key, record: JSON.stringify(record) });
      if (row!.added) return null;
      // Taken by a concurrent request that committed after this statement's snapshot: read again.
      return (row!.record as SandboxRecord | null) ?? (await this.get(record.key))!;
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
