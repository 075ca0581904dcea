import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { limaDayEnd, limaDayStart, type Scope } from '@tramo/domain';
import type { Db } from '../../../db/client.ts';
import { customers, shipments } from '../../../db/schema.ts';
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

export async function receivables(db: Db, scope: Scope, q: string | undefined) {
  const term = q?.trim();
  const rows = await db.execute(sql`
    with open as (
      select coalesce('c' || s.sender_customer_id::text, 'n:' || lower(s.sender_name)) as key,
        s.sender_customer_id,
        coalesce(nullif(trim(c.first_name || ' ' || coalesce(c.last_name, '')), ''), s.sender_name) as name,
        c.doc_number, s.quoted_price, s.created_at
      from shipments s
      left join customers c on c.id = s.sender_customer_id
      where s.status <> 'Anulado'
        -- Pago en destino is the recipient's (or a third party's) to pay at the destination: its own balance below.
        and s.payment_moment <> 'destino'
        and not exists (select 1 from payments p where p.shipment_id = s.id and p.status = 'paid')
        and ${branchScopeCondition(scope, s.originBranchId) ?? sql`true`}
    )
    select key, max(sender_customer_id) as customer_id, min(name) as name, min(doc_number) as doc_number,
      count(*)::int as shipments_count, sum(quoted_price)::text as open_amount, max(created_at) as last_shipment_at
    from open
    ${term ? sql`where name ilike ${containsPattern(term)} or doc_number like ${escapeLike(term) + '%'}` : sql``}
    group by key
    order by sum(quoted_price) desc, min(name)
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
 * agency). Agents: their branch as destination.
 */
export async function destinationReceivables(db: Db, scope: Scope) {
  const rows = await db.execute(sql`
    select s.destination_branch_id as branch_id, b.name as branch_name,
      count(*)::int as n, coalesce(sum(s.quoted_price), 0)::text as open_amount,
      (count(*) filter (where s.status = 'En agencia'))::int as waiting_n,
      coalesce(sum(s.quoted_price) filter (where s.status = 'En agencia'), 0)::text as waiting_amount,
      (count(*) filter (where s.status in ('En agencia', 'En tránsito')))::int as due_n,
      coalesce(sum(s.quoted_price) filter (where s.status in ('En agencia', 'En tránsito')), 0)::text as due_amount
    from shipments s
    join branches b on b.id = s.destination_branch_id
    where s.payment_moment = 'destino' and s.status in ('Creado', 'En tránsito', 'En agencia')
      and not exists (select 1 from payments p where p.shipment_id = s.id and p.status = 'paid')
      and ${branchScopeCondition(scope, s.destinationBranchId) ?? sql`true`}
    group by s.destination_branch_id, b.name
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
