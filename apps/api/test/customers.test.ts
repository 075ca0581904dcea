import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../src/config.ts';
import { searchCondition } from '../src/modules/customers/repository.ts';
import { createProviders } from '../src/providers/index.ts';
import { httpLookup, localLookup } from '../src/providers/lookup/index.ts';
import { seedCustomers } from '../src/seed/customers.ts';
import { seedLimaPrices } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

const rosa = { firstName: 'Rosa Elena', lastName: 'Quispe Mamani', doc_type: 1, doc_number: '45871236' };

describe.each(engines)('customers (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(engine, {
      seed: async (db, ids) => {
        await seedCustomers(db);
        await seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '1.4']] });
      },
    });
    admin = await t.login('ADMIN');
  });
  afterAll(() => t?.close());

  const customerCount = async () => {
    const r = await t.database.db.execute(sql`select count(*)::int as n from customers`);
    return (r.rows[0] as { n: number }).n;
  };
  const newCustomer = (over: Record<string, unknown> = {}) => ({
    firstName: 'Teresa',
    lastName: 'Cahuana Puma',
    doc_type: 1,
    doc_number: String(30000000 + Math.floor(Math.random() * 9_000_000)),
    address: 'Jr. Puno 120, Cusco',
    ubigeo: '080101',
    phone: '984112233',
    email: 'teresa@example.pe',
    ...over,
  });

  it('creates, reads, edits and deletes, with an audit row for each change', async () => {
    const agent = await t.login('AGENTE1');
    const created = await t.call('POST', '/api/customers', { token: agent, body: newCustomer({ doc_type: '1', phone: '', email: ' ' }) });
    expect(created.statusCode).toBe(201);
    const c = created.json();
    expect(c).toMatchObject({ firstName: 'Teresa', lastName: 'Cahuana Puma', doc_type: 1, phone: null, email: null, ubigeo: '080101' });
    expect(c.dni).toBe(c.doc_number);

    const read = await t.call('GET', `/api/customers/${c.id}`, { token: agent });
    expect(read.json()).toEqual(c);

    const edited = await t.call('PUT', `/api/customers/${c.id}`, {
      token: admin,
      body: { ...newCustomer(), doc_number: c.doc_number, firstName: 'Teresa Luz', phone: '+51 984 112 233', address: '' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: c.id, firstName: 'Teresa Luz', phone: '+51 984 112 233', address: null });

    expect((await t.call('DELETE', `/api/customers/${c.id}`, { token: admin })).statusCode).toBe(204);
    expect((await t.call('GET', `/api/customers/${c.id}`, { token: admin })).statusCode).toBe(404);
    expect((await t.call('DELETE', `/api/customers/${c.id}`, { token: admin })).statusCode).toBe(404);
    const audits = await t.database.db.execute(
      sql`select action, before is not null as b, after is not null as a from audit_log where entity = 'customer' and entity_id = ${String(c.id)} order by id`,
    );
    expect(audits.rows).toEqual([
      { action: 'create', b: false, a: true },
      { action: 'update', b: true, a: true },
      { action: 'delete', b: true, a: false },
    ]);
  });

  it('stores a RUC, a carné de extranjería and a passport', async () => {
    for (const body of [
      newCustomer({ firstName: 'Transportes Ica S.A.C.', lastName: null, doc_type: 6, doc_number: '20131312955' }),
      newCustomer({ doc_type: '4', doc_number: '000123456789012' }),
      newCustomer({ doc_type: 7, doc_number: '1234567' }),
    ]) {
      const res = await t.call('POST', '/api/customers', { token: admin, body });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().doc_number).toBe(body.doc_number);
    }
  });

  it('refuses a duplicate document with 409 and changes nothing', async () => {
    const n = await customerCount();
    const dup = await t.call('POST', '/api/customers', { token: admin, body: { ...rosa, firstName: 'Otra' } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      error: 'Documento ya registrado para otro cliente.',
      code: 'DUPLICATE',
      fields: { doc_number: 'Documento ya registrado para otro cliente.' },
    });
    expect(await customerCount()).toBe(n);

    // Same number under another type is a different document.
    const other = await t.call('POST', '/api/customers', { token: admin, body: { ...rosa, doc_type: 7 } });
    expect(other.statusCode).toBe(201);

    const victim = other.json();
    const clash = await t.call('PUT', `/api/customers/${victim.id}`, { token: admin, body: { ...rosa, firstName: 'Cambio' } });
    expect(clash.statusCode).toBe(409);
    const after = await t.call('GET', `/api/customers/${victim.id}`, { token: admin });
    expect(after.json()).toEqual(victim);
  });

  it('is for admins and agents only', async () => {
    const courier = await t.login('REPARTIDOR1');
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/customers'],
      ['GET', '/api/customers/1'],
      ['POST', '/api/customers', newCustomer()],
      ['PUT', '/api/customers/1', newCustomer()],
      ['DELETE', '/api/customers/1'],
      ['GET', '/api/lookup/dni/45871236'],
      ['GET', '/api/lookup/ruc/20131312955'],
    ];
    const n = await customerCount();
    for (const [method, url, body] of calls) {
      expect((await t.call(method, url, { token: courier, body })).statusCode, `${method} ${url}`).toBe(403);
      expect((await t.call(method, url, { body })).statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await customerCount()).toBe(n);
    expect((await t.call('GET', '/api/customers/1', { token: admin })).statusCode).toBe(200);
  });

  it('refuses bad input with 400, the spec messages, and stores nothing', async () => {
    const n = await customerCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...newCustomer(), firstName: '  ' }, 'firstName', 'Nombres es obligatorio'],
      [{ ...newCustomer(), doc_type: undefined }, 'doc_type', 'Tipo de documento es obligatorio'],
      [{ ...newCustomer(), doc_type: '' }, 'doc_type', 'Tipo de documento es obligatorio'],
      [{ ...newCustomer(), doc_type: 2 }, 'doc_type', 'Tipo de documento inválido'],
      [{ ...newCustomer(), doc_number: '' }, 'doc_number', 'Número de documento es obligatorio'],
      [{ ...newCustomer(), doc_number: '1234567' }, 'doc_number', 'DNI debe tener 8 dígitos'],
      [{ ...newCustomer(), doc_number: '1234567A' }, 'doc_number', 'Solo se permiten dígitos'],
      [{ ...newCustomer(), doc_type: 6, doc_number: '2013131295' }, 'doc_number', 'RUC debe tener 11 dígitos'],
      [{ ...newCustomer(), doc_type: 6, doc_number: '20131312954' }, 'doc_number', 'RUC inválido: el dígito verificador no corresponde'],
      [{ ...newCustomer(), doc_type: 6, doc_number: '30131312955' }, 'doc_number', 'RUC inválido: debe empezar con 10, 15, 17 o 20'],
      [{ ...newCustomer(), doc_type: 7, doc_number: '1234567890123456' }, 'doc_number', 'Máximo 15 dígitos'],
      [{ ...newCustomer(), ubigeo: '15011' }, 'ubigeo', 'Ubigeo debe tener 6 dígitos'],
      [{ ...newCustomer(), email: 'sin-arroba' }, 'email', 'Correo inválido'],
    ];
    for (const [body, field, message] of cases) {
      const res = await t.call('POST', '/api/customers', { token: admin, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields[field]).toBe(message);
      expect(res.json().error).toContain(message);
    }
    const target = (await t.call('GET', '/api/customers?q=45871236', { token: admin })).json().items[0];
    const badEdit = await t.call('PUT', `/api/customers/${target.id}`, { token: admin, body: { ...rosa, doc_number: '4587123' } });
    expect(badEdit.statusCode).toBe(400);
    expect((await t.call('GET', `/api/customers/${target.id}`, { token: admin })).json()).toEqual(target);
    expect((await t.call('POST', '/api/customers', { token: admin, body: '{"firstName":' })).statusCode).toBe(400);
    expect((await t.call('GET', '/api/customers/abc', { token: admin })).statusCode).toBe(400);
    expect((await t.call('GET', '/api/customers?pageSize=5000', { token: admin })).statusCode).toBe(400);
    expect(await customerCount()).toBe(n);
  });

  it('searches by name, document, phone and email, with paging', async () => {
    const q = async (term: string) => (await t.call('GET', `/api/customers?q=${encodeURIComponent(term)}`, { token: admin })).json();
    expect((await q('quispe mamani')).items.map((c: { doc_number: string }) => c.doc_number)).toContain('45871236');
    expect((await q('ROSA quispe')).items[0].doc_number).toBe('45871236');
    expect((await q('4587123')).items.map((c: { firstName: string }) => c.firstName)).toContain('Rosa Elena');
    expect((await q('999128734')).items.map((c: { lastName: string }) => c.lastName)).toEqual(['Gonzales Ríos']);
    expect((await q('ventas@comerciallosandes')).items.map((c: { firstName: string }) => c.firstName)).toEqual(['Comercial Los Andes S.A.C.']);
    expect((await q('textil misti')).items).toHaveLength(1);
    expect((await q('nadie-se-llama-asi')).total).toBe(0);
    // LIKE wildcards typed by the user are plain characters.
    expect((await q('%')).total).toBe(0);

    // A phone saved with spaces is found typed without them, and as typed.
    const spaced = (await t.call('POST', '/api/customers', { token: admin, body: newCustomer({ phone: '963 258 147' }) })).json();
    for (const term of ['963258147', '963 258 147', '258 147']) {
      expect((await q(term)).items.map((c: { id: number }) => c.id)).toEqual([spaced.id]);
    }
    await t.call('DELETE', `/api/customers/${spaced.id}`, { token: admin });

    const all = await t.call('GET', '/api/customers', { token: admin });
    const body = all.json();
    expect(body.page).toBe(1);
    expect(body.pageSize).toBe(50);
    expect(body.total).toBe(await customerCount());
    const names = body.items.map((c: { firstName: string }) => c.firstName);
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
    const page2 = (await t.call('GET', '/api/customers?page=2&pageSize=10', { token: admin })).json();
    expect(page2).toMatchObject({ page: 2, pageSize: 10, total: body.total });
    expect(page2.items.map((c: { id: number }) => c.id)).toEqual(body.items.slice(10, 20).map((c: { id: number }) => c.id));
  });

  it('refuses to delete a customer a shipment references, and keeps it', async () => {
    const c = (await t.call('POST', '/api/customers', { token: admin, body: newCustomer() })).json();
    const shipment = await t.call('POST', '/api/shipments', {
      token: admin,
      body: {
        senderCustomerId: c.id,
        senderName: 'Remitente de prueba',
        recipientDoc: '45879612',
        recipientFirstName: 'María',
        recipientLastName: 'Flores',
        originBranchId: t.branchIds.get('Lima'),
        destinationBranchId: t.branchIds.get('Arequipa'),
        lines: [{ productType: 'liviano', weightKg: 2 }],
        secretCode: 'clave1',
      },
    });
    expect(shipment.statusCode).toBe(201);
    const res = await t.call('DELETE', `/api/customers/${c.id}`, { token: admin });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'No se puede eliminar el cliente: tiene envíos u otros registros asociados.', code: 'IN_USE' });
    expect((await t.call('GET', `/api/customers/${c.id}`, { token: admin })).statusCode).toBe(200);
    const audits = await t.database.db.execute(sql`select action from audit_log where entity = 'customer' and entity_id = ${String(c.id)}`);
    expect(audits.rows.map((r) => (r as { action: string }).action)).toEqual(['create']);
  });

  it('looks up DNI and RUC with the local provider', async () => {
    const known = await t.call('GET', '/api/lookup/dni/45871236', { token: admin });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toMatchObject({
      docType: 'dni',
      docNumber: '45871236',
      name: 'Rosa Elena Quispe Mamani',
      firstName: 'Rosa Elena',
      lastName: 'Quispe Mamani',
      source: 'clientes',
    });
    const company = await t.call('GET', '/api/lookup/ruc/20608123459', { token: admin });
    expect(company.json()).toMatchObject({ name: 'Comercial Los Andes S.A.C.', address: 'Av. Argentina 1780, Cercado de Lima', source: 'clientes' });
    // Demo mode: people and companies that are not customers yet.
    const demoPerson = await t.call('GET', '/api/lookup/dni/41526374', { token: admin });
    expect(demoPerson.json()).toMatchObject({ firstName: 'Milagros Elena', lastName: 'Paredes Cárdenas', source: 'demo' });
    const flagged = await t.call('GET', '/api/lookup/ruc/20607778885', { token: admin });
    expect(flagged.json()).toMatchObject({ estado: 'ACTIVO', condicion: 'NO HABIDO' });

    const unknown = await t.call('GET', '/api/lookup/dni/11112222', { token: admin });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('No se encontraron datos para este documento.');
    const short = await t.call('GET', '/api/lookup/dni/1234567', { token: admin });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('DNI debe tener 8 dígitos');
    expect((await t.call('GET', '/api/lookup/ruc/20131312954', { token: admin })).json()).toMatchObject({
      error: 'RUC inválido: el dígito verificador no corresponde',
    });
    expect((await t.call('GET', '/api/lookup/ruc/abc', { token: admin })).statusCode).toBe(400);

    // Outside demo mode the invented directory is never consulted.
    const strict = localLookup({ demo: false });
    expect(await strict.find('dni', '41526374', { db: t.database.db, now: t.clock.now })).toBeNull();
    expect((await strict.find('dni', '45871236', { db: t.database.db, now: t.clock.now }))?.source).toBe('clientes');
  });

  it('the search uses the trigram index', async () => {
    await t.database.db.execute(sql`
      insert into customers (first_name, last_name, doc_type, doc_number, phone, email)
      select 'Cliente' || g, 'Prueba' || (g % 97), 7, 'P' || lpad(g::text, 9, '0'), '9' || lpad((g * 7919 % 100000000)::text, 8, '0'), 'c' || g || '@correo.pe'
      from generate_series(1, 5000) g`);
    await t.database.db.execute(sql`analyze customers`);
    const plan = async () => {
      const r = await t.database.db.execute(sql`explain select id from customers where ${searchCondition('P000004213')}`);
      return r.rows.map((row) => Object.values(row as Record<string, string>)[0]).join('\n');
    };
    let text = await plan();
    if (!text.includes('customers_search_trgm')) {
      // A small table may still be cheaper to scan; this proves the index answers the same condition.
      await t.database.db.execute(sql`set enable_seqscan = off`);
      text = await plan();
      await t.database.db.execute(sql`set enable_seqscan = on`);
    }
    expect(text).toContain('customers_search_trgm');
    const found = await t.call('GET', '/api/customers?q=P000004213', { token: admin });
    expect(found.json().items.map((c: { firstName: string }) => c.firstName)).toEqual(['Cliente4213']);
    await t.database.db.execute(sql`delete from customers where doc_number like 'P%'`);
  });
});

/** apis.net.pe v2 stand-in: answers by number, counts calls, records the Authorization header. */
async function startFakeLookup() {
  const calls = new Map<string, number>();
  const auth: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const numero = url.searchParams.get('numero') ?? '';
    calls.set(`${url.pathname}:${numero}`, (calls.get(`${url.pathname}:${numero}`) ?? 0) + 1);
    auth.push(req.headers.authorization ?? '');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/v2/reniec/dni') {
      if (numero === '41111111')
        return json(200, { nombres: 'LUIS ALBERTO', apellidoPaterno: 'CONDORI', apellidoMaterno: 'HUAMAN', numeroDocumento: numero });
      if (numero === '42222222') return json(404, { message: 'not found' });
      if (numero === '43333333') return json(422, { message: 'numero invalido' });
      if (numero === '44444444') {
        setTimeout(() => json(200, { nombres: 'TARDE' }), 2000).unref();
        return;
      }
      if (numero === '46666666') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('<html>no es json</html>');
      }
      if (numero === '47777777') return json(200, { unexpected: true });
      return json(500, { error: 'internal', token: req.headers.authorization });
    }
    if (url.pathname === '/v2/sunat/ruc') {
      if (numero === '20131312955')
        return json(200, {
          razonSocial: 'SUPERINTENDENCIA NACIONAL DE ADUANAS Y DE ADMINISTRACION TRIBUTARIA',
          direccion: 'AV. GARCILASO DE LA VEGA NRO. 1472',
          distrito: 'LIMA',
          provincia: 'LIMA',
          departamento: 'LIMA',
          ubigeo: '150101',
          estado: 'ACTIVO',
          condicion: 'HABIDO',
        });
      if (numero === '20100047218')
        return json(200, { razonSocial: 'EMPRESA DE PRUEBA S.A.', direccion: '-', estado: 'SUSPENSION TEMPORAL', condicion: 'NO HABIDO' });
      return json(503, { message: 'mantenimiento' });
    }
    json(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    auth,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(engines)('lookup through the HTTP adapter (%s)', (engine) => {
  const token = 'secreto-de-prueba-123';
  let t: TestContext;
  let admin: string;
  let fake: Awaited<ReturnType<typeof startFakeLookup>>;
  beforeAll(async () => {
    fake = await startFakeLookup();
    t = await startTestApp(engine, { providers: { lookup: httpLookup({ url: `${fake.url}/`, token, timeoutMs: 300 }) } });
    admin = await t.login('ADMIN');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const get = (path: string) => t.call('GET', path, { token: admin });

  it('is chosen when LOOKUP_URL and LOOKUP_TOKEN are set', () => {
    expect(createProviders({ ...loadConfig({}), lookupUrl: fake.url, lookupToken: token }).lookup.name).toBe('http');
    expect(createProviders({ ...loadConfig({}), lookupUrl: fake.url, lookupToken: null }).lookup.name).toBe('local');
  });

  it('normalises a DNI answer, sends the bearer token and caches the answer for 30 days', async () => {
    const res = await get('/api/lookup/dni/41111111');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      docType: 'dni',
      docNumber: '41111111',
      name: 'LUIS ALBERTO CONDORI HUAMAN',
      firstName: 'LUIS ALBERTO',
      lastName: 'CONDORI HUAMAN',
      source: 'apis.net.pe',
    });
    expect(fake.auth.at(-1)).toBe(`Bearer ${token}`);
    expect(fake.calls.get('/v2/reniec/dni:41111111')).toBe(1);

    const again = await get('/api/lookup/dni/41111111');
    expect(again.json().name).toBe('LUIS ALBERTO CONDORI HUAMAN');
    expect(fake.calls.get('/v2/reniec/dni:41111111')).toBe(1);

    // Sessions last hours, so each jump in time needs a fresh login.
    t.clock.advance(29 * 24 * 3600 * 1000);
    admin = await t.login('ADMIN');
    await get('/api/lookup/dni/41111111');
    expect(fake.calls.get('/v2/reniec/dni:41111111')).toBe(1);
    t.clock.advance(2 * 24 * 3600 * 1000);
    admin = await t.login('ADMIN');
    await get('/api/lookup/dni/41111111');
    expect(fake.calls.get('/v2/reniec/dni:41111111')).toBe(2);
  });

  it('normalises a RUC answer with its SUNAT estado and condición', async () => {
    const res = await get('/api/lookup/ruc/20131312955');
    expect(res.json()).toEqual({
      docType: 'ruc',
      docNumber: '20131312955',
      name: 'SUPERINTENDENCIA NACIONAL DE ADUANAS Y DE ADMINISTRACION TRIBUTARIA',
      firstName: 'SUPERINTENDENCIA NACIONAL DE ADUANAS Y DE ADMINISTRACION TRIBUTARIA',
      address: 'AV. GARCILASO DE LA VEGA NRO. 1472, LIMA, LIMA, LIMA',
      ubigeo: '150101',
      estado: 'ACTIVO',
      condicion: 'HABIDO',
      source: 'apis.net.pe',
    });
    const flagged = await get('/api/lookup/ruc/20100047218');
    expect(flagged.json()).toMatchObject({ estado: 'SUSPENSION TEMPORAL', condicion: 'NO HABIDO' });
    expect(flagged.json().address).toBeUndefined();
  });

  it('never answers a 5xx nor leaks the token when the service fails', async () => {
    const expectations: [string, number, string][] = [
      ['/api/lookup/dni/42222222', 404, 'No se encontraron datos para este documento.'],
      ['/api/lookup/dni/43333333', 404, 'No se encontraron datos para este documento.'],
      ['/api/lookup/dni/44444444', 424, 'El servicio de consulta DNI/RUC no respondió a tiempo. Complete los datos a mano.'],
      ['/api/lookup/dni/45555555', 424, 'El servicio de consulta DNI/RUC no está disponible. Complete los datos a mano.'],
      ['/api/lookup/dni/46666666', 424, 'El servicio de consulta DNI/RUC no está disponible. Complete los datos a mano.'],
      ['/api/lookup/dni/47777777', 424, 'El servicio de consulta DNI/RUC no está disponible. Complete los datos a mano.'],
      ['/api/lookup/ruc/20608123459', 424, 'El servicio de consulta DNI/RUC no está disponible. Complete los datos a mano.'],
    ];
    for (const [path, status, message] of expectations) {
      const started = Date.now();
      const res = await get(path);
      expect(res.statusCode, path).toBe(status);
      expect(res.json().error, path).toBe(message);
      expect(res.body).not.toContain(token);
      expect(Date.now() - started, path).toBeLessThan(1500);
    }
    // Failures and unknown numbers are not cached: the next try asks again.
    await get('/api/lookup/dni/45555555');
    expect(fake.calls.get('/v2/reniec/dni:45555555')).toBe(2);
    const cached = await t.database.db.execute(sql`select number from lookup_cache order by number`);
    expect(cached.rows.map((r) => (r as { number: string }).number)).toEqual(['20100047218', '20131312955', '41111111']);
  });

  it('validates before calling the service', async () => {
    const before = [...fake.calls.values()].reduce((a, b) => a + b, 0);
    expect((await get('/api/lookup/ruc/20131312950')).statusCode).toBe(400);
    expect((await get('/api/lookup/dni/123')).statusCode).toBe(400);
    expect([...fake.calls.values()].reduce((a, b) => a + b, 0)).toBe(before);
  });
});

describe('unreachable lookup service', () => {
  it('answers 424, not a 5xx', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const t = await startTestApp('embedded', { config: { lookupUrl: `http://127.0.0.1:${port}`, lookupToken: 'x' } });
    try {
      const res = await t.call('GET', '/api/lookup/dni/41111111', { token: await t.login('AGENTE1') });
      expect(res.statusCode).toBe(424);
      expect(res.json().code).toBe('LOOKUP_UNAVAILABLE');
    } finally {
      await t.close();
    }
  });
});
