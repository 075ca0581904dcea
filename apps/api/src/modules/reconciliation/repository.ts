import { sql, type SQL } from 'drizzle-orm';
import { LEDGER_VIOLATIONS_SHOWN, type LedgerCheck } from '@tramo/domain';
import type { Db } from '../../db/client.ts';

/** A violation as its query answers it: the record's id and code, the values that disagree, and how many there are in all. */
export interface ViolationRow {
  id: string | number;
  code: string | null;
  vals: Record<string, string | number | boolean | null>;
  total: string | number;
}

/** A family of counters: their key columns, their amounts, and how a violation names them. */
interface CounterFamily {
  key: string;
  amounts: string[];
  /** The key column a violation answers as its code. */
  code: string;
  /** The violation's values: the kept count and total against those of the records (céntimos). */
  vals: (kept: string, want: string) => string;
  /** The counter tables' prefix: `<prefix>_daily_totals`, `_monthly_totals`, `_all_time_totals`. */
  tables: string;
  /** The daily table's date column. */
  day: string;
  /** The records added up per day and key, as the daily table keeps them. */
  byDay: string;
}

/** The documents' counters (document_daily_totals and its siblings). */
const DOCUMENT_COUNTERS: CounterFamily = {
  key: 'branch_id, type, series, status, currency',
  amounts: ['n', 'gravada', 'exonerada', 'inafecta', 'igv', 'total'],
  code: 'series',
  vals: (k, w) =>
    `'keptDocuments', coalesce(${k}.n, 0), 'documents', coalesce(${w}.n, 0), ` +
    `'keptTotalCents', coalesce(round(${k}.total * 100), 0)::bigint, 'totalCents', coalesce(round(${w}.total * 100), 0)::bigint`,
  tables: 'document',
  day: 'issue_date',
  byDay: `select issue_date, coalesce(branch_id, 0) as branch_id, type, series, status, currency, count(*) as n,
      sum(gravada) as gravada, sum(exonerada) as exonerada, sum(inafecta) as inafecta, sum(igv) as igv, sum(total) as total
    from documents group by 1, 2, 3, 4, 5, 6`,
};

/** The payments' counters (payment_daily_totals and its siblings), in céntimos already. */
const PAYMENT_COUNTERS: CounterFamily = {
  key: 'branch_id, user_id, method, status',
  amounts: ['n', 'cents'],
  code: 'method',
  vals: (k, w) =>
    `'keptPayments', coalesce(${k}.n, 0), 'payments', coalesce(${w}.n, 0), 'keptCents', coalesce(${k}.cents, 0), 'cents', coalesce(${w}.cents, 0)`,
  tables: 'payment',
  // A payment's day is its Lima calendar day (UTC-5), as the counters' trigger takes it.
  day: 'day',
  byDay: `select ((created_at at time zone 'UTC') - interval '5 hours')::date as day, coalesce(branch_id, 0) as branch_id, user_id, method, status,
      count(*) as n, sum(amount_cents) as cents
    from payments group by 1, 2, 3, 4, 5`,
};

/**
 * The keys of one level of a family of counters (`period`: its date column, null over all time)
 * whose row differs from the records of `by_day` added up to that level (`periodOf`: the period of
 * a day). A missing row is zero, and a row of zeros is no row.
 */
function countersOff(family: CounterFamily, level: string, table: string, period: string | null, periodOf: string | null): SQL {
  const keyColumns = family.key.split(', ');
  const keys = sql.raw(period ? `${period}, ${family.key}` : family.key);
  const groupBy = Array.from({ length: keyColumns.length + (period ? 1 : 0) }, (_, i) => i + 1).join(', ');
  const want = sql.raw(
    `select ${periodOf ? `${periodOf} as ${period}, ` : ''}${family.key}, ${family.amounts.map((a) => `sum(${a}) as ${a}`).join(', ')}
     from by_day group by ${groupBy}`,
  );
  const differs = sql.raw(family.amounts.map((a) => `coalesce(k.${a}, 0) <> coalesce(w.${a}, 0)`).join(' or '));
  return sql`
    select ${sql.raw(`'${level}'`)} || ' ' || concat_ws(' / ', ${keys}) as id, ${sql.raw(family.code)}::text as code,
      jsonb_build_object(${sql.raw(family.vals('k', 'w'))}) as vals
    from ${sql.raw(table)} k full join (${want}) w using (${keys})
    where ${differs}`;
}

/**
 * Every key of a family's three levels (day, month, all time) whose counter row differs from its
 * records added up to that level: the records are added up per day once, and each level from that.
 */
function countersCheck(family: CounterFamily): SQL {
  const levels = [
    countersOff(family, 'día', `${family.tables}_daily_totals`, family.day, family.day),
    countersOff(family, 'mes', `${family.tables}_monthly_totals`, 'month', `date_trunc('month', ${family.day})::date`),
    countersOff(family, 'histórico', `${family.tables}_all_time_totals`, null, null),
  ];
  return sql`
    with by_day as materialized (${sql.raw(family.byDay)}), diff as (${sql.join(levels, sql` union all `)})
    select id, code, vals, count(*) over () as total from diff`;
}

/**
 * Each check is one set-based statement over the whole table (hash joins and aggregates, no loop
 * per record), so it reads a million shipments in about the time of one scan of each table. Every
 * statement answers `id`, `code`, `vals` (jsonb) and `total` (the full count, before the limit).
 */
export const CHECKS: Record<LedgerCheck, { table: string; query: SQL }> = {
  // At most one pending-or-paid payment per shipment (DESIGN.md 5): a second live payment charges
  // the customer twice and issues a second receipt. The partial unique index
  // payments_one_live_per_shipment_uq enforces it; this catches a database where it was missing.
  one_live_payment: {
    table: 'shipments',
    query: sql`
      select s.id, s.code, jsonb_build_object('livePayments', l.n, 'paymentIds', l.ids) as vals, count(*) over () as total
      from (
        select shipment_id, count(*)::int as n, string_agg(id::text, ', ' order by id) as ids
        from payments where status in ('pending', 'paid') group by shipment_id having count(*) > 1
      ) l
      join shipments s on s.id = l.shipment_id`,
  },
  // A paid payment collects exactly what the shipment owes less its audited discount (DESIGN.md 5b):
  // otherwise the receipt, the cash drawer and the receivables tell three different stories.
  paid_equals_price: {
    table: 'payments',
    query: sql`
      select p.id, s.code,
        jsonb_build_object('shipmentId', s.id, 'amountCents', p.amount_cents, 'discountCents', p.discount_cents,
          'priceCents', (s.quoted_price * 100)::bigint) as vals,
        count(*) over () as total
      from payments p join shipments s on s.id = p.shipment_id
      where p.status = 'paid' and p.amount_cents + p.discount_cents <> s.quoted_price * 100`,
  },
  // Every paid payment has its SUNAT receipt and it stands (not voided, not being voided, not
  // rejected): money taken without a valid receipt is an unreported sale.
  paid_has_receipt: {
    table: 'payments',
    query: sql`
      select p.id, s.code,
        jsonb_build_object('shipmentId', s.id, 'documentId', p.document_id,
          'document', case when d.id is null then null else d.series || '-' || lpad(d.number::text, 8, '0') end,
          'documentStatus', d.status) as vals,
        count(*) over () as total
      from payments p
      join shipments s on s.id = p.shipment_id
      left join documents d on d.id = p.document_id
      where p.status = 'paid' and (d.id is null or d.status in ('anulado', 'anulación pendiente', 'rechazado'))`,
  },
  // A session's expected total is its float plus its movements (closingSummary, payments module):
  // the closing compares the counted cash against it. It must equal what the payments say: each
  // payment once paid (paid, or canceled after paying) charged its amount in the session of its
  // charge, and each paid one voided took it back in the session of its reversal (the payment's own
  // session when a movement is missing). A charge of the wrong amount, a lost or extra movement, a
  // charge for a payment never paid: the drawer would be short or over with nobody to blame.
  cash_session_balance: {
    table: 'cash_sessions',
    query: sql`
      with by_movements as (
        select cash_session_id as session_id, sum(amount_cents) as cents from payment_movements group by cash_session_id
      ), owed as (
        select coalesce(c.cash_session_id, p.cash_session_id) as session_id, p.amount_cents as cents
        from payments p left join payment_movements c on c.payment_id = p.id and c.kind = 'cobro'
        where p.paid_at is not null and p.status in ('paid', 'canceled')
        union all
        select coalesce(a.cash_session_id, p.cash_session_id), -p.amount_cents
        from payments p left join payment_movements a on a.payment_id = p.id and a.kind = 'anulacion'
        where p.paid_at is not null and p.status = 'canceled'
      ), by_payments as (
        select session_id, sum(cents) as cents from owed group by session_id
      )
      select cs.id, cs.user_name as code,
        jsonb_build_object('floatCents', cs.float_cents, 'expectedCents', cs.float_cents + coalesce(m.cents, 0),
          'fromPaymentsCents', cs.float_cents + coalesce(bp.cents, 0), 'closed', cs.closed_at is not null) as vals,
        count(*) over () as total
      from cash_sessions cs
      left join by_movements m on m.session_id = cs.id
      left join by_payments bp on bp.session_id = cs.id
      where coalesce(m.cents, 0) <> coalesce(bp.cents, 0)`,
  },
  // A series' documents are numbered 1, 2, … up to its counter in document_series, each once
  // (SUNAT: correlative, no gaps): a gap looks like a hidden sale, a duplicate is two documents
  // under one number. A series with documents and no counter would number from 1 again.
  document_series: {
    table: 'document_series',
    query: sql`
      with numbered as (
        select type, series, count(*)::int as n, count(distinct number)::int as distinct_n, min(number) as min_n, max(number) as max_n
        from documents group by type, series
      )
      select coalesce(ds.type, d.type) || '-' || coalesce(ds.series, d.series) as id, coalesce(ds.series, d.series) as code,
        jsonb_build_object('type', coalesce(ds.type, d.type), 'lastNumber', ds.last_number, 'documents', coalesce(d.n, 0),
          'duplicates', coalesce(d.n - d.distinct_n, 0), 'lowestNumber', d.min_n, 'highestNumber', d.max_n) as vals,
        count(*) over () as total
      from document_series ds
      full join numbered d on d.type = ds.type and d.series = ds.series
      where ds.last_number is null
        or coalesce(d.n, 0) <> ds.last_number
        or coalesce(d.distinct_n, 0) <> ds.last_number
        or coalesce(d.max_n, 0) <> ds.last_number
        or coalesce(d.min_n, 1) <> 1`,
  },
  // The counters Comprobantes adds up instead of its documents (per issue day, per month, over all
  // time: migrations 0021, 0024, 0109, 0113) must each be its documents added up per key: a document
  // written past their triggers, or a counter row changed by hand, shows totals that no list of
  // documents gives.
  document_totals: { table: 'document_totals', query: countersCheck(DOCUMENT_COUNTERS) },
  // The counters Movimientos adds up instead of its payments (per Lima day, per month, over all
  // time: migrations 0021, 0024, 0111, 0113), as Comprobantes' above: a payment written past their
  // triggers, or a counter row changed by hand, shows totals that no list of payments gives.
  payment_totals: { table: 'payment_totals', query: countersCheck(PAYMENT_COUNTERS) },
  // What 'Cuentas por cobrar' answers per customer (GET /api/receivables/customers: the prices of
  // the shipments not Anulado without a paid payment, keyed as there by customer or sender name)
  // must be the customer's prices less what they paid. They part when a paid payment does not cover
  // its shipment, or when a shipment was cancelled after being paid (money the list never shows).
  receivables: {
    table: 'customers',
    query: sql`
      with paid as (
        select shipment_id, sum(amount_cents + discount_cents) as cents from payments where status = 'paid' group by shipment_id
      ), per_customer as (
        select coalesce('c' || s.sender_customer_id::text, 'n:' || lower(s.sender_name)) as key,
          min(coalesce(nullif(trim(c.first_name || ' ' || coalesce(c.last_name, '')), ''), s.sender_name)) as name,
          coalesce(sum(s.quoted_price * 100) filter (where s.status <> 'Anulado' and paid.cents is null), 0) as answered,
          coalesce(sum(s.quoted_price * 100) filter (where s.status <> 'Anulado'), 0) - coalesce(sum(paid.cents), 0) as price_less_paid
        from shipments s
        left join customers c on c.id = s.sender_customer_id
        left join paid on paid.shipment_id = s.id
        group by 1
      )
      select key as id, name as code,
        jsonb_build_object('receivableCents', answered::bigint, 'priceLessPaidCents', price_less_paid::bigint) as vals,
        count(*) over () as total
      from per_customer where answered <> price_less_paid`,
  },
  // The outbox gives each (event, addressee, channel) one message (its idempotency key): a second
  // one sent is the same news twice to a customer, the mark of a worker or a retry gone wrong.
  notification_once: {
    table: 'notification_outbox',
    query: sql`
      select d.id, s.code,
        jsonb_build_object('eventId', d.event_id, 'party', d.party, 'channel', d.channel, 'sent', d.n, 'messageIds', d.ids) as vals,
        count(*) over () as total
      from (
        select min(id) as id, min(shipment_id) as shipment_id, event_id, party, channel, count(*)::int as n, string_agg(id::text, ', ' order by id) as ids
        from notification_outbox where status = 'enviado'
        group by event_id, party, channel having count(*) > 1
      ) d
      join shipments s on s.id = d.shipment_id`,
  },
  // Issue 35: a factura al crédito never owes less than nothing (total − live credit notes − live
  // allocations − its deposited detracción), and one voided or rejected keeps no collection applied
  // to it: the money would be counted against a debt that no longer exists.
  credit_invoice_balance: {
    table: 'documents',
    query: sql`
      with inv as (
        select d.id, d.series || '-' || d.number as code, d.status, round(d.total * 100)::bigint as total_cents,
          (select coalesce(sum(round(n.total * 100)), 0)::bigint from documents n
            where n.type = '07' and n.modifies = d.series || '-' || lpad(d.number::text, 8, '0')
              and n.status not in ('anulado', 'rechazado') and n.document -> 'creditNote' ->> 'modifiedType' = '01') as credited_cents,
          (select coalesce(sum(round(a.amount * 100)), 0)::bigint from credit_allocations a where a.document_id = d.id and a.live) as collected_cents,
          coalesce((select round(dd.amount * 100)::bigint from detraction_deposits dd where dd.document_id = d.id), 0) as deposited_cents
        from documents d
        where d.type = '01' and (exists (select 1 from credit_allocations a where a.document_id = d.id) or exists (select 1 from detraction_deposits dd where dd.document_id = d.id))
      )
      select id, code, jsonb_build_object('status', status, 'totalCents', total_cents, 'creditedCents', credited_cents,
          'collectedCents', collected_cents, 'depositedCents', deposited_cents) as vals, count(*) over () as total
      from inv
      where total_cents - credited_cents - collected_cents - deposited_cents < 0
        or (status in ('anulado', 'rechazado') and collected_cents > 0)`,
  },
  // A collection applies at most what it brought, and a voided one applies nothing (migration 0080's
  // triggers hold both; this finds a database where they were bypassed).
  credit_collection_applied: {
    table: 'credit_collections',
    query: sql`
      select c.id, c.operation_number as code,
        jsonb_build_object('status', c.status, 'amountCents', round(c.amount * 100)::bigint, 'appliedCents', a.cents) as vals,
        count(*) over () as total
      from credit_collections c
      join (select collection_id, sum(round(amount * 100))::bigint as cents from credit_allocations where live group by collection_id) a on a.collection_id = c.id
      where a.cents > round(c.amount * 100) or c.status = 'anulado'`,
  },
  // A shipment sits on one live comprobante at most (document_shipments_live_uq): billed twice,
  // the customer would be asked for the same freight twice.
  shipment_billed_once: {
    table: 'shipments',
    query: sql`
      select s.id, s.code, jsonb_build_object('documents', l.n, 'documentIds', l.ids) as vals, count(*) over () as total
      from (
        select shipment_id, count(*)::int as n, string_agg(document_id::text, ', ' order by document_id) as ids
        from document_shipments where live and role = 'comprobante' group by shipment_id having count(*) > 1
      ) l
      join shipments s on s.id = l.shipment_id`,
  },
  // Issue 35: a factura or boleta still owing (pending or accepted, its accepted credit notes short of
  // its total) bills each of its shipments: one it let go is owed twice when another comprobante took
  // it, or never billed again otherwise (migration 0115's trigger ends its links only once accepted
  // notes credit it whole, and refuses the change that would make it owe them while another bills them).
  credited_shipments_released: {
    table: 'documents',
    query: sql`
      with released as (
        select d.id, d.series || '-' || lpad(d.number::text, 8, '0') as code, d.type, d.status, d.total,
          ds.shipment_id, o.document_id as holder
        from document_shipments ds
        join documents d on d.id = ds.document_id and d.type in ('01', '03') and d.status in ('pendiente', 'aceptado')
        left join document_shipments o on o.shipment_id = ds.shipment_id and o.role = 'comprobante' and o.live
        where ds.role = 'comprobante' and not ds.live
      ), owing as (
        select id, code, status, round(total * 100)::bigint as total_cents,
          (select coalesce(sum(round(n.total * 100)), 0)::bigint from documents n
            where n.type = '07' and n.modifies = r.code and n.status = 'aceptado'
              and coalesce(n.document -> 'creditNote' ->> 'modifiedType', '01') = r.type) as accepted_cents,
          string_agg(shipment_id::text, ', ' order by shipment_id) as shipment_ids, string_agg(distinct holder::text, ', ') as holders
        from released r group by id, code, type, status, total
      )
      select id, code, jsonb_build_object('status', status, 'totalCents', total_cents, 'acceptedCreditCents', accepted_cents,
          'shipmentIds', shipment_ids, 'documentIds', holders) as vals, count(*) over () as total
      from owing where accepted_cents < total_cents`,
  },
  // Issue 37: Cuentas por cobrar reads balances kept by triggers (migration 0089). Each must be what
  // the shipments and payments make it now (the view receivable_items_source, which defines what is
  // owed): a trigger dropped or bypassed, or a balance edited by hand, shows here.
  receivable_balances: {
    table: 'receivable_customer_balances',
    query: sql`
      with want as (
        select customer_key, branch_id, sender_name, count(*)::int as n, sum(amount) as amount, max(created_at) as last_at
        from receivable_items_source where side = 'origen' group by 1, 2, 3
      ), kept as (
        select customer_key, origin_branch_id as branch_id, sender_name, n, amount, last_shipment_at as last_at
        from receivable_customer_balances
      )
      select coalesce(k.customer_key, w.customer_key) || ' / ' || coalesce(k.branch_id, w.branch_id) || ' / ' || coalesce(k.sender_name, w.sender_name) as id,
        coalesce(k.sender_name, w.sender_name) as code,
        jsonb_build_object('branchId', coalesce(k.branch_id, w.branch_id), 'keptShipments', coalesce(k.n, 0), 'shipments', coalesce(w.n, 0),
          'keptCents', coalesce(round(k.amount * 100), 0)::bigint, 'cents', coalesce(round(w.amount * 100), 0)::bigint,
          'keptLastShipmentAt', k.last_at, 'lastShipmentAt', w.last_at) as vals,
        count(*) over () as total
      from kept k
      full join want w on w.customer_key = k.customer_key and w.branch_id = k.branch_id and w.sender_name = k.sender_name
      where k.n is distinct from w.n or k.amount is distinct from w.amount or k.last_at is distinct from w.last_at`,
  },
  destination_receivable_balances: {
    table: 'receivable_destination_balances',
    query: sql`
      with want as (
        select branch_id, status, count(*)::int as n, sum(amount) as amount from receivable_items_source where side = 'destino' group by 1, 2
      ), kept as (
        select destination_branch_id as branch_id, status, n, amount from receivable_destination_balances
      )
      select coalesce(k.branch_id, w.branch_id) || ' / ' || coalesce(k.status, w.status) as id, coalesce(k.status, w.status) as code,
        jsonb_build_object('branchId', coalesce(k.branch_id, w.branch_id), 'keptShipments', coalesce(k.n, 0), 'shipments', coalesce(w.n, 0),
          'keptCents', coalesce(round(k.amount * 100), 0)::bigint, 'cents', coalesce(round(w.amount * 100), 0)::bigint) as vals,
        count(*) over () as total
      from kept k
      full join want w on w.branch_id = k.branch_id and w.status = k.status
      where k.n is distinct from w.n or k.amount is distinct from w.amount`,
  },
  // Issue 37: the credit accounts' list and ageing read what is open now from sets kept by triggers
  // (migration 0101). Each must be what its view says is open: a credit shipment not invoiced, a
  // credit factura with a balance, a collection with money not applied. Missing, the list would
  // show an account owing less than it does; extra, it would read a row for nothing.
  credit_open_items: {
    table: 'credit_open_items',
    query: sql`
      with diff as (
        select 'envío ' || coalesce(k.shipment_id, w.shipment_id) as id, coalesce(k.shipment_id, w.shipment_id)::text as code,
          jsonb_build_object('kept', k.shipment_id is not null, 'open', w.shipment_id is not null,
            'keptCustomerId', k.customer_id, 'customerId', w.customer_id) as vals
        from credit_open_shipments k full join credit_open_shipments_source w on w.shipment_id = k.shipment_id
        where k.customer_id is distinct from w.customer_id
        union all
        select 'factura ' || coalesce(k.document_id, w.document_id), coalesce(k.document_id, w.document_id)::text,
          jsonb_build_object('kept', k.document_id is not null, 'open', w.document_id is not null,
            'keptCustomer', k.customer_doc_number, 'customer', w.customer_doc_number)
        from credit_open_invoices k full join credit_open_invoices_source w on w.document_id = k.document_id
        where k.customer_doc_number is distinct from w.customer_doc_number
        union all
        select 'cobro ' || coalesce(k.collection_id, w.collection_id), coalesce(k.collection_id, w.collection_id)::text,
          jsonb_build_object('kept', k.collection_id is not null, 'open', w.collection_id is not null,
            'keptCustomerId', k.customer_id, 'customerId', w.customer_id)
        from credit_open_collections k full join credit_open_collections_source w on w.collection_id = k.collection_id
        where k.customer_id is distinct from w.customer_id
      )
      select id, code, vals, count(*) over () as total from diff`,
  },
};

/** The first violations of a check (in the order of their ids) and how many there are. */
export async function violationsOf(db: Db, check: LedgerCheck): Promise<ViolationRow[]> {
  const { rows } = await db.execute(sql`select * from (${CHECKS[check].query}) v order by v.id limit ${LEDGER_VIOLATIONS_SHOWN}`);
  return rows as unknown as ViolationRow[];
}
