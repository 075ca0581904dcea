import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVIANO_TIERS, seedLimaPrices } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * The wire contract of operations spec section 7, one test per call: the spec's payload (its field
 * names, not only the form's) is accepted and the answer carries what the spec says the client reads.
 */
describe.each(engines)('spec section 7 calls (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let lima: number;
  let arequipa: number;
  let shipment: { id: number; code: string };

  beforeAll(async () => {
    t = await startTestApp(engine, {
      seed: (db, ids) =>
        seedLimaPrices(db, ids, ['Arequipa'], {
          liviano: LIVIANO_TIERS,
        }),
    });
    admin = await t.login('ADMIN');
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, body?: unknown, token = admin) =>
    t.call(method, url, { token, ...(body === undefined ? {} : { body }) });

  /** The spec's create payload, word for word (section 7, POST /shipments). */
  const specShipment = (over: Record<string, unknown> = {}) => ({
    senderName: 'Comercial Andina SAC',
    recipientName: 'María Flores Ccori',
    recipientDoc: '45879612',
    originBranchId: lima,
    destinationBranchId: arequipa,
    productType: 'liviano',
    weightKg: 2.5,
    quotedPrice: 1,
    quotedCurrency: 'PEN',
    quotedFactorPerKg: 1.4,
    multiLineDetail: [{ productType: 'liviano', weightKg: 2.5 }],
    description: 'Caja de repuestos',
    secretCode: 'clave-7',
    ...over,
  });

  it('POST /auth/login {username, password} → user, token', async () => {
    const res = await t.call('POST', '/api/auth/login', { body: { username: 'AGENTE1', password: 'agente123' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token: expect.any(String), user: expect.objectContaining({ username: 'AGENTE1', role: 'agent' }) });
  });

  it('POST /auth/change-password {newPassword, currentPassword}', async () => {
    const token = await t.login('AGENTE2');
    const res = await call('POST', '/api/auth/change-password', { currentPassword: 'agente123', newPassword: 'agente-nueva-1' }, token);
    expect(res.statusCode).toBeLessThan(300);
    const wrong = await call(
      'POST',
      '/api/auth/change-password',
      { currentPassword: 'no-es', newPassword: 'otra-clave-22' },
      await t.login('AGENTE2', 'agente-nueva-1'),
    );
    expect(typeof wrong.json().error).toBe('string');
  });

  it("POST /shipments with the spec's payload → the created shipment, priced by the server", async () => {
    const res = await call('POST', '/api/shipments', specShipment());
    expect(res.statusCode).toBe(201);
    shipment = res.json();
    expect(res.json()).toMatchObject({
      code: expect.stringMatching(/^TMT-\d{6}$/),
      recipientName: 'María Flores Ccori',
      quotedPrice: 4.2,
      quotedCurrency: 'PEN',
    });
  });

  it('GET /shipments {page, pageSize, q, status, dateFrom, dateTo, originBranchId, destinationBranchId} → items and total', async () => {
    const res = await call(
      'GET',
      `/api/shipments?page=1&pageSize=10&q=Flores&status=Creado&originBranchId=${lima}&destinationBranchId=${arequipa}&dateFrom=2000-01-01&dateTo=2999-12-31`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ items: [expect.objectContaining({ code: shipment.code })], total: 1 });
  });

  it('GET /shipments/search {q} → array', async () => {
    const res = await call('GET', `/api/shipments/search?q=${shipment.code}`);
    expect(Array.isArray(res.json())).toBe(true);
    expect(res.json()[0].code).toBe(shipment.code);
  });

  it('GET /shipments/{id} and /shipments/code/{code} → shipment', async () => {
    expect((await call('GET', `/api/shipments/${shipment.id}`)).json().code).toBe(shipment.code);
    expect((await call('GET', `/api/shipments/code/${shipment.code}`)).json().id).toBe(shipment.id);
  });

  it("PUT /shipments/{id} with the spec's shipment fields", async () => {
    const res = await call(
      'PUT',
      `/api/shipments/${shipment.id}`,
      specShipment({ recipientName: 'María Flores Quispe', weightKg: 12, multiLineDetail: [{ productType: 'liviano', weightKg: 12 }] }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ recipientName: 'María Flores Quispe', quotedPrice: 15.6 });
  });

  it('PATCH /shipments/{id}/status {status, note}; POST and DELETE checkpoints {name}; PUT secret-code {secretCode}; PUT description {description}', async () => {
    expect((await call('PATCH', `/api/shipments/${shipment.id}/status`, { status: 'Creado', note: 'Cliente llamó' })).statusCode).toBe(200);
    const added = await call('POST', `/api/shipments/${shipment.id}/checkpoints`, { name: 'Revisado en almacén' });
    expect(added.statusCode).toBeLessThan(300);
    const event = added.json().checkpoints.at(-1);
    expect(event.name).toBe('Revisado en almacén');
    expect((await call('DELETE', `/api/shipments/${shipment.id}/checkpoints/${event.id}`)).statusCode).toBe(200);
    expect((await call('PUT', `/api/shipments/${shipment.id}/secret-code`, { secretCode: 'clave-8' })).statusCode).toBe(200);
    expect((await call('PUT', `/api/shipments/${shipment.id}/description`, { description: 'Dos cajas' })).json().description).toBe('Dos cajas');
  });

  it('GET /weight-factors/quote {originId, destinationId, productType, weightKg} → price, currency, factorPerKg, tier, usingReverse', async () => {
    const res = await call('GET', `/api/weight-factors/quote?originId=${lima}&destinationId=${arequipa}&productType=liviano&weightKg=12`);
    expect(res.json()).toMatchObject({ price: 15.6, currency: 'PEN', factorPerKg: 1.3, usingReverse: false, tier: expect.anything() });
  });

  it('GET /transports {status, route, limit, page}; POST /transports/{id}/assignments {shipmentIds}; GET /shipments/{id}/assignment → transport', async () => {
    const transport = (await call('POST', '/api/transports', { plate_primary: 'ABC-123', capacity_kg: 1000, status: 'disponible' })).json();
    const list = await call('GET', '/api/transports?status=disponible&route=&limit=10&page=1');
    expect(JSON.stringify(list.json())).toContain('ABC-123');
    expect((await call('POST', `/api/transports/${transport.id}/assignments`, { shipmentIds: [shipment.id] })).statusCode).toBe(201);
    expect((await call('GET', `/api/shipments/${shipment.id}/assignment`)).json()).toMatchObject({ plate_primary: 'ABC-123' });
    const assignment = (await call('GET', `/api/transports/${transport.id}/assignments`)).json().items[0].id;
    expect((await call('DELETE', `/api/transports/${transport.id}/assignments/${assignment}`)).statusCode).toBe(204);
  });

  it('POST /shipments/{id}/deliver {secretCode, receiverName, receiverDoc, deliveredByName, notes} → shipment; DELETE /shipments/{id} cancels', async () => {
    const res = await call('POST', `/api/shipments/${shipment.id}/deliver`, {
      secretCode: 'clave-8',
      receiverName: 'María Flores',
      receiverDoc: '45879612',
      deliveredByName: 'ADMIN',
      notes: 'En mostrador',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: shipment.id, status: 'Entregado' });
    const other = (await call('POST', '/api/shipments', specShipment())).json();
    expect((await call('DELETE', `/api/shipments/${other.id}`)).json().status).toBe('Anulado');
  });

  it('GET /customers {q}; POST {firstName, lastName, doc_type, doc_number, address, phone, email}; PUT same payload; DELETE', async () => {
    const body = {
      firstName: 'Rosa',
      lastName: 'Quispe Huamán',
      doc_type: 1,
      doc_number: '41526374',
      address: 'Jr. Lampa 123',
      phone: '987654321',
      email: 'rosa@example.pe',
    };
    const created = await call('POST', '/api/customers', body);
    expect(created.statusCode).toBe(201);
    expect((await call('GET', '/api/customers?q=Quispe Huamán')).json().items.map((c: { id: number }) => c.id)).toContain(created.json().id);
    expect((await call('PUT', `/api/customers/${created.json().id}`, { ...body, phone: '912345678' })).json().phone).toBe('912345678');
    expect((await call('DELETE', `/api/customers/${created.json().id}`)).statusCode).toBe(204);
  });

  it('GET /branches {q, page, pageSize} → array with the total in X-Total-Count; POST/PUT/DELETE {name, city, address}', async () => {
    const res = await call('GET', '/api/branches?q=a&page=1&pageSize=2');
    expect(Array.isArray(res.json())).toBe(true);
    expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(res.json().length);
    const created = await call('POST', '/api/branches', { name: 'Huaraz Norte', city: 'Huaraz', address: 'Av. Luzuriaga 100' });
    expect(created.statusCode).toBe(201);
    expect(
      (await call('PUT', `/api/branches/${created.json().id}`, { name: 'Huaraz Centro', city: 'Huaraz', address: 'Av. Luzuriaga 100' })).json().name,
    ).toBe('Huaraz Centro');
    expect((await call('DELETE', `/api/branches/${created.json().id}`)).statusCode).toBe(204);
  });

  it('GET /users {q}; POST {firstName, lastName, username, role, branchId, mustChangePassword}; PUT; POST reset-password → tempPassword; DELETE', async () => {
    const created = await call('POST', '/api/users', {
      firstName: 'Carla',
      lastName: 'Ríos',
      username: 'caja1',
      role: 'agent',
      branchId: lima,
      mustChangePassword: true,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().user?.id ?? created.json().id;
    expect(JSON.stringify((await call('GET', '/api/users?q=CAJA1')).json())).toContain('CAJA1');
    expect(
      (await call('PUT', `/api/users/${id}`, { firstName: 'Carla', lastName: 'Ríos Vega', username: 'caja1', role: 'agent', branchId: lima }))
        .statusCode,
    ).toBe(200);
    expect((await call('POST', `/api/users/${id}/reset-password`)).json()).toMatchObject({ tempPassword: expect.any(String) });
    expect((await call('DELETE', `/api/users/${id}`)).statusCode).toBe(204);
  });

  it('GET /lookup/dni/{n} and /lookup/ruc/{n}', async () => {
    expect((await call('GET', '/api/lookup/dni/45879612')).statusCode).toBeLessThan(500);
    expect((await call('GET', '/api/lookup/ruc/20100070970')).statusCode).toBeLessThan(500);
  });
});
