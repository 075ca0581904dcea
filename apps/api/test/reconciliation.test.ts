import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { LEDGER_CHECK_TEXTS, LEDGER_CHECKS, type LedgerCheck, type Reconciliation } from '@tramo/domain';
import { openEmbedded } from '../src/db/client.ts';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-ledger-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(engines)('ledger check (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;
  /** Records the activity left: a paid payment (with its shipment and receipt), a cash movement, a sent message. */
  const ids = {
    paidPayment: 0,
    paidShipment: 0,
    receipt: 0,
    session: 0,
    message: 0,
    messageStatus: '',
    receiptType: '',
    receiptSeries: '',
    receiptKey: '',
    paymentKey: '',
    paymentKeyCents: 0,
  };

  beforeAll(async () => {
    billing = await sandboxBilling('ledger-api');
    t = await startTestApp(engine, {
      seed: (db, branchIds) => seedLimaPrices(db, branchIds, ['Arequipa'], { liviano: [[1, 1000, '12.34']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    [admin, agent] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1')]);
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const route = () => ({ originBranchId: t.branchIds.get('Lima')!, destinationBranchId: t.branchIds.get('Arequipa')! });
  const exec = (query: SQL) => t.database.db.execute(query);
  /** Writes as a broken database would: the triggers that refuse such writes are off for this transaction only. */
  const breakWith = (...statements: SQL[]) =>
    t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      for (const statement of statements) await tx.execute(statement);
    });
  const check = async () => {
    const res = await t.call('GET', '/api/reconciliation', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Reconciliation;
  };
  const failing = (r: Reconciliation) => r.checks.filter((c) => c.count > 0).map((c) => c.check);
  const of = (r: Reconciliation, name: LedgerCheck) => r.checks.find((c) => c.check === name)!;

  /** `npm run check:ledger` as a child process against this test's database (the embedded one copied to a data directory). */
  async function runScript() {
    let env: Record<string, string>;
    if (engine === 'postgres') {
      const name = ((await exec(sql`select current_database() as name`)).rows[0] as { name: string }).name;
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      env = { DATABASE_URL: url.toString() };
    } else {
      const dataDir = fs.mkdtempSync(path.join(tmp, 'data-'));
      const copy = await openEmbedded(path.join(dataDir, 'pgdata'), await t.database.pglite!.dumpDataDir('none'));
      await copy.close();
      env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    }
    return spawnSync(tsx, [path.join(root, 'apps/api/src/scripts/check-ledger.ts')], {
      cwd: root,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 90_000,
    });
  }

  it('after shipments, payments with receipts, a void and a closed cash session, every check holds (HTTP and script)', async () => {
    const paid: { payment: number; shipment: number; document: number }[] = [];
    for (const weightKg of [1, 2.5, 10]) {
      const shipment = (
        await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route(), { lines: [{ productType: 'liviano', weightKg }] }) })
      ).json();
      const res = await t.call('POST', '/api/payments/manual', {
        token: agent,
        body: {
          shipmentId: shipment.id,
          customerName: 'María Flores Ccori',
          customerDocNumber: '45879612',
          amount: shipment.quotedPrice,
          currency: 'PEN',
          methodCode: 'cash',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const p = res.json().payment;
      paid.push({ payment: p.id, shipment: shipment.id, document: p.documentId });
    }
    // A shipment announced to its recipient (an outbox message), left unpaid: a receivable.
    const unpaid = await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route(), { recipientEmail: 'maria@correo.pe' }) });
    expect(unpaid.statusCode, unpaid.body).toBe(201);
    const [message] = (await exec(sql`select id, status from notification_outbox where shipment_id = ${unpaid.json().id} order by id limit 1`))
      .rows as {
      id: number;
      status: string;
    }[];
    Object.assign(ids, { message: Number(message!.id), messageStatus: message!.status });
    const voided = await t.call('POST', `/api/payments/manual/${paid[2]!.payment}/cancel`, { token: agent, body: { motivo: 'Error de cobro' } });
    expect(voided.statusCode, voided.body).toBe(200);
    const session = (await t.call('GET', '/api/payments/cash-sessions/current', { token: agent })).json().session;
    const closed = await t.call('POST', `/api/payments/cash-sessions/${session.id}/close`, { token: agent, body: { countedCash: '50' } });
    expect(closed.statusCode, closed.body).toBe(200);
    const [receipt] = (
      await exec(
        sql`select type, series, concat_ws(' / ', coalesce(branch_id, 0), type, series, status, currency) as key from documents where id = ${paid[0]!.document}`,
      )
    ).rows as { type: string; series: string; key: string }[];
    Object.assign(ids, { receiptType: receipt!.type, receiptSeries: receipt!.series, receiptKey: receipt!.key });
    // The paid payment's key in Movimientos' counters, and the céntimos of its payments there.
    const [payment] = (
      await exec(
        sql`select concat_ws(' / ', coalesce(p.branch_id, 0), p.user_id, p.method, p.status) as key,
              (select sum(q.amount_cents) from payments q where coalesce(q.branch_id, 0) = coalesce(p.branch_id, 0) and q.user_id = p.user_id and q.method = p.method and q.status = p.status)::int as cents
            from payments p where p.id = ${paid[0]!.payment}`,
      )
    ).rows as { key: string; cents: number }[];
    Object.assign(ids, { paymentKey: payment!.key, paymentKeyCents: Number(payment!.cents) });
    Object.assign(ids, { paidPayment: paid[0]!.payment, paidShipment: paid[0]!.shipment, receipt: paid[0]!.document, session: session.id });

    const result = await check();
    expect(result).toMatchObject({ ok: true, violations: 0 });
    expect(result.checks.map((c) => c.check)).toEqual([...LEDGER_CHECKS]);
    for (const c of result.checks) expect(c).toMatchObject({ ...LEDGER_CHECK_TEXTS[c.check], count: 0, violations: [] });

    const script = await runScript();
    expect(script.status, script.stderr).toBe(0);
    expect(script.stdout).toContain(`Conciliación: sin violaciones en ${LEDGER_CHECKS.length} comprobaciones.`);
  });

  it('is for admins only: agents and couriers get 403', async () => {
    expect((await t.call('GET', '/api/reconciliation', { token: agent })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/reconciliation', { token: await t.login('REPARTIDOR1') })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/reconciliation')).statusCode).toBe(401);
  });

  /** Each invariant broken in SQL, then restored: the checks that must report it, and the record they must name. */
  const breaks: {
    name: string;
    reported: LedgerCheck[];
    /** How many records each reported check names, when not one. */
    counts?: Partial<Record<LedgerCheck, number>>;
    record: () => { table: string; id: string; values?: Record<string, unknown> };
    apply: () => SQL[];
    restore: () => SQL[];
  }[] = [
    {
      // Written past the counters' triggers too: Movimientos' totals miss it on its day, its month and all time.
      name: 'a second live payment for a shipment',
      reported: ['one_live_payment', 'payment_totals'],
      counts: { payment_totals: 3 },
      record: () => ({ table: 'shipments', id: String(ids.paidShipment) }),
      apply: () => [
        sql`drop index payments_one_live_per_shipment_uq`,
        sql`insert into payments (shipment_id, status, method, amount_cents, customer_doc_type, customer_doc_number, customer_name, branch_id, user_id, user_name, cash_session_id)
          select shipment_id, 'pending', method, amount_cents, customer_doc_type, customer_doc_number, customer_name, branch_id, user_id, user_name, cash_session_id
          from payments where id = ${ids.paidPayment}`,
      ],
      restore: () => [
        // Payments are kept for good (migration 0117): the test removes its own break past that guard.
        sql`alter table payments disable trigger payments_kept`,
        sql`delete from payments where shipment_id = ${ids.paidShipment} and status = 'pending'`,
        sql`alter table payments enable trigger payments_kept`,
        sql`create unique index payments_one_live_per_shipment_uq on payments (shipment_id) where status in ('pending', 'paid')`,
      ],
    },
    {
      // The list counts a paid shipment as settled, so what it was paid short is missing there too.
      name: 'a paid payment that does not cover its shipment',
      reported: ['paid_equals_price', 'receivables'],
      record: () => ({ table: 'payments', id: String(ids.paidPayment) }),
      apply: () => [sql`update payments set discount_cents = discount_cents + 150, discount_reason = 'roto a mano' where id = ${ids.paidPayment}`],
      restore: () => [sql`update payments set discount_cents = discount_cents - 150, discount_reason = null where id = ${ids.paidPayment}`],
    },
    {
      // Written past the counters' triggers: Comprobantes' totals still count it as accepted, on its
      // day, its month and all time (two keys each: the status it left and the one it took).
      name: 'a paid payment whose receipt was voided',
      reported: ['paid_has_receipt', 'document_totals'],
      counts: { document_totals: 6 },
      record: () => ({ table: 'payments', id: String(ids.paidPayment) }),
      apply: () => [sql`update documents set status = 'anulado' where id = ${ids.receipt}`],
      restore: () => [sql`update documents set status = 'aceptado' where id = ${ids.receipt}`],
    },
    {
      name: 'a charge in the cash ledger of another amount than its payment',
      reported: ['cash_session_balance'],
      record: () => ({ table: 'cash_sessions', id: String(ids.session) }),
      apply: () => [sql`update payment_movements set amount_cents = amount_cents + 1 where payment_id = ${ids.paidPayment} and kind = 'cobro'`],
      restore: () => [sql`update payment_movements set amount_cents = amount_cents - 1 where payment_id = ${ids.paidPayment} and kind = 'cobro'`],
    },
    {
      name: 'a series whose counter skipped a number',
      reported: ['document_series'],
      record: () => ({ table: 'document_series', id: `${ids.receiptType}-${ids.receiptSeries}` }),
      apply: () => [sql`update document_series set last_number = last_number + 1 where type = ${ids.receiptType} and series = ${ids.receiptSeries}`],
      restore: () => [
        sql`update document_series set last_number = last_number - 1 where type = ${ids.receiptType} and series = ${ids.receiptSeries}`,
      ],
    },
    {
      // The counter agrees with the highest number, but one number was given twice.
      name: 'a number given twice in a series',
      reported: ['document_series', 'document_totals'],
      counts: { document_totals: 3 },
      record: () => ({ table: 'document_series', id: `${ids.receiptType}-${ids.receiptSeries}`, values: { duplicates: 1 } }),
      apply: () => [
        sql`drop index documents_number_uq`,
        sql`update document_series set last_number = last_number + 1 where type = ${ids.receiptType} and series = ${ids.receiptSeries}`,
        sql`insert into documents
          select (jsonb_populate_record(null::documents, to_jsonb(d) || jsonb_build_object('id', -1, 'idempotency_key', null))).*
          from documents d where id = ${ids.receipt}`,
      ],
      restore: () => [
        sql`alter table documents disable trigger documents_kept`,
        sql`delete from documents where id = -1`,
        sql`alter table documents enable trigger documents_kept`,
        sql`update document_series set last_number = last_number - 1 where type = ${ids.receiptType} and series = ${ids.receiptSeries}`,
        sql`create unique index documents_number_uq on documents (type, series, number)`,
      ],
    },
    {
      name: "a counter of Comprobantes' totals changed by hand",
      reported: ['document_totals'],
      record: () => ({ table: 'document_totals', id: `histórico ${ids.receiptKey}` }),
      apply: () => [
        sql`update document_all_time_totals set n = n + 1 where concat_ws(' / ', branch_id, type, series, status, currency) = ${ids.receiptKey}`,
      ],
      restore: () => [
        sql`update document_all_time_totals set n = n - 1 where concat_ws(' / ', branch_id, type, series, status, currency) = ${ids.receiptKey}`,
      ],
    },
    {
      // Movimientos' totals without dates read these rows alone (migration 0111).
      name: "a counter of Movimientos' totals changed by hand",
      reported: ['payment_totals'],
      record: () => ({ table: 'payment_totals', id: `histórico ${ids.paymentKey}`, values: { keptCents: ids.paymentKeyCents + 1 } }),
      apply: () => [
        sql`update payment_all_time_totals set cents = cents + 1 where concat_ws(' / ', branch_id, user_id, method, status) = ${ids.paymentKey}`,
      ],
      restore: () => [
        sql`update payment_all_time_totals set cents = cents - 1 where concat_ws(' / ', branch_id, user_id, method, status) = ${ids.paymentKey}`,
      ],
    },
    {
      name: 'a paid shipment cancelled',
      reported: ['receivables'],
      record: () => ({ table: 'customers', id: 'n:comercial andina sac' }),
      apply: () => [sql`update shipments set status = 'Anulado' where id = ${ids.paidShipment}`],
      restore: () => [sql`update shipments set status = 'Creado' where id = ${ids.paidShipment}`],
    },
    {
      name: 'a message sent twice',
      reported: ['notification_once'],
      record: () => ({ table: 'notification_outbox', id: String(ids.message) }),
      apply: () => [
        sql`update notification_outbox set status = 'enviado', sent_at = now() where id = ${ids.message}`,
        sql`insert into notification_outbox (shipment_id, event_id, topic, channel, party, address, subject, body, link, idempotency_key, status, next_attempt_at, sent_at)
          select shipment_id, event_id, topic, channel, party, address, subject, body, link, idempotency_key || ':otra', 'enviado', next_attempt_at, now()
          from notification_outbox where id = ${ids.message}`,
      ],
      restore: () => [
        sql`delete from notification_outbox where idempotency_key like '%:otra'`,
        sql`update notification_outbox set status = ${ids.messageStatus}, sent_at = null where id = ${ids.message}`,
      ],
    },
  ];

  it.each(breaks)('reports $name, and nothing once it is restored', async ({ reported, counts, record, apply, restore }) => {
    await breakWith(...apply());
    try {
      const result = await check();
      expect(failing(result)).toEqual(reported);
      expect(result.ok).toBe(false);
      for (const name of reported) expect(of(result, name).count).toBe(counts?.[name] ?? 1);
      expect(of(result, reported[0]!).violations).toMatchObject([record()]);
    } finally {
      // Restored even when the check missed it, so the next break is seen alone.
      await breakWith(...restore());
    }
    expect(await check()).toMatchObject({ ok: true, violations: 0 });
  });

  it('the script prints every violation with its record and a summary, and exits non-zero', async () => {
    await breakWith(...breaks.flatMap((b) => b.apply()));
    const script = await runScript();
    expect(script.status, script.stderr).toBe(1);
    for (const b of breaks) {
      for (const name of b.reported) expect(script.stdout).toMatch(new RegExp(`FALLA ${LEDGER_CHECK_TEXTS[name].name}: [1-9]`));
      const { table, id } = b.record();
      expect(script.stdout).toContain(`${table} ${id}`);
    }
    expect(script.stdout).toMatch(new RegExp(`Conciliación: \\d+ violaciones en 9 de ${LEDGER_CHECKS.length} comprobaciones\\.`));
  });
});
