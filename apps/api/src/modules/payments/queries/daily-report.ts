import { sql } from 'drizzle-orm';
import { limaDayEnd, limaDayStart, type PaymentMethod } from '@tramo/domain';
import type { Db } from '../../../db/client.ts';
import type { Scope } from './scope.ts';

export async function dailyRows(db: Db, day: string, scope: Scope) {
  const where = sql`p.created_at >= ${limaDayStart(day)} and p.created_at < ${limaDayEnd(day)}
    ${scope === 'all' ? sql`` : scope === null ? sql`and false` : sql`and p.branch_id = ${scope}`}`;
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
    status: string;
    n: number;
    cents: string;
  }[];
}
