// The read cases of the money lists, shared by the benchmark of every read (shipments.ts, which
// `report` runs on a company's whole history) and the list benchmarks of their own (billing.ts,
// movements.ts): one list of cases, so the report and a single list's run measure the same requests.
import { sql } from 'drizzle-orm';
import type { Db } from '../apps/api/src/db/client.ts';

/** A case: its name, the GET's path and query, and the token it is sent with. */
export type ReadCase = [name: string, url: string, token: string];

/** A Lima calendar day `daysAgo` days back, as the lists' date filters take it. */
export const limaDate = (daysAgo: number) => new Date(Date.now() - 5 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);

const first = async (db: Db, query: ReturnType<typeof sql>) => ((await db.execute(query)).rows[0] as { c: string } | undefined)?.c ?? '';

/** The register's cursors halfway down and 26 rows from its end, as GET /api/billing/documents answers them. */
export async function documentCursors(db: Db, count: number) {
  const at = (offset: number) =>
    first(
      db,
      sql`select (issue_date - date '1970-01-01')::text || '.' || id as c from documents order by issue_date desc, id desc offset ${offset} limit 1`,
    );
  return { middle: await at(Math.floor(count / 2)), nearEnd: await at(Math.max(0, count - 26)) };
}

/** The movements' cursors halfway down and 21 rows from the end, as GET /api/payments/report/movements answers them. */
export async function movementCursors(db: Db, count: number) {
  const at = (offset: number) =>
    first(
      db,
      sql`select ((extract(epoch from created_at) * 1000000)::bigint)::text || '.' || id as c from payments order by created_at desc, id desc offset ${offset} limit 1`,
    );
  return { middle: await at(Math.floor(count / 2)), nearEnd: await at(Math.max(0, count - 21)) };
}

/** Comprobantes (GET /api/billing/documents): page 1, the last numbered page, keyset pages and filters. */
export function documentCases(t: { admin: string; agent: string; middle: string; nearEnd: string; series: string; ruc: string }): ReadCase[] {
  return [
    ['página 1 (admin)', '/api/billing/documents?page=1&pageSize=25', t.admin],
    ['página 1 agente (su sucursal)', '/api/billing/documents?page=1&pageSize=25', t.agent],
    ['página 40 (última numerada)', '/api/billing/documents?page=40&pageSize=25', t.admin],
    ['a mitad (cursor)', `/api/billing/documents?page=2&pageSize=25&after=${t.middle}`, t.admin],
    ['cerca del final (cursor)', `/api/billing/documents?page=2&pageSize=25&after=${t.nearEnd}`, t.admin],
    ['agente a mitad (cursor)', `/api/billing/documents?page=2&pageSize=25&after=${t.middle}`, t.agent],
    ['filtro tipo factura', '/api/billing/documents?type=01', t.admin],
    [`filtro serie ${t.series}`, `/api/billing/documents?series=${t.series}`, t.admin],
    ['filtro estado anulado', '/api/billing/documents?status=anulado', t.admin],
    ['filtro rango 7 días', `/api/billing/documents?dateFrom=${limaDate(6)}&dateTo=${limaDate(0)}`, t.admin],
    ['filtro factura + 30 días', `/api/billing/documents?type=01&dateFrom=${limaDate(29)}&dateTo=${limaDate(0)}`, t.admin],
    ['filtro cliente nombre (quispe)', '/api/billing/documents?customer=quispe', t.admin],
    ['filtro cliente RUC', `/api/billing/documents?customer=${t.ruc}`, t.admin],
  ];
}

/** Movimientos (GET /api/payments/report/movements): page 1, numbered and keyset pages, filters. */
export function movementCases(t: { admin: string; agent: string; middle: string; nearEnd: string; userId: number }): ReadCase[] {
  const month = `dateFrom=${limaDate(29)}&dateTo=${limaDate(0)}`;
  return [
    ['página 1 (admin)', '/api/payments/report/movements?page=1&pageSize=20', t.admin],
    ['página 1 agente (su sucursal)', '/api/payments/report/movements?page=1&pageSize=20', t.agent],
    ['página 10 de 100 (última numerada)', '/api/payments/report/movements?page=10&pageSize=100', t.admin],
    ['a mitad (cursor)', `/api/payments/report/movements?page=2&pageSize=20&after=${t.middle}`, t.admin],
    ['cerca del final (cursor)', `/api/payments/report/movements?page=2&pageSize=20&after=${t.nearEnd}`, t.admin],
    ['efectivo a mitad (cursor)', `/api/payments/report/movements?method=cash&page=2&after=${t.middle}`, t.admin],
    ['rango 7 días', `/api/payments/report/movements?dateFrom=${limaDate(6)}&dateTo=${limaDate(0)}`, t.admin],
    ['30 días + efectivo', `/api/payments/report/movements?${month}&method=cash`, t.admin],
    ['30 días + sucursal 2 + anulado', `/api/payments/report/movements?${month}&branchId=2&status=canceled`, t.admin],
    ['método yape_qr', '/api/payments/report/movements?method=yape_qr', t.admin],
    ['estado pending', '/api/payments/report/movements?status=pending', t.admin],
    [`usuario ${t.userId} + 30 días`, `/api/payments/report/movements?userId=${t.userId}&${month}`, t.admin],
    ['un día (hace 10 días)', `/api/payments/report/movements?dateFrom=${limaDate(10)}&dateTo=${limaDate(10)}&pageSize=100`, t.admin],
  ];
}

/**
 * What is owed (issue 37): Cuentas por cobrar per customer (admin, an agent's branch, a search),
 * 'Por cobrar en destino' per branch, the credit accounts with their balances, and the month's
 * Registro de Ventas.
 */
export function receivableCases(t: { admin: string; agent: string }): ReadCase[] {
  return [
    ['cuentas por cobrar (clientes)', '/api/receivables/customers', t.admin],
    ['cuentas por cobrar agente', '/api/receivables/customers', t.agent],
    ['cuentas por cobrar q=comercial', '/api/receivables/customers?q=comercial', t.admin],
    ['por cobrar en destino (sucursales)', '/api/receivables/destination-branches', t.admin],
    ['crédito: cuentas con saldo', '/api/credit/accounts', t.admin],
    ['registro de ventas del mes', `/api/billing/registro-ventas?mes=${limaDate(0).slice(0, 7)}`, t.admin],
  ];
}
