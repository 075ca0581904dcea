import { sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { limaDayEnd, limaDayStart, type PaymentMethod, type PaymentStatus, type Scope } from '@tramo/domain';
import type { Db } from '../../../db/client.ts';
import { payments } from '../../../db/schema.ts';
import { branchScopeCondition } from '../../../lib/branch-scope.ts';

/** The payments table as the raw query below names it (`p`), so the scope's condition names it alike. */
const p = alias(payments, 'p');

export async function dailyRows(db: Db, day: string, scope: Scope) {
  const where = sql`p.created_at >= ${limaDayStart(day)} and p.created_at < ${limaDayEnd(day)}
    and ${branchScopeCondition(scope, p.branchId) ?? sql`true`}`;
  const rows = await db.execute(sql`
    select p.branch_id, b.name as branch_name, p.user_id, min(p.user_name) as user_name, p.method, p.status,
      count(*)::int as n, sum(p.amount_cents)::bigint::text as cents
    from payments p left join branches b on b.id = p.branch_id
    where ${where} and p.status in ('paid', 'canceled')
    group by p.branch_id, b.name, p.user_id, p.method, p.status
    order by b.name, min(p.user_name), p.method`);
  return rows.rows as {
    branch_id: number | null;
    branch_name: string | null;
    user_id: number;
    user_name: string;
    method: PaymentMethod;
    status: PaymentStatus;
    n: number;
    cents: string;
  }[];
}
