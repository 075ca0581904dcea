import { sql } from 'drizzle-orm';
import { rucCheckDigit } from '@tramo/domain';
import type { Db } from '../db/client.ts';
import { analyzeAsTablesGrow } from './bulk-statistics.ts';

/**
 * The money of a bulk-seeded company (issue 37): what its counters took for the shipments the bulk
 * seeder wrote, and what is still owed. All of it in INSERT … SELECT statements, one Lima month at a
 * time in the order of time, with every trigger running (the payments' and documents' daily and
 * monthly totals, the guards), so the database is one the API could have written:
 *
 * - a closed cash session per branch and day, by the branch's agent (else the administrator);
 * - at the origin counter, each shipment paid two minutes after it was registered, with its
 *   receipt (a factura for 2 in 5, a boleta otherwise), but for the open debts: of the last 30
 *   days, 1 in 20 shipments and half of those still 'Creado' are unpaid (1 in 7 of them with a
 *   payment left 'pending'). A debt is collected within a month, so what is owed grows with the
 *   shipments a day, not with the years of history;
 * - 1 in 33 paid shipments was first charged and voided (its receipt 'anulado'), then charged again;
 *   half of the cancelled shipments were charged and voided before their cancellation;
 * - pago en destino: paid at the destination when delivered; until then it is owed there;
 * - credit: each credit customer's shipments of a month invoiced on the 1st of the next month in
 *   one factura al crédito (document_shipments), collected in full by transfer 30 days later once
 *   45 days old; the current month is not invoiced yet.
 *
 * Receipts and period facturas are numbered in the order of their time after each series' last
 * number (document_series follows), so each series stays gapless and `npm run check:ledger` finds
 * nothing. Rows carry no signed XML (the lists never read it; a million would weigh gigabytes).
 */
export async function bulkInsertMoney(db: Db, fromShipmentId: number, log: (msg: string) => void = () => {}): Promise<void> {
  const span = (
    await db.execute(sql`
      select min(created_at) as first from shipments where id > ${fromShipmentId}`)
  ).rows[0] as { first: Date | string | null };
  if (!span.first) return;
  await db.execute(sql`drop table if exists bulk_sessions`);
  await db.execute(sql`create temp table bulk_sessions (branch_id int, day date, id int, user_id int, user_name text, primary key (branch_id, day))`);
  await db.execute(sql`drop table if exists bulk_periods`);
  await db.execute(sql`create temp table bulk_periods (document_id int primary key, customer_id int, total numeric, issue_date date)`);
  const limaMonth = (d: Date) => {
    const lima = new Date(d.getTime() - 5 * 3_600_000);
    return new Date(Date.UTC(lima.getUTCFullYear(), lima.getUTCMonth(), 1, 5));
  };
  const now = new Date();
  let month = 0;
  for (let start = limaMonth(new Date(span.first)); start <= now;) {
    const end = new Date(start);
    end.setUTCMonth(end.getUTCMonth() + 1);
    await moneyOfMonth(db, fromShipmentId, start, end);
    log(`  dinero: ${start.toISOString().slice(0, 7)}`);
    await analyzeAsTablesGrow(db, ++month, MONEY_TABLES);
    start = end;
  }
  await collectPeriodInvoices(db);
  await db.execute(sql.raw(`analyze ${MONEY_TABLES.join(', ')}`));
}

/** The tables a month of money grows (their triggers' plans read them). */
const MONEY_TABLES = [
  'cash_sessions',
  'payments',
  'payment_movements',
  'documents',
  'document_shipments',
  'credit_collections',
  'credit_allocations',
  'receivable_items',
  'credit_open_shipments',
  'credit_open_invoices',
  'credit_open_collections',
];

/** A Lima calendar day of a timestamp, as the triggers and the reports count it. */
const LIMA_DAY = (column: string) => sql.raw(`(((${column}) at time zone 'UTC') - interval '5 hours')::date`);
/** The shipments left unpaid at the origin counter: recent debts only (see bulkInsertMoney). */
const UNPAID = sql.raw(`(s.created_at > now() - interval '30 days' and (s.id % 20 = 0 or (s.status = 'Creado' and s.id % 2 = 0)))`);
/** A text[] literal (a drizzle array parameter would expand into a row, not an array). */
const literal = (items: readonly string[]) => sql.raw(`array[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(',')}]::text[]`);
const METHODS = sql.raw(`(array['cash','cash','cash','cash','yape_qr','yape_qr','card_pos','card_pos','plin_qr','bank_transfer','card_online'])`);

async function moneyOfMonth(db: Db, fromId: number, start: Date, end: Date) {
  const from = start.toISOString();
  const to = end.toISOString();
  const previous = new Date(start);
  previous.setUTCMonth(previous.getUTCMonth() - 1);
  const lastMonth = previous.toISOString();
  const period = lastMonth.slice(0, 10);
  // Every branch's session of every day of the month that has begun.
  await db.execute(sql`
    with days as (
      select d::date as day from generate_series(${LIMA_DAY(`'${from}'::timestamptz`)}, least(${LIMA_DAY(`'${to}'::timestamptz`)} - 1, ${LIMA_DAY('now()')}), interval '1 day') d
    ), who as (
      select b.id as branch_id, u.id as user_id, u.first_name || ' ' || coalesce(u.last_name, '') as user_name
      from branches b
      cross join lateral (select id, first_name, last_name from users where role <> 'courier' and (branch_id = b.id or role = 'admin')
        order by (role = 'admin'), id limit 1) u
    ), opened as (
      insert into cash_sessions (user_id, user_name, branch_id, opened_at, float_cents, closed_at, counted_cash_cents, closing, closed_by)
      select w.user_id, w.user_name, w.branch_id, (d.day + interval '12 hours') at time zone 'UTC', 10000,
        (d.day + interval '24 hours') at time zone 'UTC', 10000, '{"cashCents": 10000, "byMethod": {}}'::jsonb, w.user_id
      from who w cross join days d
      returning id, branch_id, opened_at, user_id, user_name
    )
    insert into bulk_sessions select branch_id, ${LIMA_DAY('opened_at')}, id, user_id, user_name from opened`);

  await db.execute(sql`drop table if exists bulk_charges`);
  await db.execute(sql`
    create temp table bulk_charges as
    with s as (
      select s.* from shipments s
      where s.id > ${fromId} and s.created_at >= ${from}::timestamptz - interval '2 days' and s.created_at < ${to}::timestamptz
        and s.payment_moment <> 'credito'
    ), c as (
      -- At the origin: the live payment of a paid shipment.
      select s.id as shipment_id, 'paid' as status, least(s.created_at + interval '2 minutes', now()) as at, null::timestamptz as canceled_at,
        s.origin_branch_id as branch_id, s
      from s where s.payment_moment = 'origen' and s.status <> 'Anulado' and not ${UNPAID}
      union all
      -- Charged, voided at once and charged again.
      select s.id, 'canceled', least(s.created_at + interval '1 minute', now()), least(s.created_at + interval '90 seconds', now()), s.origin_branch_id, s
      from s where s.payment_moment = 'origen' and s.status <> 'Anulado' and not ${UNPAID} and s.id % 33 = 0
      union all
      -- Charged, then voided before the shipment was cancelled.
      select s.id, 'canceled', least(s.created_at + interval '1 minute', now()), least(s.created_at + interval '1 hour', now()), s.origin_branch_id, s
      from s where s.payment_moment = 'origen' and s.status = 'Anulado' and s.id % 2 = 0
      union all
      -- Pago en destino: collected at the destination on delivery.
      select s.id, 'paid', least(s.created_at + interval '2 days', now()), null, s.destination_branch_id, s
      from s where s.payment_moment = 'destino' and s.status = 'Entregado'
    )
    select row_number() over (order by c.at, c.shipment_id, c.status) as k, c.shipment_id, c.status, c.at, c.canceled_at, c.branch_id,
      ((c.s).quoted_price * 100)::int as amount_cents, (c.s).code as code,
      case when (c.s).payment_moment = 'origen' and c.shipment_id % 5 < 2 then 6 else 1 end as doc_type,
      case when (c.s).payment_moment = 'origen' and c.shipment_id % 5 < 2 then ruc.n else (c.s).recipient_doc end as doc_number,
      case when (c.s).payment_moment = 'origen' and c.shipment_id % 5 < 2 then upper((c.s).sender_name) else (c.s).recipient_name end as name,
      ${METHODS}[1 + (c.shipment_id * 7 % 11)] as method,
      null::int as customer_id, null::date as period, 0 as lines,
      'receipt' as kind, null::text as type, null::text as series, null::int as number
    from c
    cross join lateral (select '20' || lpad((abs(hashtext((c.s).sender_name)) % 100000000)::text, 8, '0') as ten) t
    cross join lateral (select t.ten || '0' as n) ruc
    where c.at >= ${from}::timestamptz and c.at < ${to}::timestamptz`);
  // The RUC above is a placeholder until its check digit is set (SUNAT modulo 11, the domain's rule).
  await fixRucCheckDigits(db);
  // The period facturas of last month's credit shipments, issued on this month's 1st at 09:00.
  await db.execute(sql`
    insert into bulk_charges (k, shipment_id, status, at, canceled_at, branch_id, amount_cents, code, doc_type, doc_number, name, method,
      customer_id, period, lines, kind)
    select 1000000000 + row_number() over (order by c.id), null, 'paid', ${from}::timestamptz + interval '4 hours', null, s.branch_id, s.cents, null, 6,
      c.doc_number, c.first_name, 'bank_transfer', c.id, s.period, s.n, 'period'
    from (
      select s.sender_customer_id as customer_id, min(s.origin_branch_id) as branch_id, sum((s.quoted_price * 100)::bigint)::bigint as cents, count(*)::int as n,
        ${period}::date as period
      from shipments s
      where s.id > ${fromId} and s.payment_moment = 'credito' and s.status <> 'Anulado'
        and s.created_at >= ${lastMonth}::timestamptz and s.created_at < ${from}::timestamptz
      group by 1
    ) s
    join customers c on c.id = s.customer_id
    where ${from}::timestamptz + interval '4 hours' <= now()`);
  // Series and numbers: in the order of time, after each series' last number.
  await db.execute(
    sql`update bulk_charges set type = case when doc_type = 6 then '01' else '03' end, series = case when doc_type = 6 then 'FFF1' else 'BBB1' end`,
  );
  await db.execute(sql`
    update bulk_charges c set number = coalesce((select ds.last_number from document_series ds where ds.type = c.type and ds.series = c.series), 0) + n.rn
    from (select k, row_number() over (partition by type, series order by at, k) as rn from bulk_charges) n
    where n.k = c.k`);
  await db.execute(sql`
    insert into document_series (type, series, last_number)
    select type, series, max(number) from bulk_charges group by 1, 2
    on conflict (type, series) do update set last_number = excluded.last_number`);
  await db.execute(sql`
    insert into documents (type, series, number, status, issue_date, contingency, customer_id, customer_doc_type, customer_doc_number, customer_name,
      gravada, exonerada, inafecta, igv, total, document, branch_id, user_id, user_name, hash, qr_text, provider_message, void_reason,
      created_at, updated_at)
    select c.type, c.series, c.number, case when c.status = 'canceled' then 'anulado' else 'aceptado' end, ${LIMA_DAY('c.at')}, false, c.customer_id,
      c.doc_type::text, c.doc_number, c.name,
      a.gravada / 100.0, 0, 0, (c.amount_cents - a.gravada) / 100.0, c.amount_cents / 100.0,
      jsonb_build_object('type', c.type, 'series', c.series, 'number', c.number, 'issueDate', ${LIMA_DAY('c.at')}, 'issueTime', to_char((c.at at time zone 'UTC') - interval '5 hours', 'HH24:MI:SS'),
        'currency', 'PEN', 'contingency', false, 'operationType', '0101', 'customerId', c.customer_id,
        'customer', jsonb_build_object('docType', c.doc_type, 'docNumber', c.doc_number, 'name', c.name, 'address', null, 'email', null),
        'lines', jsonb_build_array(jsonb_build_object('igvType', '10', 'grossCents', a.gravada, 'discountCents', 0, 'subtotalCents', a.gravada,
          'igvCents', c.amount_cents - a.gravada, 'totalCents', c.amount_cents, 'quantity', greatest(c.lines, 1)::text,
          'unitValue', round(a.gravada / 100.0 / greatest(c.lines, 1), 2)::text, 'unitPrice', round(c.amount_cents / 100.0 / greatest(c.lines, 1), 2)::text,
          'itemType', 'servicio', 'code', coalesce(c.code, 'PERIODO'), 'unit', 'ZZ',
          'description', case when c.kind = 'period' then 'Servicio de transporte de carga, ' || c.lines || ' envíos de ' || to_char(c.period, 'MM/YYYY')
            else 'Servicio de envío ' || c.code end)),
        'totals', jsonb_build_object('gravadaCents', a.gravada, 'exoneradaCents', 0, 'inafectaCents', 0, 'igvCents', c.amount_cents - a.gravada,
          'discountCents', 0, 'totalCents', c.amount_cents),
        'payment', case when c.kind = 'period'
          then jsonb_build_object('form', 'credito', 'conditions', null, 'dueDate', ${LIMA_DAY('c.at')} + 30,
            'instalments', jsonb_build_array(jsonb_build_object('amountCents', c.amount_cents, 'dueDate', ${LIMA_DAY('c.at')} + 30)))
          else jsonb_build_object('form', 'contado', 'conditions', null, 'instalments', '[]'::jsonb, 'dueDate', null) end,
        'detraction', null, 'creditNote', null, 'guides', '[]'::jsonb, 'uniqueCode', null, 'observations', null),
      c.branch_id, bs.user_id, coalesce(bs.user_name, 'Carga masiva'),
      md5(c.series || c.number), '20601234567|' || c.type || '|' || c.series || '|' || c.number || '|' || ((c.amount_cents - a.gravada) / 100.0) || '|' || (c.amount_cents / 100.0) || '|'
        || to_char(${LIMA_DAY('c.at')}, 'DD/MM/YYYY') || '|' || c.doc_type || '|' || c.doc_number || '|',
      'La ' || case when c.type = '01' then 'Factura' else 'Boleta' end || ' numero ' || c.series || '-' || c.number || ', ha sido aceptada',
      case when c.status = 'canceled' then 'ERROR DEL SISTEMA' end,
      c.at, coalesce(c.canceled_at, c.at)
    from bulk_charges c
    cross join lateral (select round(c.amount_cents / 1.18)::bigint as gravada) a
    left join bulk_sessions bs on bs.branch_id = c.branch_id and bs.day = ${LIMA_DAY('c.at')}`);
  const before = Number(((await db.execute(sql`select coalesce(max(id), 0)::int as n from payments`)).rows[0] as { n: number }).n);
  await db.execute(sql`
    insert into payments (shipment_id, status, method, amount_cents, currency, provider_tx_id, customer_doc_type, customer_doc_number, customer_name,
      branch_id, user_id, user_name, cash_session_id, document_id, receipt_attempts, cancel_reason, created_at, paid_at, canceled_at, updated_at)
    select c.shipment_id, c.status, c.method, c.amount_cents, 'PEN', case when c.method <> 'cash' then 'OP-' || lpad(c.k::text, 8, '0') end,
      c.doc_type, c.doc_number, c.name, c.branch_id, bs.user_id, bs.user_name, bs.id, d.id, 1,
      case when c.status = 'canceled' then 'ERROR DEL SISTEMA' end,
      c.at - interval '20 seconds', c.at, c.canceled_at, coalesce(c.canceled_at, c.at)
    from bulk_charges c
    join documents d on d.type = c.type and d.series = c.series and d.number = c.number
    join bulk_sessions bs on bs.branch_id = c.branch_id and bs.day = ${LIMA_DAY('c.at')}
    where c.kind = 'receipt'
    order by c.k`);
  // 1 in 7 open debts at the counter has a payment still 'pending': its receipt did not go through (no charge, no receipt yet).
  await db.execute(sql`
    insert into payments (shipment_id, status, method, amount_cents, currency, customer_doc_type, customer_doc_number, customer_name,
      branch_id, user_id, user_name, cash_session_id, receipt_attempts, last_error, created_at, updated_at)
    select s.id, 'pending', 'cash', (s.quoted_price * 100)::int, 'PEN', 1, s.recipient_doc, s.recipient_name,
      s.origin_branch_id, bs.user_id, bs.user_name, bs.id, 1, 'El servicio de SUNAT no respondió a tiempo; reintente el envío.', s.created_at, s.created_at
    from shipments s
    join bulk_sessions bs on bs.branch_id = s.origin_branch_id and bs.day = ${LIMA_DAY('s.created_at')}
    where s.id > ${fromId} and s.created_at >= ${from}::timestamptz and s.created_at < ${to}::timestamptz
      and s.payment_moment = 'origen' and s.status <> 'Anulado' and ${UNPAID} and s.id % 7 = 0`);
  // The cash ledger: a charge for every payment, and its reversal in the same session for a voided one.
  await db.execute(sql`
    insert into payment_movements (payment_id, kind, method, amount_cents, cash_session_id, user_id, at)
    select id, 'cobro', method, amount_cents, cash_session_id, user_id, paid_at from payments where id > ${before} and paid_at is not null
    union all
    select id, 'anulacion', method, -amount_cents, cash_session_id, user_id, canceled_at from payments where id > ${before} and status = 'canceled'`);
  // What each period factura carries.
  await db.execute(sql`
    with invoiced as (
      select d.id as document_id, c.customer_id, c.period, d.total, d.issue_date
      from bulk_charges c join documents d on d.type = c.type and d.series = c.series and d.number = c.number
      where c.kind = 'period'
    ), kept as (
      insert into bulk_periods select document_id, customer_id, total, issue_date from invoiced returning document_id
    )
    insert into document_shipments (document_id, shipment_id, live, role)
    select i.document_id, s.id, true, 'comprobante'
    from invoiced i
    join shipments s on s.sender_customer_id = i.customer_id and s.payment_moment = 'credito' and s.status <> 'Anulado' and s.id > ${fromId}
      and s.created_at >= ${lastMonth}::timestamptz and s.created_at < ${from}::timestamptz`);
}

/** The check digit of the placeholder RUCs of bulk_charges (their 11th character), from the domain's modulo 11. */
async function fixRucCheckDigits(db: Db) {
  const { rows } = await db.execute(sql`select distinct doc_number from bulk_charges where doc_type = 6`);
  const fixes = (rows as { doc_number: string }[]).map((r) => {
    const ten = r.doc_number.slice(0, 10);
    return [r.doc_number, ten + String(rucCheckDigit(ten))] as const;
  });
  if (fixes.length === 0) return;
  await db.execute(sql`
    update bulk_charges c set doc_number = f.fixed
    from (select unnest(${literal(fixes.map((f) => f[0]))}) as placeholder, unnest(${literal(fixes.map((f) => f[1]))}) as fixed) f
    where c.doc_type = 6 and c.doc_number = f.placeholder`);
}

/** Period facturas 45 days old or more: paid in full by transfer 30 days after issue, one collection each. */
async function collectPeriodInvoices(db: Db) {
  await db.execute(sql`
    insert into credit_collections (customer_id, received_on, method, amount, bank, operation_number, status, created_by_name, created_at)
    select customer_id, issue_date + 30, 'transferencia', total, 'BCP', 'OP-' || document_id, 'vigente', 'Carga masiva',
      ((issue_date + 30) + interval '15 hours') at time zone 'UTC'
    from bulk_periods where issue_date <= current_date - 45`);
  await db.execute(sql`
    insert into credit_allocations (collection_id, document_id, amount, live)
    select c.id, p.document_id, p.total, true
    from bulk_periods p join credit_collections c on c.operation_number = 'OP-' || p.document_id and c.created_by_name = 'Carga masiva'
    where p.issue_date <= current_date - 45`);
}

const CREDIT_NAMES = [
  'Comercial Andina S.A.C.',
  'Textiles Gamarra Express E.I.R.L.',
  'Agroexportadora Norte Verde S.A.',
  'Distribuidora Sur E.I.R.L.',
  'Ferretería El Constructor S.A.C.',
  'Supermercados Peruanos S.A.',
  'Librería San Marcos S.R.L.',
  'Farmacia Salud Total S.A.C.',
  'Minera Cordillera Blanca S.A.',
  'Importadora del Pacífico S.A.C.',
  'Laboratorios Inkafarma Sur S.A.',
  'Cerámicas Chiclayo E.I.R.L.',
  'Molinos del Norte S.A.',
  'Confecciones Arequipa S.A.C.',
  'Repuestos Trujillo E.I.R.L.',
  'Café Valle Sagrado S.A.C.',
  'Plásticos Industriales Lima S.A.',
  'Ópticas Visión Total S.A.C.',
  'Electro Piura E.I.R.L.',
  'Papelera Nacional S.A.',
] as const;

/**
 * The credit customers of the company model: 20 RUC customers with an active monthly account
 * (30 days' terms, a limit no bulk history reaches), created once and found again on later runs.
 */
export async function ensureCreditCustomers(db: Db): Promise<{ id: number; name: string }[]> {
  const rucs = CREDIT_NAMES.map((_, i) => {
    const ten = `2060${String(100_000 + i * 7_919).padStart(6, '0')}`;
    return ten + String(rucCheckDigit(ten));
  });
  await db.execute(sql`
    insert into customers (first_name, doc_type, doc_number, address, email)
    select n, 6, r, 'Av. Argentina ' || (100 + o) || ', Lima', 'cobranzas' || o || '@empresa.pe'
    from unnest(${literal(CREDIT_NAMES)}, ${literal(rucs)}) with ordinality as x(n, r, o)
    on conflict (doc_type, doc_number) do nothing`);
  const { rows } = await db.execute(
    sql`select id, first_name as name from customers where doc_type = 6 and doc_number = any(${literal(rucs)}) order by id`,
  );
  const found = rows as { id: number; name: string }[];
  await db.execute(sql`
    insert into credit_accounts (customer_id, credit_limit, terms_days, period, status, contact_name, contact_email)
    select id, 100000000, 30, 'mensual', 'activa', 'Cobranzas', 'cobranzas@empresa.pe' from customers where id = any(${sql.raw(`array[${found.map((c) => Number(c.id)).join(',')}]::int[]`)})
    on conflict (customer_id) do nothing`);
  return found.map((c) => ({ id: Number(c.id), name: c.name }));
}
