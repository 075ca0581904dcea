import { LEDGER_CHECK_TEXTS, LEDGER_CHECKS, type LedgerCheckResult, type Reconciliation } from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import { CHECKS, violationsOf } from './repository.ts';

/**
 * Runs every ledger check over the whole database (read only). The checks run one after the other:
 * each is a full pass over its tables, and side by side they would only compete for the same disk.
 */
export async function reconcile(db: Db, now: Date): Promise<Reconciliation> {
  const checks: LedgerCheckResult[] = [];
  for (const check of LEDGER_CHECKS) {
    const rows = await violationsOf(db, check);
    checks.push({
      check,
      ...LEDGER_CHECK_TEXTS[check],
      count: rows.length ? Number(rows[0]!.total) : 0,
      violations: rows.map((r) => ({ table: CHECKS[check].table, id: String(r.id), code: r.code, values: r.vals })),
    });
  }
  const violations = checks.reduce((sum, c) => sum + c.count, 0);
  return { checkedAt: now.toISOString(), ok: violations === 0, violations, checks };
}
