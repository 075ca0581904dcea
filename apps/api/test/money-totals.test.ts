import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import {
  INVALID_DAY_MESSAGE,
  limaDay,
  limaDayEnd,
  limaDayStart,
  NUMBERED_PAGE_ROWS,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  type DocumentFilters,
  type MovementFilters,
} from '@tramo/domain';
import { pruneDocumentSearch } from '../src/modules/billing/index.ts';
import { registerSumsQuery } from '../src/modules/billing/register.ts';
import { movementGroupsQuery } from '../src/modules/payments/queries/movements.ts';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

const today = limaDay(new Date());
const daysAgo = (n: number) => limaDay(new Date(Date.now() - n * 86_400_000));
/** The first and the last day of the month `back` months before this one. */
const monthStart = (back: number) => {
  const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - back);
  return d.toISOString().slice(0, 10);
};
const monthEnd = (back: number) => new Date(new Date(`${monthStart(back - 1)}T00:00:00Z`).getTime() - 86_400_000).toISOString().slice(0, 10);
/**
 * Date ranges over the rows' last weeks: a whole month, whole months open on one side, a month with
 * days cut on both sides, days of two months and no whole one, a cut month open on the other side.
 */
const spans: [string | null, string | null][] = [
  [monthStart(1), monthEnd(1)],
  [monthStart(1), null],
  [null, monthEnd(1)],
  [daysAgo(45), daysAgo(1)],
  [daysAgo(38), monthEnd(0)],
  [monthStart(2), daysAgo(3)],
  [null, daysAgo(9)],
  [daysAgo(33), null],
  [monthEnd(1), monthStart(0)],
];

/**
 * The register's and the movements report's totals come from daily counters kept by triggers
 * (issue #19). After issues, voids, payments, their voids (one refused and rolled back), concurrent
 * ones and bulk SQL inserts, updates and deletes, every total the lists answer equals a sum over
 * the tables themselves, on the counter path and on the scan path; and the unfiltered totals do not
 * read the documents or payments.
 */
describe.each(engines)('money totals from daily counters (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let agentArequipa: string;
  let lima: number;
  let arequipa: number;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;
  const bulkUser = 900_201;

  beforeAll(async () => {
    billing = await sandboxBilling('money-totals');
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '12.34']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    [admin, agent, agentArequipa] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('AGENTE2')]);
    await mixOfOperations();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const rows = async <R>(query: SQL) => (await t.database.db.execute(query)).rows as R[];

  const boleta = (serie: string, unitValue: string) => ({
    type: '03',
    serie,
    issueDate: today,
    items: [{ description: 'Servicio de transporte', unit: 'ZZ', quantity: 1, unitValue, igvType: '10' }],
    customer: { doc_type: 1, doc_number: '45879612', name: 'María Flores Ccori' },
  });
  const factura = (serie: string, unitValue: string) => ({
    type: '01',
    serie,
    issueDate: today,
    // A taxed and an exonerated line, so gravada and exonerada both move.
    items: [
      { description: 'Servicio de transporte de carga', unit: 'ZZ', quantity: 2, unitValue, igvType: '10' },
      { description: 'Embalaje', unit: 'NIU', quantity: 1, unitValue: '7.25', igvType: '20' },
    ],
    customer: { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' },
  });
  const emit = async (body: unknown, token: string) => {
    const res = await t.call('POST', '/api/billing/create-emit', { token, body });
    expect([201, 202], res.body).toContain(res.statusCode);
    return res.json().id as number;
  };
  const voidDocument = (id: number, token: string) => t.call('POST', '/api/billing/void', { token, body: { id, motivo: 'ERROR DEL SISTEMA' } });

  async function newShipment(token: string, from: 'lima' | 'arequipa') {
    const route = from === 'lima' ? { originBranchId: lima, destinationBranchId: arequipa } : { originBranchId: arequipa, destinationBranchId: lima };
    const res = await t.call('POST', '/api/shipments', { token, body: shipmentBody(route) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  }
  const pay = (shipmentId: number, methodCode: string, token: string) =>
    t.call('POST', '/api/payments/manual', {
      token,
      body: {
        shipmentId,
        customerName: 'María Flores Ccori',
        customerDocNumber: '45879612',
        amount: 37.02,
        currency: 'PEN',
        methodCode,
        ...(methodCode === 'cash' ? {} : { providerTxId: `OP-${shipmentId}-${methodCode}` }),
      },
    });
  const cancel = (id: number, token: string) => t.call('POST', `/api/payments/payments/${id}/cancel`, { token, body: { motivo: 'Duplicado' } });

  /** Every flow that writes documents or payments, some of them at once, then bulk SQL rows changed and removed. */
  async function mixOfOperations() {
    // Issues by both agents and the admin (no branch), concurrent on one series and across series.
    const issued = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => emit(boleta('BBB1', `${10 + i}.10`), agent)),
      ...Array.from({ length: 6 }, (_, i) => emit(factura('FFF1', `${20 + i}.35`), agentArequipa)),
      ...Array.from({ length: 3 }, (_, i) => emit(factura('FFF2', `${30 + i}.05`), admin)),
    ]);
    // A pending one (no answer) and a rejected one.
    billing.failures.emit.push('timeout');
    await emit(boleta('BBB2', '41.00'), agent);
    billing.failures.emit.push('sunat-rejects');
    await t.call('POST', '/api/billing/create-emit', { token: agent, body: factura('FFF3', '15.00') });
    // Concurrent voids, several on the same document (one is taken), then their status read (anulado).
    const toVoid = [issued[0]!, issued[9]!, issued[15]!];
    await Promise.all(toVoid.flatMap((id) => [voidDocument(id, admin), voidDocument(id, admin)]));
    for (const id of toVoid) await t.call('GET', `/api/billing/void-status/${id}`, { token: admin });

    // Payments by both agents with several methods, at once; each issues and confirms a receipt.
    const methods = ['cash', 'yape_qr', 'card_pos', 'plin_qr', 'bank_transfer'];
    const shipments = await Promise.all([
      ...Array.from({ length: 5 }, () => newShipment(agent, 'lima')),
      ...Array.from({ length: 4 }, () => newShipment(agentArequipa, 'arequipa')),
    ]);
    const paid = await Promise.all(shipments.map((s, i) => pay(s, methods[i % methods.length]!, i < 5 ? agent : agentArequipa)));
    const paymentIds = paid.map((r) => {
      expect(r.statusCode, r.body).toBe(201);
      return r.json().payment.id as number;
    });
    // A pending payment (its receipt failed).
    billing.failures.emit.push('network');
    expect((await pay(await newShipment(agent, 'lima'), 'cash', agent)).statusCode).toBe(202);
    // Concurrent voids (one taken each), and one whose receipt's void is refused: the payment goes back to paid.
    await Promise.all([
      cancel(paymentIds[1]!, agent),
      cancel(paymentIds[1]!, agent),
      cancel(paymentIds[6]!, agentArequipa),
      cancel(paymentIds[6]!, admin),
    ]);
    billing.refuseVoid.push(true);
    expect((await cancel(paymentIds[2]!, agent)).statusCode).not.toBe(200);
    // The voided shipment is paid again.
    expect((await pay(shipments[1]!, 'card_online', agent)).statusCode).toBe(201);

    // Bulk rows over past days (branches, none, several types and series), then changed and some removed.
    await t.database.db.execute(sql`
      insert into documents (type, series, number, status, issue_date, customer_doc_type, customer_doc_number, customer_name,
        gravada, exonerada, inafecta, igv, total, document, branch_id, user_name)
      select k.type, k.series, 1000 + i, (array['aceptado','aceptado','anulado','pendiente','rechazado'])[1 + i % 5], current_date - (i % 40),
        '1', '4587' || lpad(i::text, 4, '0'), 'Cliente ' || i,
        (i * 1.37)::numeric(12, 2), (i % 3)::numeric(12, 2), (i % 2 * 0.5)::numeric(12, 2), round(i * 1.37 * 0.18, 2), (i * 1.37)::numeric(12, 2) + (i % 3) + (i % 2 * 0.5) + round(i * 1.37 * 0.18, 2),
        '{}'::jsonb, (array[${lima}::int, ${arequipa}::int, null])[1 + i % 3], 'Carga masiva'
      from generate_series(1, 300) i,
        lateral (select (array['03','01','07','09'])[1 + i % 4] as type, (array['B050','F050','FC50','T050'])[1 + i % 4] as series) k`);
    await t.database.db.execute(sql`update documents set status = 'anulado' where series = 'B050' and number % 7 = 0`);
    await t.database.db.execute(
      sql`update documents set issue_date = issue_date - 1, gravada = gravada + 1, total = total + 1 where series = 'F050' and number % 5 = 0`,
    );
    await t.database.db.execute(sql`update documents set branch_id = ${arequipa} where series = 'FC50' and number % 4 = 1`);
    await t.database.db.execute(sql`update documents set pdf_url = 'x' where series = 'T050'`);
    // Comprobantes are kept for good (migration 0117): removed here past that guard, to test the counters' delete triggers.
    await t.database.db.execute(sql`alter table documents disable trigger documents_kept`);
    await t.database.db.execute(sql`delete from documents where series = 'T050' and number % 2 = 0`);
    await t.database.db.execute(sql`alter table documents enable trigger documents_kept`);

    await t.database.db.execute(
      sql`insert into cash_sessions (user_id, user_name, branch_id, float_cents, closed_at) values (${bulkUser}, 'Carga masiva', ${lima}, 0, now())`,
    );
    await t.database.db.execute(sql`
      insert into payments (shipment_id, status, method, amount_cents, customer_doc_type, customer_doc_number, customer_name, branch_id, user_id, user_name, cash_session_id, created_at)
      select ${shipments[0]!}, 'canceled', (array['cash','yape_qr','card_pos','plin_qr','bank_transfer','card_online'])[1 + i % 6], 100 + i * 7, 1, '45879612', 'Cliente ' || i,
        (array[${lima}::int, ${arequipa}::int, null])[1 + i % 3], ${bulkUser}, 'Carga masiva', (select id from cash_sessions where user_id = ${bulkUser}),
        now() - make_interval(hours => i * 5)
      from generate_series(1, 200) i`);
    await t.database.db.execute(sql`update payments set method = 'cash', amount_cents = amount_cents + 3 where user_id = ${bulkUser} and id % 4 = 0`);
    await t.database.db.execute(sql`update payments set created_at = created_at - interval '3 days' where user_id = ${bulkUser} and id % 9 = 0`);
    await t.database.db.execute(sql`alter table payments disable trigger payments_kept`);
    await t.database.db.execute(sql`delete from payments where user_id = ${bulkUser} and id % 10 = 0`);
    await t.database.db.execute(sql`alter table payments enable trigger payments_kept`);
    await oppositeMovesAtOnce();
  }

  /**
   * Two payments, then two documents, swapped between the same two keys in opposite directions,
   * each pair at once on two connections, round after round: every such write takes the counters'
   * rows of both keys, on three levels, and must take them in one order whatever its direction
   * (migration 0113), or the two wait on each other and PostgreSQL kills one as a deadlock.
   */
  async function oppositeMovesAtOnce() {
    const [pa, pb] = await rows<{ id: number }>(sql`
      insert into payments (shipment_id, status, method, amount_cents, customer_doc_type, customer_doc_number, customer_name, branch_id, user_id, user_name, cash_session_id)
      select (select min(id) from shipments), 'canceled', m, 500, 1, '45879612', 'Cliente cruzado', ${lima}, ${bulkUser}, 'Carga masiva',
        (select id from cash_sessions where user_id = ${bulkUser})
      from unnest(array['cash', 'yape_qr']) m returning id`);
    const [da, db] = await rows<{ id: number }>(sql`
      insert into documents (type, series, number, status, issue_date, customer_doc_type, customer_doc_number, customer_name,
        gravada, exonerada, inafecta, igv, total, document, branch_id, user_name)
      select '03', 'B051', n, 'aceptado', current_date, '1', '45879612', 'Cliente cruzado', 10, 0, 0, 1.8, 11.8, '{}'::jsonb, b, 'Carga masiva'
      from unnest(array[1, 2], array[${lima}::int, ${arequipa}::int]) x(n, b) returning id`);
    const swapMethod = (id: number) =>
      t.database.db.execute(sql`update payments set method = case method when 'cash' then 'yape_qr' else 'cash' end where id = ${id}`);
    const swapBranch = (id: number) =>
      t.database.db.execute(
        sql`update documents set branch_id = case branch_id when ${lima} then ${arequipa}::int else ${lima}::int end where id = ${id}`,
      );
    for (let round = 0; round < 15; round++) {
      await Promise.all([swapMethod(pa!.id), swapMethod(pb!.id), swapBranch(da!.id), swapBranch(db!.id)]);
    }
  }

  /** The register's count and sales totals (céntimos) straight from documents. */
  async function documentTruth(where: SQL) {
    const sales = sql`status <> 'anulado' and type in ('01', '03', '07')`;
    const [r] = await rows<Record<string, string>>(sql`
      select count(*)::text as n,
        (coalesce(sum(gravada) filter (where ${sales}), 0) * 100)::bigint::text as gravada,
        (coalesce(sum(exonerada) filter (where ${sales}), 0) * 100)::bigint::text as exonerada,
        (coalesce(sum(inafecta) filter (where ${sales}), 0) * 100)::bigint::text as inafecta,
        (coalesce(sum(igv) filter (where ${sales}), 0) * 100)::bigint::text as igv,
        (coalesce(sum(total) filter (where ${sales}), 0) * 100)::bigint::text as total
      from documents where ${where}`);
    return {
      total: Number(r!.n),
      sums: Object.fromEntries(['gravada', 'exonerada', 'inafecta', 'igv', 'total'].map((k) => [k, Number(r![k])])),
    };
  }

  const cents = (amount: number) => Math.round(amount * 100);

  it('keeps the counters equal to a fresh count of documents and payments', async () => {
    const documentsOff = await rows(sql`
      select issue_date, coalesce(branch_id, 0), type, series, status, currency, count(*) as n, sum(gravada), sum(exonerada), sum(inafecta), sum(igv), sum(total)
        from documents group by 1, 2, 3, 4, 5, 6
      except
      select issue_date, branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total from document_daily_totals where n <> 0`);
    expect(documentsOff).toEqual([]);
    const countersOff = await rows(sql`
      select issue_date, branch_id, type, series, status, currency from document_daily_totals
       where n <> 0 or gravada <> 0 or exonerada <> 0 or inafecta <> 0 or igv <> 0 or total <> 0
      except
      select issue_date, coalesce(branch_id, 0), type, series, status, currency from documents`);
    expect(countersOff).toEqual([]);
    const paymentsOff = await rows(sql`
      (select ((created_at at time zone 'UTC') - interval '5 hours')::date, coalesce(branch_id, 0), user_id, method, status, count(*), sum(amount_cents)
         from payments group by 1, 2, 3, 4, 5
       except select day, branch_id, user_id, method, status, n, cents from payment_daily_totals where n <> 0)
      union all
      (select day, branch_id, user_id, method, status, n, cents from payment_daily_totals where n <> 0 or cents <> 0
       except select ((created_at at time zone 'UTC') - interval '5 hours')::date, coalesce(branch_id, 0), user_id, method, status, count(*), sum(amount_cents)
         from payments group by 1, 2, 3, 4, 5)`);
    expect(paymentsOff).toEqual([]);
    // The months are their days added up (migration 0024), whatever moved them.
    const documentMonthsOff = await rows(sql`
      (select date_trunc('month', issue_date)::date as month, branch_id, type, series, status, currency,
              sum(n) as n, sum(gravada) as gravada, sum(exonerada) as exonerada, sum(inafecta) as inafecta, sum(igv) as igv, sum(total) as total
         from document_daily_totals group by 1, 2, 3, 4, 5, 6
       except select month, branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total from document_monthly_totals)
      union all
      (select month, branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total from document_monthly_totals
       except select date_trunc('month', issue_date)::date, branch_id, type, series, status, currency, sum(n), sum(gravada), sum(exonerada), sum(inafecta), sum(igv), sum(total)
         from document_daily_totals group by 1, 2, 3, 4, 5, 6)`);
    expect(documentMonthsOff).toEqual([]);
    // All time is the documents added up per key (migration 0109), however many days and months.
    const documentAllTimeOff = await rows(sql`
      (select coalesce(branch_id, 0) as branch_id, type, series, status, currency, count(*) as n,
              sum(gravada) as gravada, sum(exonerada) as exonerada, sum(inafecta) as inafecta, sum(igv) as igv, sum(total) as total
         from documents group by 1, 2, 3, 4, 5
       except select branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total from document_all_time_totals)
      union all
      (select branch_id, type, series, status, currency, n, gravada, exonerada, inafecta, igv, total from document_all_time_totals
        where n <> 0 or gravada <> 0 or exonerada <> 0 or inafecta <> 0 or igv <> 0 or total <> 0
       except select coalesce(branch_id, 0), type, series, status, currency, count(*), sum(gravada), sum(exonerada), sum(inafecta), sum(igv), sum(total)
         from documents group by 1, 2, 3, 4, 5)`);
    expect(documentAllTimeOff).toEqual([]);
    const paymentMonthsOff = await rows(sql`
      (select date_trunc('month', day)::date as month, branch_id, user_id, method, status, sum(n) as n, sum(cents) as cents
         from payment_daily_totals group by 1, 2, 3, 4, 5
       except select month, branch_id, user_id, method, status, n, cents from payment_monthly_totals)
      union all
      (select month, branch_id, user_id, method, status, n, cents from payment_monthly_totals
       except select date_trunc('month', day)::date, branch_id, user_id, method, status, sum(n), sum(cents) from payment_daily_totals group by 1, 2, 3, 4, 5)`);
    expect(paymentMonthsOff).toEqual([]);
    // And the payments' all time (migration 0111): their payments added up per key.
    const paymentAllTimeOff = await rows(sql`
      (select coalesce(branch_id, 0) as branch_id, user_id, method, status, count(*) as n, sum(amount_cents) as cents
         from payments group by 1, 2, 3, 4
       except select branch_id, user_id, method, status, n, cents from payment_all_time_totals)
      union all
      (select branch_id, user_id, method, status, n, cents from payment_all_time_totals where n <> 0 or cents <> 0
       except select coalesce(branch_id, 0), user_id, method, status, count(*), sum(amount_cents) from payments group by 1, 2, 3, 4)`);
    expect(paymentAllTimeOff).toEqual([]);
    // Not vacuous: the rows span more than one month.
    expect(
      Number((await rows<{ n: string }>(sql`select count(distinct month) as n from document_monthly_totals where n <> 0`))[0]!.n),
    ).toBeGreaterThan(1);
  });

  it("answers the register's totals as a sum over documents, on the counters and on the scan, per role and filter", async () => {
    const shipmentWithDocument = (await rows<{ id: number }>(sql`select min(shipment_id) as id from document_shipments`))[0]?.id;
    const cases: [string, string, SQL][] = [
      ['', admin, sql`true`],
      ['', agent, sql`branch_id = ${lima}`],
      ['', agentArequipa, sql`branch_id = ${arequipa}`],
      ['type=01', admin, sql`type = '01'`],
      ['type=07', agentArequipa, sql`type = '07' and branch_id = ${arequipa}`],
      ['series=b050', admin, sql`series = 'B050'`],
      ['status=anulado', admin, sql`status = 'anulado'`],
      ['status=pendiente&type=03', agent, sql`status = 'pendiente' and type = '03' and branch_id = ${lima}`],
      [`dateFrom=${daysAgo(10)}&dateTo=${daysAgo(2)}`, admin, sql`issue_date between ${daysAgo(10)} and ${daysAgo(2)}`],
      [`dateFrom=${today}`, agent, sql`issue_date >= ${today} and branch_id = ${lima}`],
      [`dateTo=${daysAgo(20)}&series=F050&status=aceptado`, admin, sql`issue_date <= ${daysAgo(20)} and series = 'F050' and status = 'aceptado'`],
      // Whole months from the monthly counters, the days a month is cut at from the daily ones.
      ...spans.map(([from, to]): [string, string, SQL] => [
        `${from ? `dateFrom=${from}` : ''}&${to ? `dateTo=${to}` : ''}`,
        admin,
        sql`issue_date >= ${from ?? '1900-01-01'} and issue_date <= ${to ?? '2999-12-31'}`,
      ]),
      [`dateFrom=${monthStart(1)}&status=aceptado`, agent, sql`issue_date >= ${monthStart(1)} and status = 'aceptado' and branch_id = ${lima}`],
      // The scan: a customer or a shipment is not a key of the counters.
      ['customer=cliente 1', admin, sql`(customer_name ilike '%cliente 1%' or customer_doc_number ilike '%cliente 1%')`],
      [
        'customer=4587&type=03',
        agent,
        sql`(customer_doc_number ilike '%4587%' or customer_name ilike '%4587%') and type = '03' and branch_id = ${lima}`,
      ],
      ...(shipmentWithDocument
        ? [
            [
              `shipmentId=${shipmentWithDocument}`,
              admin,
              sql`id in (select document_id from document_shipments where shipment_id = ${shipmentWithDocument})`,
            ] as [string, string, SQL],
          ]
        : []),
    ];
    for (const [query, token, where] of cases) {
      const res = await t.call('GET', `/api/billing/documents?${query}&pageSize=10`, { token });
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
      const page = res.json();
      const truth = await documentTruth(where);
      expect(page.total, query).toBe(truth.total);
      expect(Object.fromEntries(Object.entries(page.sums as Record<string, number>).map(([k, v]) => [k, cents(v)])), query).toEqual(truth.sums);
    }
    // The cases are not all empty: the check would pass on zeros.
    expect((await documentTruth(sql`true`)).total).toBeGreaterThan(300);
  });

  it("answers the movements report's totals as a sum over payments, per role and filter", async () => {
    const agentId = Number((await rows<{ id: number }>(sql`select id from users where username = 'AGENTE1'`))[0]!.id);
    const cases: [string, string, SQL][] = [
      ['', admin, sql`true`],
      ['', agent, sql`branch_id = ${lima}`],
      [`branchId=${arequipa}`, admin, sql`branch_id = ${arequipa}`],
      [`branchId=${lima}&method=cash`, agent, sql`branch_id = ${lima} and method = 'cash'`],
      [`userId=${bulkUser}&method=cash`, admin, sql`user_id = ${bulkUser} and method = 'cash'`],
      [`userId=${agentId}&status=paid`, admin, sql`user_id = ${agentId} and status = 'paid'`],
      ['status=canceled&method=yape_qr', agentArequipa, sql`status = 'canceled' and method = 'yape_qr' and branch_id = ${arequipa}`],
      [
        `dateFrom=${daysAgo(12)}&dateTo=${daysAgo(3)}`,
        admin,
        sql`created_at >= ${limaDayStart(daysAgo(12))} and created_at < ${limaDayEnd(daysAgo(3))}`,
      ],
      ...spans.map(([from, to]): [string, string, SQL] => [
        `${from ? `dateFrom=${from}` : ''}&${to ? `dateTo=${to}` : ''}`,
        admin,
        sql`created_at >= ${limaDayStart(from ?? '1900-01-01')} and created_at < ${limaDayEnd(to ?? '2999-12-31')}`,
      ]),
      [`dateTo=${monthEnd(1)}&method=cash`, agent, sql`created_at < ${limaDayEnd(monthEnd(1))} and method = 'cash' and branch_id = ${lima}`],
      [
        `dateFrom=${today}&dateTo=${today}&status=pending`,
        agent,
        sql`created_at >= ${limaDayStart(today)} and status = 'pending' and branch_id = ${lima}`,
      ],
    ];
    for (const [query, token, where] of cases) {
      const res = await t.call('GET', `/api/payments/report/movements?${query}&pageSize=20`, { token });
      expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
      const { totals, total } = res.json();
      const groups = await rows<{ method: string; status: string; n: string; cents: string }>(
        sql`select method, status, count(*)::text as n, sum(amount_cents)::text as cents from payments where ${where} group by 1, 2`,
      );
      const of = (pick: (g: (typeof groups)[number]) => boolean) => {
        const mine = groups.filter(pick);
        return { count: mine.reduce((s, g) => s + Number(g.n), 0), cents: mine.reduce((s, g) => s + Number(g.cents), 0) };
      };
      expect(total, query).toBe(of(() => true).count);
      expect(totals.count, query).toBe(of(() => true).count);
      expect(cents(totals.paid), query).toBe(of((g) => g.status === 'paid').cents);
      for (const m of PAYMENT_METHODS) {
        const line = totals.byMethod.find((x: { methodCode: string }) => x.methodCode === m);
        expect({ count: line.count, cents: cents(line.amount) }, `${query} ${m}`).toEqual(of((g) => g.method === m));
      }
      for (const st of PAYMENT_STATUSES) {
        const line = totals.byStatus.find((x: { status: string }) => x.status === st);
        expect({ count: line.count, cents: cents(line.amount) }, `${query} ${st}`).toEqual(of((g) => g.status === st));
      }
    }
    expect(Number((await rows<{ n: string }>(sql`select count(*) as n from payments`))[0]!.n)).toBeGreaterThan(150);
  });

  it('answers no totals, and "more than" the numbered rows, for a customer search matching more documents than that', async () => {
    const from = Number((await rows<{ n: number }>(sql`select coalesce(max(number), 0) + 1 as n from documents where series = 'B077'`))[0]!.n);
    await t.database.db.execute(sql`
      insert into documents (type, series, number, status, issue_date, customer_doc_type, customer_doc_number, customer_name,
        gravada, exonerada, inafecta, igv, total, document, branch_id, user_name)
      select '03', 'B077', ${from} + i, 'aceptado', current_date - (i % 20), '1', lpad((70000000 + i)::text, 8, '0'), 'Rosa Huillca ' || i,
        10, 0, 0, 1.80, 11.80, '{}'::jsonb, ${lima}, 'Carga masiva'
      from generate_series(0, ${NUMBERED_PAGE_ROWS}) i`);
    const broad = (await t.call('GET', '/api/billing/documents?customer=huillca&pageSize=10', { token: admin })).json();
    expect(broad).toMatchObject({ total: NUMBERED_PAGE_ROWS, totalCapped: true, sums: null });
    expect(broad.items).toHaveLength(10);
    // The counters answer any number of documents exactly, with their totals.
    const all = (await t.call('GET', '/api/billing/documents?pageSize=10', { token: admin })).json();
    const everything = await documentTruth(sql`true`);
    expect(everything.total).toBeGreaterThan(NUMBERED_PAGE_ROWS);
    expect(all.total).toBe(everything.total);
    expect(all.totalCapped).toBeUndefined();
    expect(cents(all.sums.total)).toBe(everything.sums.total);
    // One of them by its document, and the agent's own branch, are few enough for exact totals.
    const one = (await t.call('GET', '/api/billing/documents?customer=70000007', { token: admin })).json();
    expect(one).toMatchObject({ total: 1, sums: { gravada: 10, igv: 1.8, total: 11.8 } });
    expect(one.totalCapped).toBeUndefined();
    const truth = await documentTruth(sql`(customer_name ilike '%huillca 7%' or customer_doc_number ilike '%huillca 7%') and branch_id = ${lima}`);
    const some = (await t.call('GET', '/api/billing/documents?customer=huillca 7', { token: agent })).json();
    expect(some.total).toBe(truth.total);
    expect(some.total).toBeGreaterThan(100);
    expect(cents(some.sums.total)).toBe(truth.sums.total);
  });

  it('finds a whole document number anywhere in a number, in any case, in any year, with the totals of the documents that hold it', async () => {
    const db = t.database.db;
    const from = Number((await rows<{ n: number }>(sql`select coalesce(max(number), 0) + 1 as n from documents where series = 'B079'`))[0]!.n);
    // A DNI alone and inside its holder's RUC (10 + DNI + a digit), a foreigner's card with letters
    // in both cases, and a number that holds only part of the DNI; last year and years before.
    const numbers = ['46182735', '10461827351', '46182735', 'cE46182735x', '4618273', '20461827399', 'Ce46182735X'];
    await db.execute(sql`
      insert into documents (type, series, number, status, issue_date, customer_doc_type, customer_doc_number, customer_name,
        gravada, exonerada, inafecta, igv, total, document, branch_id, user_name)
      select '03', 'B079', ${from} + i, 'aceptado', current_date - i * 300, '1', (array[${sql.join(
        numbers.map((n) => sql`${n}`),
        sql`, `,
      )}]::text[])[i + 1], 'Cliente B079 ' || i,
        10 + i, 0, 0, 1.80, 11.80 + i, '{}'::jsonb, ${lima}, 'Carga masiva'
      from generate_series(0, ${numbers.length - 1}) i`);
    // The page too: a whole number's holders found first, then ordered (numberHolders), a shorter term through the trigrams.
    const newest = async (term: string) =>
      (
        await rows<{ id: number }>(sql`select id from documents where customer_name ilike ${`%${term}%`} or customer_doc_number ilike ${`%${term}%`}
          order by issue_date desc, id desc limit 3`)
      ).map((r) => Number(r.id));
    for (const term of ['46182735', 'CE46182735X', '1046182735', '461827', '20461827399']) {
      const truth = await documentTruth(sql`customer_name ilike ${`%${term}%`} or customer_doc_number ilike ${`%${term}%`}`);
      const body = (await t.call('GET', `/api/billing/documents?customer=${term}&pageSize=3`, { token: admin })).json();
      expect(truth.total, term).toBeGreaterThan(0);
      expect(body.total, term).toBe(truth.total);
      expect(cents(body.sums.total), term).toBe(truth.sums.total);
      expect(cents(body.sums.gravada), term).toBe(truth.sums.gravada);
      expect(
        body.items.map((d: { id: number }) => d.id),
        term,
      ).toEqual(await newest(term));
    }
    // A number more documents hold than a page's holders may be: the register's newest first, through the trigrams.
    await db.execute(sql`
      insert into documents (type, series, number, status, issue_date, customer_doc_type, customer_doc_number, customer_name,
        gravada, exonerada, inafecta, igv, total, document, branch_id, user_name)
      select '01', 'F079', ${from} + i, 'aceptado', current_date - (i % 400), '6', '20999999991', 'Empresa Frecuente SAC',
        10, 0, 0, 1.80, 11.80, '{}'::jsonb, ${lima}, 'Carga masiva'
      from generate_series(0, ${NUMBERED_PAGE_ROWS}) i`);
    const frequent = (await t.call('GET', '/api/billing/documents?customer=20999999991&pageSize=3', { token: admin })).json();
    expect(frequent).toMatchObject({ total: NUMBERED_PAGE_ROWS, totalCapped: true });
    expect(frequent.items.map((d: { id: number }) => d.id)).toEqual(await newest('20999999991'));
    // A whole number's totals read the index of the numbers' parts (migration 0110), a shorter term the trigrams.
    const plan = async (customer: string) => {
      await db.execute(sql`set enable_seqscan = off`);
      try {
        return await planOf(sql`${registerSumsQuery(db, { customer }, 'all')}`);
      } finally {
        await db.execute(sql`set enable_seqscan = on`);
      }
    };
    expect(await plan('20461827399')).toContain('documents_customer_doc_fragments');
    expect(await plan('4618273')).toContain('documents_customer_doc_trgm');
  });

  it("finds a customer's documents of the last year and of years before alike, newest first, with exact totals", async () => {
    const db = t.database.db;
    const from = Number((await rows<{ n: number }>(sql`select coalesce(max(number), 0) + 1 as n from documents where series = 'B078'`))[0]!.n);
    // Three documents of the last year and three of two years ago (older than document_search_recent keeps).
    await db.execute(sql`
      insert into documents (type, series, number, status, issue_date, customer_doc_type, customer_doc_number, customer_name,
        gravada, exonerada, inafecta, igv, total, document, branch_id, user_name)
      select '03', 'B078', ${from} + i, 'aceptado', current_date - (case when i < 3 then i * 100 else 700 + i end), '1',
        lpad((71000000 + i)::text, 8, '0'), 'Teodora Ccama ' || i, 10, 0, 0, 1.80, 11.80, '{}'::jsonb, ${lima}, 'Carga masiva'
      from generate_series(0, 5) i`);
    // One renamed into the name after it was issued, one renamed out of it, one moved two years back.
    await db.execute(sql`update documents set customer_name = 'Teodora Ccama 9' where series = 'F050' and number = 1001`);
    await db.execute(sql`update documents set customer_name = 'Otra Persona' where series = 'B078' and number = ${from + 1}`);
    await db.execute(sql`update documents set issue_date = issue_date - 730 where series = 'B078' and number = ${from + 2}`);
    const truth = await rows<{ id: number }>(
      sql`select id from documents where customer_name ilike '%ccama%' or customer_doc_number ilike '%ccama%' order by issue_date desc, id desc`,
    );
    expect(truth.length).toBe(6);
    for (const pageSize of [1, 2, 10]) {
      const body = (await t.call('GET', `/api/billing/documents?customer=ccama&pageSize=${pageSize}`, { token: admin })).json();
      expect(
        body.items.map((d: { id: number }) => d.id),
        `pageSize ${pageSize}`,
      ).toEqual(truth.slice(0, pageSize).map((r) => r.id));
      expect(body.total, `pageSize ${pageSize}`).toBe(6);
    }
    const next = (await t.call('GET', '/api/billing/documents?customer=ccama&pageSize=2', { token: admin })).json();
    const second = (await t.call('GET', `/api/billing/documents?customer=ccama&pageSize=2&page=2&after=${next.next}`, { token: admin })).json();
    expect(second.items.map((d: { id: number }) => d.id)).toEqual(truth.slice(2, 4).map((r) => r.id));
    // The recent table agrees with the documents of its 400 days; the prune takes out what fell out of them.
    await db.execute(sql`
      insert into document_search_recent (document_id, issue_date, customer_name, customer_doc_number)
      select id, issue_date, customer_name, customer_doc_number from documents where series = 'B078' and number = ${from + 5}`);
    expect(await pruneDocumentSearch(db)).toBe(1);
    const [apart] = await rows<{ n: number }>(sql`
      select count(*)::int as n from (
        (select id, issue_date, customer_name, customer_doc_number from documents where issue_date >= current_date - 400
         except select document_id, issue_date, customer_name, customer_doc_number from document_search_recent)
        union all
        (select document_id, issue_date, customer_name, customer_doc_number from document_search_recent
         except select id, issue_date, customer_name, customer_doc_number from documents)) d`);
    expect(apart!.n).toBe(0);
  });

  it('refuses a register or movements bound that has the shape of a day but is none of the calendar, in Spanish, and answers the rest', async () => {
    for (const url of ['/api/billing/documents', '/api/payments/report/movements']) {
      for (const bad of ['dateFrom=2026-13-45', 'dateTo=2026-02-30', 'dateFrom=9999-99-99']) {
        const res = await t.call('GET', `${url}?${bad}`, { token: admin });
        expect(res.statusCode, `${url}?${bad}`).toBe(400);
        expect(res.json().error, `${url}?${bad}`).toContain(INVALID_DAY_MESSAGE);
      }
      // A real leap day is a day.
      expect((await t.call('GET', `${url}?dateFrom=2024-02-29&dateTo=2024-02-29`, { token: admin })).statusCode).toBe(200);
    }
  });

  const planOf = async (query: SQL) =>
    (await rows<Record<string, string>>(sql`explain select * from (${query}) q`)).map((r) => Object.values(r)[0]).join('\n');

  it('reads the counters, not the documents nor the payments, for unfiltered and key-filtered totals; the scan only for a customer', async () => {
    const db = t.database.db;
    for (const filters of [{}, { type: '01', status: 'aceptado', dateFrom: daysAgo(30) }] as DocumentFilters[]) {
      for (const scope of ['all', lima] as const) {
        const plan = await planOf(sql`${registerSumsQuery(db, filters, scope)}`);
        expect(plan).not.toMatch(/ on documents\b/);
        // With no dates, only the all-time rows: nothing that grows with the days or the months.
        if (filters.dateFrom) expect(plan).toContain('document_monthly_totals');
        else expect(plan).toMatch(/document_all_time_totals(?![\s\S]*(document_monthly_totals|document_daily_totals))/);
      }
    }
    expect(await planOf(sql`${registerSumsQuery(db, { customer: 'quispe' }, 'all')}`)).toMatch(/ on documents\b/);
    for (const filters of [{}, { method: 'cash', dateFrom: daysAgo(7), dateTo: today }] as MovementFilters[]) {
      for (const scope of ['all', lima] as const) {
        const plan = await planOf(sql`${movementGroupsQuery(db, filters, scope)}`);
        expect(plan).not.toMatch(/ on payments\b/);
        // With no dates, only the all-time rows, as the register's.
        if (filters.dateFrom) expect(plan).toContain('payment_daily_totals');
        else expect(plan).toMatch(/payment_all_time_totals(?![\s\S]*(payment_monthly_totals|payment_daily_totals))/);
      }
    }
  });
});
