import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { limaDayEnd, limaDayStart, type Scope } from '@tramo/domain';
import type { Db } from '../../../db/client.ts';
import { customers, receivableCustomerBalances, receivableDestinationBalances, shipments } from '../../../db/schema.ts';
import { containsPattern, escapeLike } from '../../../lib/sql.ts';
import { branchScopeCondition } from '../../../lib/branch-scope.ts';

/** The shipments table as the raw queries below name it (`s`), so the scope's condition names it alike. */
const s = alias(shipments, 's');

/**
 * The counter's list to collect. At origin: today's 'Creado' shipments paid at origin. At
 * destination ('Por cobrar en destino', issue 33): pago en destino shipments waiting at the branch
 * or on their way to it, not yet paid (shipments_destination_collect_idx).
 */
export async function shipmentsToCollect(db: Db, scope: Scope, day: string, page: number, pageSize: number, at: 'origin' | 'destination' = 'origin') {
  const where =
    at === 'origin'
      ? sql`s.status = 'Creado' and s.created_at >= ${limaDayStart(day)} and s.created_at < ${limaDayEnd(day)} and s.payment_moment = 'origen'
    and ${branchScopeCondition(scope, s.originBranchId) ?? sql`true`}`
      : sql`s.payment_moment = 'destino' and s.status in ('En agencia', 'En tránsito')
    and not exists (select 1 from payments pp where pp.shipment_id = s.id and pp.status = 'paid')
    and ${branchScopeCondition(scope, s.destinationBranchId) ?? sql`true`}`;
  const [rows, count] = await Promise.all([
    db.execute(sql`
      select s.id, s.code, s.status, s.sender_name, s.sender_customer_id, c.doc_type as sender_doc_type, c.doc_number as sender_doc,
        s.recipient_name, s.recipient_doc, s.origin_branch_id, s.destination_branch_id, o.name as origin_name, d.name as destination_name,
        s.created_at, s.quoted_price::text as quoted_price, s.quoted_currency, s.weight_kg::text as weight_kg, s.product_type, s.description,
        s.payer, s.payment_moment, s.payer_doc_type, s.payer_doc_number, s.payer_name,
        p.id as payment_id, p.status as payment_status
      from shipments s
      join branches o on o.id = s.origin_branch_id
      join branches d on d.id = s.destination_branch_id
      left join customers c on c.id = s.sender_customer_id
      left join payments p on p.shipment_id = s.id and p.status in ('pending', 'paid')
      where ${where}
      order by ${at === 'origin' ? sql`s.created_at desc, s.id desc` : sql`s.status, s.created_at, s.id`}
      limit ${pageSize} offset ${(page - 1) * pageSize}`),
    db.execute(sql`select count(*)::int as n from shipments s where ${where}`),
  ]);
  return { rows: rows.rows as Record<string, unknown>[], total: Number((count.rows[0] as { n: number }).n) };
}

export async function searchCustomers(db: Db, q: string | undefined) {
  const term = q?.trim();
  const where = term
    ? sql`${customers.docNumber} like ${escapeLike(term) + '%'} or (coalesce(${customers.firstName}, '') || ' ' || coalesce(${customers.lastName}, '')) ilike ${containsPattern(term)}`
    : undefined;
  return db.select().from(customers).where(where).orderBy(customers.firstName, customers.id).limit(20);
}

export async function findCustomer(db: Db, id: number) {
  const [row] = await db.select().from(customers).where(eq(customers.id, id));
  return row ?? null;
}

/**
 * Cuentas por cobrar: the maintained balances (receivable_customer_balances, migration 0089), one
 * row per customer key, origin branch and sender name as typed, summed per key. As the scan of the
 * shipments it replaced: the name is the customer's, else the smallest sender name; a search
 * filters the rows before they are summed.
 */
export async function receivables(db: Db, scope: Scope, q: string | undefined) {
  const term = q?.trim();
  const b = receivableCustomerBalances;
  const rows = await db.execute(sql`
    with open as (
      select ${b.customerKey} as key, ${b.customerId} as customer_id,
        coalesce(nullif(trim(c.first_name || ' ' || coalesce(c.last_name, '')), ''), ${b.senderName}) as name,
        c.doc_number, ${b.n} as n, ${b.amount} as amount, ${b.lastShipmentAt} as last_shipment_at
      from ${b}
      left join customers c on c.id = ${b.customerId}
      where ${b.n} > 0 and ${branchScopeCondition(scope, b.originBranchId) ?? sql`true`}
    )
    select key, max(customer_id) as customer_id, min(name) as name, min(doc_number) as doc_number,
      sum(n)::int as shipments_count, sum(amount)::text as open_amount, max(last_shipment_at) as last_shipment_at
    from open
    ${term ? sql`where name ilike ${containsPattern(term)} or doc_number like ${escapeLike(term) + '%'}` : sql``}
    group by key
    order by sum(amount) desc, min(name)
    limit 500`);
  return rows.rows as {
    key: string;
    customer_id: number | null;
    name: string;
    doc_number: string | null;
    shipments_count: number;
    open_amount: string;
    last_shipment_at: Date | string;
  }[];
}

/**
 * 'Por cobrar en destino' per destination branch (issue 33): live pago en destino shipments bound
 * there with no paid payment, split by where they are (registered, on the road, waiting at the
 * agency), read from their maintained balances (migration 0089). Agents: their branch as destination.
 */
export async function destinationReceivables(db: Db, scope: Scope) {
  const d = receivableDestinationBalances;
  const rows = await db.execute(sql`
    select ${d.destinationBranchId} as branch_id, b.name as branch_name,
      sum(${d.n})::int as n, coalesce(sum(${d.amount}), 0)::text as open_amount,
      coalesce(sum(${d.n}) filter (where ${d.status} = 'En agencia'), 0)::int as waiting_n,
      coalesce(sum(${d.amount}) filter (where ${d.status} = 'En agencia'), 0)::text as waiting_amount,
      coalesce(sum(${d.n}) filter (where ${d.status} in ('En agencia', 'En tránsito')), 0)::int as due_n,
      coalesce(sum(${d.amount}) filter (where ${d.status} in ('En agencia', 'En tránsito')), 0)::text as due_amount
    from ${d}
    join branches b on b.id = ${d.destinationBranchId}
    where ${d.n} > 0 and ${branchScopeCondition(scope, d.destinationBranchId) ?? sql`true`}
    group by ${d.destinationBranchId}, b.name
    order by b.name`);
  return rows.rows as {
    branch_id: number;
    branch_name: string;
    n: number;
    open_amount: string;
    waiting_n: number;
    waiting_amount: string;
    due_n: number;
    due_amount: string;
  }[];
}
