import type { Db, Tx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { insertReturning } from './statements.ts';

export interface AuditEntry {
  userId: number | null;
  entity: string;
  entityId: string | number;
  action: string;
  before?: unknown;
  after?: unknown;
}

/** Call inside the transaction of the change it records, so the audit row and the change land together. */
export async function audit(tx: Tx | Db, entry: AuditEntry): Promise<void> {
  await insertReturning(
    tx,
    'insert_audit',
    auditLog,
    {
      userId: entry.userId,
      entity: entry.entity,
      entityId: String(entry.entityId),
      action: entry.action,
      before: entry.before ?? null,
      after: entry.after ?? null,
    },
    { id: auditLog.id },
  );
}
