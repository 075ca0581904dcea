// The receipt cases of `bench writes` (issue 37 item 4): payments with their receipt at the
// counter (POST /api/payments/manual: the payment, its boleta numbered on BBB1, signed by the
// sandbox, confirmed) and emissions on one series (POST /api/billing/create-emit, facturas FFF1),
// each by N clients from a worker thread (_receipts-driver.mjs), then each series checked gapless.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { limaDay } from '@tramo/domain';
import type { Db } from '../apps/api/src/db/client.ts';

export interface DriveResult {
  done: number;
  failed: number;
  latencies: number[];
  ranOut: boolean;
}

const post = async (base: string, url: string, token: string | null, body: unknown) => {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${url}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json;
};

/** `clients` cashiers of Lima, each with a session of its own (a counter has one cashier per till). */
async function cashiers(base: string, adminToken: string, lima: number, clients: number): Promise<string[]> {
  const stamp = Date.now().toString(36).toUpperCase();
  const tokens: string[] = [];
  for (let i = 0; i < clients; i++) {
    const username = `CAJA${stamp}${i}`;
    const created = (await post(base, '/api/users', adminToken, {
      username,
      role: 'agent',
      branchId: lima,
      firstName: 'Caja',
      lastName: String(i),
    })) as {
      tempPassword: string;
    };
    const login = (await post(base, '/api/auth/login', null, { username, password: created.tempPassword })) as { token: string };
    const changed = (await post(base, '/api/auth/change-password', login.token, { newPassword: `caja-${stamp}-${i}` })) as { token: string };
    tokens.push(changed.token);
  }
  return tokens;
}

/**
 * `count` shipments of today, Lima → Cusco, still 'Creado' (collectable at Lima's counter): one
 * created through the API (its price and price components as a real one has them), then copied by
 * SQL with codes of their own. Answers their ids and the amount each owes.
 */
async function payableShipments(db: Db, base: string, token: string, route: readonly [number, number], count: number) {
  const template = (await post(base, '/api/shipments', token, {
    senderName: 'Comercial Andina SAC',
    recipientDoc: '45879612',
    recipientFirstName: 'María',
    recipientLastName: 'Flores Ccori',
    originBranchId: route[0],
    destinationBranchId: route[1],
    lines: [{ productType: 'medio', weightKg: 14 }],
    secretCode: 'clave-7',
  })) as { id: number; quotedPrice: number };
  const columns = (
    await db.execute(sql`select column_name as c from information_schema.columns
      where table_name = 'shipments' and table_schema = current_schema() and column_name not in ('id', 'code') and is_generated = 'NEVER'
      order by ordinal_position`)
  ).rows.map((r) => `"${(r as { c: string }).c}"`);
  const list = sql.raw(columns.join(', '));
  const inserted = await db.execute(sql`
    insert into shipments (code, ${list})
    select 'TMT-' || lpad(n::text, greatest(6, length(n::text)), '0'), ${list}
    from (select nextval('shipment_code_seq') as n from generate_series(1, ${count})) codes, shipments where id = ${template.id}
    returning id`);
  return { ids: inserted.rows.map((r) => Number((r as { id: number }).id)).sort((a, b) => a - b), amount: template.quotedPrice };
}

export interface ReceiptCase {
  label: string;
  series: string;
  run: () => Promise<DriveResult>;
}

/** The two receipt cases at `clients`, ready to run for `seconds` each (the shipments to pay made beforehand). */
export async function receiptCases(options: {
  db: Db;
  base: string;
  adminToken: string;
  lima: number;
  cusco: number;
  clients: number;
  seconds: number;
  /** Payments a second the shipments to pay are made for (the case stops early, and says so, past them). */
  ceiling: number;
}): Promise<ReceiptCase[]> {
  const { db, base, adminToken, clients, seconds } = options;
  const tokens = await cashiers(base, adminToken, options.lima, clients);
  const { ids, amount } = await payableShipments(db, base, adminToken, [options.lima, options.cusco], options.ceiling * seconds);
  const today = limaDay(new Date());
  const drive = async (kind: 'payments' | 'emissions') => {
    const worker = new Worker(new URL('./_receipts-driver.mjs', import.meta.url), {
      workerData: { base, kind, tokens: kind === 'payments' ? tokens : Array(clients).fill(adminToken), shipments: ids, amount, seconds, today },
    });
    const [result] = (await once(worker, 'message')) as [DriveResult];
    await worker.terminate();
    result.latencies.sort((a, b) => a - b);
    return result;
  };
  return [
    { label: 'API POST /payments/manual (boleta)', series: 'BBB1', run: () => drive('payments') },
    { label: 'API POST /billing/create-emit (FFF1)', series: 'FFF1', run: () => drive('emissions') },
  ];
}

/** Whether a series holds 1..last with no gap and no duplicate, and how many it holds. */
export async function seriesGapless(db: Db, series: string): Promise<{ count: number; last: number; gapless: boolean }> {
  const row = (
    await db.execute(sql`select count(*)::int as n, count(distinct number)::int as d, coalesce(max(number), 0)::int as last,
      (select last_number from document_series where series = ${series}) as counter
      from documents where series = ${series}`)
  ).rows[0] as { n: number; d: number; last: number; counter: number | null };
  const count = Number(row.n);
  const last = Number(row.last);
  return { count, last, gapless: count === last && Number(row.d) === count && Number(row.counter ?? 0) === last };
}
