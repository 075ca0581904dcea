import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@tramo/domain';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * DESIGN.md section 4 as a table: who may call each operation of the OpenAPI document, and which
 * operations act on a branch's shipment or document (an agent or courier of another branch gets 403).
 * An operation the API serves and this table does not list fails the test, so every endpoint a
 * later issue adds is covered the day it appears.
 */
const ALL: readonly Role[] = ['admin', 'agent', 'courier'];
const STAFF: readonly Role[] = ['admin', 'agent'];
const ADMIN: readonly Role[] = ['admin'];
const PUBLIC = 'public' as const;

type Scope = 'shipment' | 'document';
interface Rule {
  roles: readonly Role[] | typeof PUBLIC;
  /** Acts on one branch's object: another branch's agent and courier are refused. */
  scope?: Scope;
}

const MATRIX: Record<string, Rule> = {
  'GET /api/health': { roles: PUBLIC },
  'POST /api/auth/login': { roles: PUBLIC },
  'POST /api/auth/change-password': { roles: ALL },
  'GET /api/auth/me': { roles: ALL },
  'GET /api/users': { roles: ADMIN },
  'POST /api/users': { roles: ADMIN },
  'PUT /api/users/{id}': { roles: ADMIN },
  'DELETE /api/users/{id}': { roles: ADMIN },
  'POST /api/users/{id}/reset-password': { roles: ADMIN },
  'POST /api/users/{id}/unlock': { roles: ADMIN },
  // Every screen's branch selects read the list; changing branches is for admins.
  'GET /api/branches': { roles: ALL },
  'POST /api/branches': { roles: ADMIN },
  'PUT /api/branches/{id}': { roles: ADMIN },
  'DELETE /api/branches/{id}': { roles: ADMIN },
  'GET /api/shipments': { roles: ALL },
  'POST /api/shipments': { roles: STAFF },
  'GET /api/shipments/search': { roles: ALL },
  'GET /api/shipments/code/{code}': { roles: ALL },
  'GET /api/shipments/{id}': { roles: ALL, scope: 'shipment' },
  'PUT /api/shipments/{id}': { roles: STAFF, scope: 'shipment' },
  'DELETE /api/shipments/{id}': { roles: ALL, scope: 'shipment' },
  'PATCH /api/shipments/{id}/status': { roles: ALL, scope: 'shipment' },
  'POST /api/shipments/{id}/checkpoints': { roles: ALL, scope: 'shipment' },
  'DELETE /api/shipments/{id}/checkpoints/{checkpointId}': { roles: ALL, scope: 'shipment' },
  'PUT /api/shipments/{id}/secret-code': { roles: ALL, scope: 'shipment' },
  'PUT /api/shipments/{id}/description': { roles: ALL, scope: 'shipment' },
  'POST /api/shipments/{id}/return': { roles: STAFF, scope: 'shipment' },
  'POST /api/shipments/{id}/deliver': { roles: ALL, scope: 'shipment' },
  'GET /api/shipments/{id}/assignment': { roles: ALL, scope: 'shipment' },
  'GET /api/dashboard': { roles: ALL },
  'GET /api/deliveries/agents': { roles: ALL },
  'GET /api/customers': { roles: STAFF },
  'POST /api/customers': { roles: STAFF },
  'GET /api/customers/{id}': { roles: STAFF },
  'PUT /api/customers/{id}': { roles: STAFF },
  'DELETE /api/customers/{id}': { roles: STAFF },
  'GET /api/lookup/dni/{n}': { roles: STAFF },
  'GET /api/lookup/ruc/{n}': { roles: STAFF },
  'GET /api/weight-factors/quote': { roles: STAFF },
  'GET /api/weight-factors/summary': { roles: STAFF },
  // Route reference values of the freight detracción (issue 32): staff read them to bill, admins set them.
  'GET /api/pricing/reference-values': { roles: STAFF },
  'PUT /api/pricing/reference-values': { roles: ADMIN },
  'GET /api/weight-factors': { roles: STAFF },
  'POST /api/weight-factors': { roles: STAFF },
  'PUT /api/weight-factors/{id}/tiers': { roles: STAFF },
  'GET /api/transports': { roles: STAFF },
  'POST /api/transports': { roles: STAFF },
  'GET /api/transports/loadable-shipments': { roles: STAFF },
  'PUT /api/transports/{id}': { roles: STAFF },
  'DELETE /api/transports/{id}': { roles: STAFF },
  'GET /api/transports/{id}/assignments': { roles: STAFF },
  'POST /api/transports/{id}/assignments': { roles: STAFF },
  'DELETE /api/transports/{id}/assignments/{assignmentId}': { roles: STAFF },
  'GET /api/transports/loaded-plates': { roles: ALL },
  'GET /api/transports/{id}/trip': { roles: STAFF },
  'GET /api/transports/{id}/trips': { roles: STAFF },
  'POST /api/transports/{id}/departure': { roles: STAFF },
  'POST /api/transports/{id}/arrival': { roles: STAFF },
  'POST /api/transports/{id}/scan': { roles: STAFF },
  'GET /api/transports/{id}/unload-check': { roles: STAFF },
  'POST /api/transports/{id}/unload-scans': { roles: STAFF },
  'GET /api/transports/{id}/manifest.pdf': { roles: STAFF },
  'GET /api/trips/{id}/manifest.pdf': { roles: STAFF },
  'GET /api/incidents/open': { roles: ALL },
  'GET /api/shipments/{id}/incidents': { roles: ALL, scope: 'shipment' },
  'POST /api/shipments/{id}/incidents': { roles: ALL, scope: 'shipment' },
  'POST /api/incidents/{id}/close': { roles: ALL },
  // Issue 36: documents with expiry and the admin's override of the document gate.
  'GET /api/transports/{id}/documents': { roles: STAFF },
  'POST /api/transports/{id}/documents': { roles: STAFF },
  'DELETE /api/transports/{id}/documents/{documentId}': { roles: STAFF },
  'GET /api/transports/{id}/documents/{documentId}/file': { roles: STAFF },
  'GET /api/drivers/{id}/documents': { roles: STAFF },
  'POST /api/drivers/{id}/documents': { roles: STAFF },
  'DELETE /api/drivers/{id}/documents/{documentId}': { roles: STAFF },
  'GET /api/drivers/{id}/documents/{documentId}/file': { roles: STAFF },
  'GET /api/fleet-documents': { roles: STAFF },
  'GET /api/transports/{id}/compliance': { roles: STAFF },
  'POST /api/transports/{id}/compliance-override': { roles: ADMIN },
  'GET /api/drivers': { roles: STAFF },
  'POST /api/drivers': { roles: STAFF },
  'PUT /api/drivers/{id}': { roles: STAFF },
  'DELETE /api/drivers/{id}': { roles: STAFF },
  'POST /api/billing/create-emit': { roles: STAFF },
  'POST /api/billing/emit': { roles: STAFF },
  'GET /api/billing/lookup/{id}': { roles: STAFF, scope: 'document' },
  'POST /api/billing/void': { roles: STAFF, scope: 'document' },
  'GET /api/billing/void-status/{id}': { roles: STAFF, scope: 'document' },
  'GET /api/billing/documents': { roles: STAFF },
  'GET /api/billing/documents/{id}/pdf': { roles: STAFF, scope: 'document' },
  'GET /api/billing/documents/{id}/xml': { roles: STAFF, scope: 'document' },
  'GET /api/billing/unbilled-shipments': { roles: STAFF },
  // The credit-note form's picker of the document it modifies (issue 32).
  'GET /api/billing/creditable': { roles: STAFF },
  // Issue 32: the void's RA/RC as any document's XML; the Registro de Ventas is the admin's (the company's monthly book).
  'GET /api/billing/documents/{id}/void-xml': { roles: STAFF, scope: 'document' },
  'GET /api/billing/registro-ventas': { roles: ADMIN },
  'GET /api/billing/registro-ventas.txt': { roles: ADMIN },
  'GET /api/billing/registro-ventas.csv': { roles: ADMIN },
  // Guides and vouchers (issue 15): as billing; the provider operations act on a branch's document.
  'POST /api/guides/create-emit': { roles: STAFF },
  'POST /api/guides/consult': { roles: STAFF },
  'POST /api/retencion/create-emit': { roles: STAFF },
  'POST /api/percepcion/create-emit': { roles: STAFF },
  'POST /api/payments/nubefact/consult': { roles: STAFF, scope: 'document' },
  'POST /api/payments/nubefact/annul': { roles: STAFF, scope: 'document' },
  'POST /api/payments/nubefact/annul-status': { roles: STAFF, scope: 'document' },
  'GET /api/transports/{id}/carrier-guide': { roles: STAFF },
  'POST /api/transports/{id}/carrier-guide': { roles: STAFF },
  'POST /api/transports/{id}/carrier-guides': { roles: STAFF },
  'PUT /api/shipments/{id}/sender-guide': { roles: STAFF, scope: 'shipment' },
  // Payments, receivables, movements and cash sessions (issue 14): admins and agents; agents see their branch.
  'GET /api/payments/methods': { roles: STAFF },
  'GET /api/payments/manual': { roles: STAFF },
  'POST /api/payments/manual': { roles: STAFF },
  'GET /api/payments/manual/{id}': { roles: STAFF },
  'POST /api/payments/manual/{id}/confirm': { roles: STAFF },
  'POST /api/payments/manual/{id}/cancel': { roles: STAFF },
  'POST /api/payments/payments/{id}/cancel': { roles: STAFF },
  'GET /api/payments/customers-lookup': { roles: STAFF },
  'GET /api/payments/customers/{id}': { roles: STAFF },
  'GET /api/payments/receivables': { roles: STAFF },
  'GET /api/receivables/customers': { roles: STAFF },
  'GET /api/payments/report/movements': { roles: STAFF },
  'GET /api/payments/report/movements.csv': { roles: STAFF },
  'GET /api/payments/report/daily': { roles: STAFF },
  'GET /api/payments/cash-sessions/current': { roles: STAFF },
  'GET /api/payments/cash-sessions': { roles: STAFF },
  'POST /api/payments/cash-sessions': { roles: STAFF },
  'POST /api/payments/cash-sessions/{id}/close': { roles: STAFF },
  // The customer's side (issue 18): no token; an unknown code is a 404.
  'GET /api/public/tracking/{code}': { roles: PUBLIC },
  'GET /api/public/tracking/{code}/proof.pdf': { roles: PUBLIC },
  'GET /api/tracking-links/{code}': { roles: ALL },
  // Proof of delivery (issue 18): read by the shipment's branches; the company rule is the admin's.
  'GET /api/deliveries/settings': { roles: ALL },
  'PUT /api/deliveries/settings': { roles: ADMIN },
  'GET /api/shipments/{id}/proof': { roles: ALL, scope: 'shipment' },
  'GET /api/shipments/{id}/proof.pdf': { roles: ALL, scope: 'shipment' },
  // Notifications (issue 18): the outbox screen is the admin's.
  'GET /api/notifications': { roles: ADMIN },
  'POST /api/notifications/{id}/resend': { roles: ADMIN },
  'GET /api/reconciliation': { roles: ADMIN },
  // Issue 33: who pays and when (origin branch only), the destination's list, the company's rules.
  'PUT /api/shipments/{id}/who-pays': { roles: STAFF, scope: 'shipment' },
  'GET /api/payments/receivables/destination': { roles: STAFF },
  'GET /api/settings/who-pays': { roles: STAFF },
  'PUT /api/settings/who-pays': { roles: ADMIN },
  'GET /api/receivables/destination-branches': { roles: STAFF },
  'GET /api/dashboard/destination-due': { roles: STAFF },
  // Issue 34: the full quote and the tariff catalogues (kept by the counter, as Factor Peso); settings are the admin's.
  'POST /api/quotes': { roles: STAFF },
  'GET /api/tariffs/settings': { roles: STAFF },
  'PUT /api/tariffs/settings': { roles: ADMIN },
  'GET /api/tariffs/articles': { roles: STAFF },
  'POST /api/tariffs/articles': { roles: STAFF },
  'GET /api/tariffs/articles/{id}/prices': { roles: STAFF },
  'PUT /api/tariffs/articles/{id}/prices': { roles: STAFF },
  'GET /api/tariffs/routes': { roles: STAFF },
  'PUT /api/tariffs/routes': { roles: STAFF },
  'GET /api/tariffs/surcharges': { roles: STAFF },
  'PUT /api/tariffs/surcharges/{code}': { roles: STAFF },
  'GET /api/tariffs/customers/{id}': { roles: STAFF },
  'PUT /api/tariffs/customers/{id}': { roles: STAFF },
  'GET /api/tariffs/customers/{id}/routes': { roles: STAFF },
  'PUT /api/tariffs/customers/{id}/routes': { roles: STAFF },
  'POST /api/tariffs/clone': { roles: STAFF },
  // Issue 35: credit accounts, cobranza, detracción deposits, estados de cuenta and ageing: the company's money, admins only.
  'GET /api/credit/accounts': { roles: ADMIN },
  'GET /api/credit/accounts/{customerId}': { roles: ADMIN },
  'PUT /api/credit/accounts/{customerId}': { roles: ADMIN },
  'POST /api/credit/collections': { roles: ADMIN },
  'POST /api/credit/collections/{id}/void': { roles: ADMIN },
  'POST /api/credit/invoices/{id}/detraction-deposit': { roles: ADMIN },
  'GET /api/credit/accounts/{customerId}/statement': { roles: ADMIN },
  'GET /api/credit/ageing': { roles: ADMIN },
  'GET /api/credit/customers/{customerId}/status': { roles: STAFF },
  'GET /api/credit/accounts/{customerId}/statement.pdf': { roles: ADMIN },
  'GET /api/credit/accounts/{customerId}/statement.csv': { roles: ADMIN },
  'GET /api/credit/accounts/{customerId}/invoice-period': { roles: ADMIN },
  'POST /api/credit/accounts/{customerId}/invoice-period': { roles: ADMIN },
  'GET /api/credit/period-invoices/due': { roles: ADMIN },
  'POST /api/credit/period-invoices': { roles: ADMIN },
  'POST /api/credit/accounts/{customerId}/statement/send': { roles: ADMIN },
  // The estado de cuenta a WhatsApp link opens: its signature is the access, not a session.
  'GET /api/public/statements/{customerId}/estado-de-cuenta.pdf': { roles: PUBLIC },
  // Issue 36: the company's data (RUC, name, address, MTC registration, logo).
  'GET /api/settings/company': { roles: ADMIN },
  'PUT /api/settings/company': { roles: ADMIN },
  'GET /api/settings/company/logo': { roles: ADMIN },
};

/** Valid bodies, so that what refuses another branch is the scope and not validation. */
const VALID_BODY: Record<string, (ids: Ids) => unknown> = {
  'PUT /api/shipments/{id}': (ids) => shipmentBody({ originBranchId: ids.lima, destinationBranchId: ids.trujillo }),
  'PATCH /api/shipments/{id}/status': () => ({ status: 'En tránsito' }),
  'POST /api/shipments/{id}/checkpoints': () => ({ name: 'Revisado' }),
  'PUT /api/shipments/{id}/secret-code': () => ({ secretCode: 'nueva-77' }),
  'PUT /api/shipments/{id}/description': () => ({ description: 'Otra' }),
  'PUT /api/shipments/{id}/sender-guide': () => ({ serie: 'T001', numero: 7 }),
  'POST /api/shipments/{id}/return': () => ({ reason: 'Destinatario ausente', secretCode: 'vuelta-77' }),
  'POST /api/shipments/{id}/incidents': () => ({ reason: 'dañado', note: 'Caja abollada' }),
  'POST /api/shipments/{id}/deliver': () => ({
    secretCode: 'clave-7',
    receiverName: 'María Flores',
    receiverDoc: '45879612',
    deliveredByName: 'AGENTE2',
  }),
  'POST /api/billing/void': (ids) => ({ id: ids.document, motivo: 'ERROR DEL SISTEMA' }),
  'POST /api/payments/nubefact/consult': (ids) => ids.documentRef,
  'POST /api/payments/nubefact/annul': (ids) => ({ ...ids.documentRef, reason: 'ERROR DEL SISTEMA' }),
  'POST /api/payments/nubefact/annul-status': (ids) => ids.documentRef,
};

interface Ids {
  lima: number;
  trujillo: number;
  /** A Lima → Trujillo shipment: neither Arequipa's agent nor its courier may act on it. */
  shipment: number;
  checkpoint: number;
  /** A document issued at Lima. */
  document: number;
  /** The same document by type, series and number (the provider operations' body). */
  documentRef: { type: string; series: string; number: number };
}

const MISSING = 999_999;

/**
 * What a public operation answers without a token: health 200, login 400 (empty body), tracking of
 * a missing code 404, a statement link without its signature 403.
 */
function publicStatus(operation: string): number {
  if (operation.startsWith('GET /api/public/tracking/')) return 404;
  if (operation.startsWith('GET /api/public/statements/')) return 403;
  return operation.startsWith('GET') ? 200 : 400;
}

function url(path: string, ids: Ids, target: 'existing' | 'missing'): string {
  const id = (real: number) => String(target === 'existing' ? real : MISSING);
  const object = path.startsWith('/api/billing/') ? ids.document : ids.shipment;
  return path
    .replace('{id}', id(object))
    .replace('{checkpointId}', id(ids.checkpoint))
    .replace('{assignmentId}', id(MISSING))
    .replace('{customerId}', id(MISSING))
    .replace('{code}', 'TMT-999999')
    .replace('{n}', '45879612');
}

describe.each(engines)('authorization matrix (%s)', (engine) => {
  let t: TestContext;
  let operations: string[];
  let ids: Ids;
  const tokens = {} as Record<'admin' | 'agent' | 'courier' | 'otherAgent' | 'otherCourier', string>;

  beforeAll(async () => {
    t = await startTestApp(engine, { seed: (db, branchIds) => seedLimaPrices(db, branchIds, ['Trujillo'], { liviano: [[1, 1000, '1.4']] }) });
    [tokens.admin, tokens.agent, tokens.otherAgent, tokens.otherCourier] = await Promise.all([
      t.login('ADMIN'),
      t.login('AGENTE1'),
      t.login('AGENTE2'),
      t.login('REPARTIDOR1'),
    ]);
    // REPARTIDOR1 is Arequipa's courier: the 'other branch' courier for a Lima → Trujillo shipment.
    tokens.courier = tokens.otherCourier;
    const lima = t.branchIds.get('Lima')!;
    const trujillo = t.branchIds.get('Trujillo')!;
    const created = await t.call('POST', '/api/shipments', {
      token: tokens.agent,
      body: shipmentBody({ originBranchId: lima, destinationBranchId: trujillo }),
    });
    expect(created.statusCode).toBe(201);
    const shipment = created.json();
    const document = await t.call('POST', '/api/billing/emit', {
      token: tokens.agent,
      body: { amount: 10, customer: { doc_type: 1, doc_number: '45879612', name: 'María Flores' } },
    });
    expect(document.statusCode).toBeLessThan(300);
    const issued = document.json();
    const documentRef = { type: issued.serie.startsWith('F') ? '01' : '03', series: issued.serie, number: issued.numero };
    ids = { lima, trujillo, shipment: shipment.id, checkpoint: shipment.checkpoints[0].id, document: issued.id, documentRef };
    const doc = (await t.call('GET', '/api/docs/json')).json() as { paths: Record<string, Record<string, unknown>> };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
  });
  afterAll(() => t?.close());

  const call = (operation: string, token: string | undefined, target: 'existing' | 'missing', body?: unknown) => {
    const [method, path] = operation.split(' ') as [string, string];
    const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    return t.call(method, url(path, ids, target), { ...(token ? { token } : {}), ...(withBody ? { body: body ?? {} } : {}) });
  };

  it('lists every operation of the API, and nothing it does not serve', () => {
    expect(operations.filter((o) => !(o in MATRIX))).toEqual([]);
    expect(Object.keys(MATRIX).filter((o) => !operations.includes(o))).toEqual([]);
  });

  it('refuses every operation but login without a token (401)', async () => {
    const wrong: string[] = [];
    for (const operation of operations) {
      const res = await call(operation, undefined, 'missing');
      // Public: health answers, login refuses an empty body; everything else wants a token.
      const expected = MATRIX[operation]!.roles === PUBLIC ? publicStatus(operation) : 401;
      if (res.statusCode !== expected) wrong.push(`${operation}: ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('lets each role call exactly what section 4 gives it (403 otherwise)', async () => {
    const wrong: string[] = [];
    for (const operation of operations) {
      const rule = MATRIX[operation]!;
      if (rule.roles === PUBLIC) continue;
      for (const role of ALL) {
        const token = tokens[role];
        // GETs read real objects; changes aim at a missing one, so an allowed call changes nothing (404/400/422).
        const target = operation.startsWith('GET ') ? 'existing' : 'missing';
        const res = await call(operation, token, target);
        // The test's courier is of another branch than its objects: a scoped read is refused by branch.
        const expectDenied = !rule.roles.includes(role) || (role === 'courier' && rule.scope !== undefined && target === 'existing');
        const denied = res.statusCode === 401 || res.statusCode === 403;
        if (expectDenied ? res.statusCode !== 403 : denied) wrong.push(`${operation} as ${role}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("refuses another branch's agent and courier on a branch's shipment or document, and changes nothing", async () => {
    const before = await Promise.all([
      t.call('GET', `/api/shipments/${ids.shipment}`, { token: tokens.admin }).then((r) => r.body),
      t.call('GET', `/api/billing/lookup/${ids.document}`, { token: tokens.admin }).then((r) => r.json().status),
    ]);
    const wrong: string[] = [];
    for (const operation of operations) {
      const rule = MATRIX[operation]!;
      if (!rule.scope || rule.roles === PUBLIC) continue;
      for (const who of ['otherAgent', 'otherCourier'] as const) {
        const res = await call(operation, tokens[who], 'existing', VALID_BODY[operation]?.(ids));
        if (res.statusCode !== 403) wrong.push(`${operation} as ${who}: ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    const after = await Promise.all([
      t.call('GET', `/api/shipments/${ids.shipment}`, { token: tokens.admin }).then((r) => r.body),
      t.call('GET', `/api/billing/lookup/${ids.document}`, { token: tokens.admin }).then((r) => r.json().status),
    ]);
    expect(after).toEqual(before);
  });
});
