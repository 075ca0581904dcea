import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { normalizeShipmentCode, PUBLIC_TRACKING_LIMIT, SHIPMENT_MESSAGES } from '@tramo/domain';
import { loadConfig } from '../src/config.ts';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

const NOT_FOUND = 'No encontramos ese envío.';
const KEYS = [
  'code',
  'deliveredAt',
  'destination',
  'dueAtDestination',
  'events',
  'nextStep',
  'origin',
  'recipientName',
  'registeredAt',
  'senderName',
  'status',
  'tone',
  'verified',
];

/** A stand-in for the built login page: its script inside it, beside the app's files as JSON data. */
const SCRIPT = (title: string) => `document.title = ${JSON.stringify(title)};`;
const loginPage = (title: string) =>
  `<!doctype html><title>${title}</title><script type="module" crossorigin>${SCRIPT(title)}</script><script type="application/json" id="app-files">{"start":"/assets/app.js"}</script>`;
const sha256 = (text: string) => `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`;

/** Issue 18: the public tracking read, with no token. */
describe.each(engines)('public tracking (%s)', (engine) => {
  let t: TestContext;
  let agentLima: string;
  let courierArequipa: string;
  let lima: number;
  let arequipa: number;
  // Each test speaks from an address of its own (the app trusts X-Forwarded-For here), so the
  // rate limit of one test never refuses another's lookups.
  let nextAddress = 1;
  const address = () => `203.0.113.${nextAddress++}`;
  // As the label's QR asks (with the link's key, issue 31): `query` '' asks with the code alone.
  const track = (code: string, from: string, query = `?k=${t.app.trackingLinks.key(normalizeShipmentCode(code) ?? code)}`) =>
    t.call('GET', `/api/public/tracking/${encodeURIComponent(code)}${query}`, { headers: { 'x-forwarded-for': from } });

  let webDist: string;

  beforeAll(async () => {
    // A stand-in for the built web app: the staff app's page and the public page's own.
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-public-web-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>staff app</title>');
    fs.writeFileSync(path.join(webDist, 'login.html'), loginPage('login page'));
    fs.writeFileSync(path.join(webDist, 'seguimiento.html'), '<!doctype html><title>public page</title>');
    t = await startTestApp(engine, {
      serveWeb: true,
      config: { trustProxy: true, webDist },
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '1.4']] }),
    });
    [agentLima, courierArequipa] = await Promise.all([t.login('AGENTE1'), t.login('REPARTIDOR1')]);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const create = async () => {
    const res = await t.call('POST', '/api/shipments', {
      token: agentLima,
      body: shipmentBody(
        { originBranchId: lima, destinationBranchId: arequipa },
        { senderName: 'Luis Mendoza', description: 'Laptop con cargador', recipientFirstName: 'María', recipientLastName: 'Peña Ccori' },
      ),
    });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; code: string };
  };

  it('answers exactly the public keys, masked names, no document, price, secret, note or user name', async () => {
    const s = await create();
    const visible = await t.call('POST', `/api/shipments/${s.id}/checkpoints`, {
      token: agentLima,
      body: { name: 'Recibido en almacén', visibleToCustomer: true },
    });
    expect(visible.statusCode, visible.body).toBe(201);
    await t.call('POST', `/api/shipments/${s.id}/checkpoints`, { token: agentLima, body: { name: 'Cliente llamó para consultar' } });
    await t.call('PATCH', `/api/shipments/${s.id}/status`, {
      token: agentLima,
      body: { status: 'En tránsito', note: 'Nota interna: cliente molesto' },
    });
    await t.call('PUT', `/api/shipments/${s.id}/secret-code`, { token: agentLima, body: { secretCode: 'otra-99' } });
    const res = await track(s.code, address());
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(KEYS);
    expect(Object.keys(body.origin).sort()).toEqual(['city', 'name']);
    for (const e of body.events) expect(Object.keys(e).sort()).toEqual(['at', 'name']);
    expect(body).toMatchObject({
      code: s.code,
      status: 'En tránsito',
      tone: 'inTransit',
      senderName: 'L*** M******',
      recipientName: 'M**** P*** C****',
      origin: { name: 'Lima' },
      destination: { name: 'Arequipa' },
      deliveredAt: null,
      // Paid at the origin: nothing to pay at the destination, and no price shown.
      dueAtDestination: null,
    });
    expect(body.nextStep).toContain('Arequipa');
    expect(body.events.map((e: { name: string }) => e.name)).toEqual(['Creado', 'Recibido en almacén', 'En tránsito']);
    // Nothing the public must not read, anywhere in the answer.
    for (const secret of [
      '45879612',
      'Luis',
      'Mendoza',
      'María',
      'Peña',
      'Laptop',
      'Nota interna',
      'Cliente llamó',
      'AGENTE1',
      'Clave',
      'clave-7',
      'otra-99',
      'Precio',
      'quoted',
    ]) {
      expect(res.body).not.toContain(secret);
    }
  });

  it('says what the recipient pays at the destination counter for pago en destino (issue 33), until it is paid', async () => {
    const res = await t.call('POST', '/api/shipments', {
      token: agentLima,
      body: shipmentBody({ originBranchId: lima, destinationBranchId: arequipa }, { payer: 'destinatario', paymentMoment: 'destino' }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json() as { code: string; quotedPrice: number };
    const body = (await track(s.code, address())).json();
    expect(body.dueAtDestination).toBe(s.quotedPrice);
  });

  it("shows milestones only: a staff event is internal unless marked 'visible para el cliente' (issue #38)", async () => {
    const s = await create();
    const add = (body: unknown) => t.call('POST', `/api/shipments/${s.id}/checkpoints`, { token: agentLima, body });
    const internal = await add({ name: 'Cliente llamó para consultar' });
    expect(internal.statusCode, internal.body).toBe(201);
    expect(internal.json().checkpoints.at(-1)).toMatchObject({ kind: 'event', name: 'Cliente llamó para consultar', visibleToCustomer: false });
    const shown = await add({ name: 'Llegó a almacén central', visibleToCustomer: true });
    expect(shown.json().checkpoints.at(-1)).toMatchObject({ kind: 'event', visibleToCustomer: true });
    // Bad input: a clear Spanish 400 and nothing added.
    const bad = await add({ name: 'Nota', visibleToCustomer: 'sí' });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().fields.visibleToCustomer).toBe(SHIPMENT_MESSAGES.eventVisibility);
    expect((await t.call('GET', `/api/shipments/${s.id}`, { token: agentLima })).json().checkpoints.map((e: { name: string }) => e.name)).toEqual([
      'Creado',
      'Cliente llamó para consultar',
      'Llegó a almacén central',
    ]);
    expect((await add({ name: 'Cliente pidió factura', visibleToCustomer: false })).statusCode).toBe(201);
    await t.call('PATCH', `/api/shipments/${s.id}/status`, { token: agentLima, body: { status: 'En tránsito' } });
    const res = await track(s.code, address());
    expect(res.json().events.map((e: { name: string }) => e.name)).toEqual(['Creado', 'Llegó a almacén central', 'En tránsito']);
    expect(res.body).not.toContain('Cliente');
    const audit = await t.database.db.execute(
      sql`select after from audit_log where entity = 'shipment' and entity_id = ${String(s.id)} and action = 'event.add' order by id`,
    );
    expect(audit.rows.map((r) => (r as { after: { visibleToCustomer: boolean } }).after.visibleToCustomer)).toEqual([false, true, false]);
  });

  it('shows a delivery as "Entregado" with its date, and never the receiver or their document', async () => {
    const s = await create();
    const delivered = await t.call('POST', `/api/shipments/${s.id}/deliver`, {
      token: courierArequipa,
      body: { secretCode: 'clave-7', receiverName: 'Rosa Quispe', receiverDoc: '40111222', deliveredByName: 'Jorge Mamani' },
    });
    expect(delivered.statusCode).toBe(200);
    const res = await track(s.code, address());
    const body = res.json();
    expect(body).toMatchObject({ status: 'Entregado', nextStep: null, deliveredAt: delivered.json().deliveredInfo.deliveredAt });
    expect(body.events.at(-1).name).toBe('Entregado');
    for (const secret of ['Rosa', 'Quispe', '40111222', 'Jorge', 'Mamani']) expect(res.body).not.toContain(secret);
  });

  it('accepts the code as people type it (lower case, no dash)', async () => {
    const s = await create();
    const digits = s.code.slice(4);
    for (const typed of [s.code.toLowerCase(), `TMT${digits}`]) {
      const res = await track(typed, address());
      expect(res.statusCode).toBe(200);
      expect(res.json().code).toBe(s.code);
    }
  });

  it('answers an unknown and a malformed code identically: 404 "No encontramos ese envío."', async () => {
    const from = address();
    const answers = [];
    for (const code of ['TMT-999999', 'TMT-000000', 'hola', 'TMT-12a', "' or 1=1 --", '9'.repeat(40), 'ñandú']) {
      const res = await track(code, from);
      answers.push({ status: res.statusCode, body: res.body, type: res.headers.get('content-type') });
    }
    expect(answers[0]).toEqual({ status: 404, body: JSON.stringify({ error: NOT_FOUND, code: 'NOT_FOUND' }), type: expect.stringContaining('json') });
    for (const a of answers) expect(a).toEqual(answers[0]);
  });

  it('limits lookups per address with a Spanish 429, counted in the database, and lets other addresses through', async () => {
    const s = await create();
    const from = address();
    const statuses: number[] = [];
    for (let i = 0; i < PUBLIC_TRACKING_LIMIT.maxPerWindow + 2; i++) statuses.push((await track(i % 2 ? s.code : 'TMT-999999', from)).statusCode);
    expect(statuses.slice(0, PUBLIC_TRACKING_LIMIT.maxPerWindow).every((c) => c === 200 || c === 404)).toBe(true);
    expect(statuses.slice(PUBLIC_TRACKING_LIMIT.maxPerWindow)).toEqual([429, 429]);
    const refused = await track(s.code, from);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatch(/^Demasiadas consultas/);
    expect(refused.body).not.toContain(s.code);
    // Another address is not affected; the same one is let in again once the window has passed.
    expect((await track(s.code, address())).statusCode).toBe(200);
    t.clock.advance(PUBLIC_TRACKING_LIMIT.windowSeconds * 1000 + 1);
    expect((await track(s.code, from)).statusCode).toBe(200);
  });

  it('counts parallel lookups exactly: no burst gets past the limit', async () => {
    const from = address();
    const statuses = await Promise.all(
      Array.from({ length: PUBLIC_TRACKING_LIMIT.maxPerWindow + 10 }, () => track('TMT-999999', from).then((r) => r.statusCode)),
    );
    expect(statuses.filter((c) => c === 404)).toHaveLength(PUBLIC_TRACKING_LIMIT.maxPerWindow);
    expect(statuses.filter((c) => c === 429)).toHaveLength(10);
  });

  it('a code alone shows only the status (issue 31, F10): codes are sequential, the key or the document digits open the rest', async () => {
    const s = await create();
    const from = address();
    const alone = await track(s.code, from, '');
    expect(alone.statusCode).toBe(200);
    expect(alone.json()).toEqual({ code: s.code, status: 'Creado', tone: 'created', verified: false });
    for (const query of ['?k=', '?k=AAAAAAAAAA', `?k=${t.app.trackingLinks.key('TMT-000001')}`]) {
      expect((await track(s.code, from, query)).json()).toEqual({ code: s.code, status: 'Creado', tone: 'created', verified: false });
    }
    const keyed = await track(s.code, from);
    expect(keyed.json()).toMatchObject({ verified: true, recipientName: 'M**** P*** C****', origin: { name: 'Lima' } });
    // The recipient's document is 45879612.
    const digits = await track(s.code, from, '?doc=612');
    expect(digits.json()).toEqual(keyed.json());
    for (const doc of ['12', '6123', 'abc']) {
      const malformed = await track(s.code, from, `?doc=${doc}`);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().fields).toEqual({ doc: 'Ingresa los 3 últimos dígitos del documento del destinatario.' });
    }
    const wrong = await track(s.code, from, '?doc=611');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      error: 'Los dígitos no coinciden con el documento del destinatario.',
      code: 'DOCUMENT_MISMATCH',
      fields: { doc: 'Los dígitos no coinciden con el documento del destinatario.' },
    });
    expect(wrong.body).not.toContain('Lima');
  });

  it('wrong document digits weigh on the address limit: a handful of guesses a minute', async () => {
    const s = await create();
    const from = address();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await track(s.code, from, `?doc=${String(100 + i)}`)).statusCode);
    // Each wrong guess counts its lookup and 5 more: 5 guesses fill the 30 lookups of a minute.
    const guesses = Math.floor(PUBLIC_TRACKING_LIMIT.maxPerWindow / (1 + PUBLIC_TRACKING_LIMIT.wrongDocumentWeight));
    expect(guesses).toBe(5);
    expect(statuses).toEqual([...Array(guesses).fill(422), ...Array(10 - guesses).fill(429)]);
    expect((await track(s.code, from, '?doc=612')).statusCode).toBe(429);
  });

  it('staff get the keyed link for the label and the messages carry it; the public proof needs it', async () => {
    const s = await create();
    const link = await t.call('GET', `/api/tracking-links/${s.code.toLowerCase()}`, { token: courierArequipa });
    expect(link.statusCode).toBe(200);
    const { path: keyed } = link.json() as { path: string };
    expect(keyed).toMatch(new RegExp(`^/seguimiento/${s.code}\\?k=[A-Za-z0-9_-]{10}$`));
    expect((await t.call('GET', `/api/tracking-links/${s.code}`)).statusCode).toBe(401);
    expect((await t.call('GET', '/api/tracking-links/hola', { token: courierArequipa })).statusCode).toBe(404);
    const key = new URL(keyed, 'http://x').searchParams.get('k')!;
    expect((await track(s.code, address(), `?k=${key}`)).json().verified).toBe(true);
  });

  it('serves the public page, not the staff app, at /seguimiento and /seguimiento/{code}', async () => {
    for (const url of ['/seguimiento', '/seguimiento/', '/seguimiento/TMT-000001', '/seguimiento?codigo=TMT-000001']) {
      const res = await t.call('GET', url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('public page');
    }
    for (const url of ['/shipments/1', '/seguimientos']) expect((await t.call('GET', url)).body).toContain('staff app');
    // /login opened by address is its own small page (issue 37); the app's routes stay the app's.
    for (const url of ['/login', '/login?next=/pagos']) expect((await t.call('GET', url)).body).toContain('login page');
  });

  it("allows the login page's own inline script by its hash, and that script only", async () => {
    const scriptSources = (csp: string | null) =>
      String(csp)
        .split(';')
        .find((d) => d.startsWith('script-src '))
        ?.split(' ')
        .slice(1);
    const login = await t.call('GET', '/login');
    expect(scriptSources(login.headers.get('content-security-policy'))).toEqual(["'self'", "'wasm-unsafe-eval'", sha256(SCRIPT('login page'))]);
    // Every other page keeps the policy without inline scripts.
    expect(scriptSources((await t.call('GET', '/shipments/1')).headers.get('content-security-policy'))).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    // A build while the server runs writes a new page: its script is the one allowed.
    const file = path.join(webDist, 'login.html');
    fs.writeFileSync(file, loginPage('login page, rebuilt'));
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const rebuilt = await t.call('GET', '/login');
    expect(rebuilt.body).toContain('login page, rebuilt');
    expect(scriptSources(rebuilt.headers.get('content-security-policy'))).toEqual([
      "'self'",
      "'wasm-unsafe-eval'",
      sha256(SCRIPT('login page, rebuilt')),
    ]);
  });

  it("tells the web app the public origin for the labels' QR: PUBLIC_URL, else null (the app's own)", async () => {
    expect((await t.call('GET', '/api/health')).json().publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://envios.tramo.pe/' }).publicUrl).toBe('https://envios.tramo.pe');
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://envios.tramo.pe' })).toThrow(/PUBLIC_URL/);
  });
});
