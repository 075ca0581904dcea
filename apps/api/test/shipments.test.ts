import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bucketStart, closedShipmentMessage, latest, limaDay, SHIPMENT_MESSAGES } from '@tramo/domain';
import { bulkInsertShipments } from '../src/seed/shipments-bulk.ts';
import { foldDailyCounts } from '../src/modules/shipments/index.ts';
import { LIVIANO_TIERS, seedLimaPrices } from './fixtures.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * Price tables of this file only (the demo pricing seed may change): Lima→Arequipa and
 * Lima→Trujillo in every class; Trujillo→Lima is priced from the reverse table; Cusco↔Piura has none.
 */
const TIERS = {
  liviano: LIVIANO_TIERS,
  medio: [
    [1, 10, '2.15'],
    [11, 1000, '1.95'],
  ],
  alto: [[1, 1000, '3.3333']],
} as const;

describe.each(engines)('shipments (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agentLima: string;
  let agentArequipa: string;
  let courierArequipa: string;
  let lima: number;
  let arequipa: number;
  let trujillo: number;
  let cusco: number;
  let piura: number;

  beforeAll(async () => {
    t = await startTestApp(engine, { seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa', 'Trujillo'], TIERS) });
    [admin, agentLima, agentArequipa, courierArequipa] = await Promise.all([
      t.login('ADMIN'),
      t.login('AGENTE1'),
      t.login('AGENTE2'),
      t.login('REPARTIDOR1'),
    ]);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    trujillo = t.branchIds.get('Trujillo')!;
    cusco = t.branchIds.get('Cusco')!;
    piura = t.branchIds.get('Piura')!;
  });
  afterAll(() => t?.close());

  const scalar = async (query: ReturnType<typeof sql>) => {
    const r = await t.database.db.execute(query);
    return Number((r.rows[0] as { n: number | string }).n);
  };
  const shipmentCount = () => scalar(sql`select count(*) as n from shipments`);

  const valid = (over: Record<string, unknown> = {}) => ({
    senderName: 'Comercial Andina SAC',
    recipientDoc: '45879612',
    recipientFirstName: 'María',
    recipientLastName: 'Flores Ccori',
    originBranchId: lima,
    destinationBranchId: arequipa,
    lines: [{ productType: 'liviano', weightKg: 2.5 }],
    description: 'Caja de repuestos',
    secretCode: 'clave-1',
    ...over,
  });

  const create = async (over: Record<string, unknown> = {}, token = admin) => {
    const res = await t.call('POST', '/api/shipments', { token, body: valid(over) });
    if (res.statusCode !== 201) throw new Error(`create failed ${res.statusCode} ${res.body}`);
    return res.json();
  };

  it("accepts the spec's payload (section 7): the recipient as one recipientName, the lines as multiLineDetail (issue 12, item 14)", async () => {
    const res = await t.call('POST', '/api/shipments', {
      token: agentLima,
      body: {
        senderName: 'Comercial Andina SAC',
        recipientName: 'José Luis Quispe Mamani',
        recipientDoc: '41526374',
        originBranchId: lima,
        destinationBranchId: arequipa,
        multiLineDetail: [{ productType: 'liviano', weightKg: 3 }],
        secretCode: 'clave-9',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ recipientName: 'José Luis Quispe Mamani', recipientDoc: '41526374', status: 'Creado' });
    const form = await create({ recipientFirstName: 'Ana', recipientLastName: 'Torres Vela' });
    expect(form.recipientName).toBe('Ana Torres Vela');
  });

  it('creates with lines and prices every line on the server, ignoring client prices', async () => {
    const res = await t.call('POST', '/api/shipments', {
      token: admin,
      body: valid({
        lines: [
          { productType: 'liviano', weightKg: 2.5, price: 999, factorPerKg: 99 },
          { productType: 'medio', weightKg: 12.345 },
          { productType: 'alto', weightKg: 7 },
        ],
        quotedPrice: 1,
        quotedFactorPerKg: 0.01,
        productType: 'liviano',
        weightKg: 1,
      }),
    });
    expect(res.statusCode).toBe(201);
    const s = res.json();
    // liviano 3 kg × 1.4 = 4.20; medio 12.35 → 13 kg × 1.95 = 25.35; alto 7 kg × 3.3333 = 23.3331 → 23.33
    expect(s.multiLineDetail.map((l: { price: number }) => l.price)).toEqual([4.2, 25.35, 23.33]);
    expect(s).toMatchObject({
      code: expect.stringMatching(/^TMT-\d{6}$/),
      status: 'Creado',
      quotedPrice: 52.88,
      quotedCurrency: 'PEN',
      productType: 'alto',
      quotedFactorPerKg: 3.3333,
      weightKg: 21.85,
      billableWeightKg: 23,
      usingReverse: false,
      recipientName: 'María Flores Ccori',
      originBranch: { name: 'Lima', city: 'Lima' },
      destinationBranch: { name: 'Arequipa', city: 'Arequipa' },
      canManage: true,
      canEdit: true,
    });
    expect(s.multiLineDetail[1]).toMatchObject({
      productType: 'medio',
      weightKg: 12.35,
      billableWeightKg: 13,
      factorPerKg: 1.95,
      tier: { from_kg: 11, to_kg: 1000 },
    });
    expect(s.checkpoints).toEqual([expect.objectContaining({ name: 'Creado', kind: 'status', userName: 'Ana Quispe' })]);
    const stored = await t.database.db.execute(sql`select quoted_price::text as p, weight_kg::text as w from shipments where id = ${s.id}`);
    expect(stored.rows[0]).toEqual({ p: '52.88', w: '21.85' });
  });

  it('sums weights exactly and prices a reverse route from the reverse table', async () => {
    const s = await create({
      originBranchId: trujillo,
      destinationBranchId: lima,
      lines: [
        { productType: 'liviano', weightKg: 0.1 },
        { productType: 'liviano', weightKg: 0.2 },
        { productType: 'liviano', weightKg: 0 },
      ],
    });
    expect(s).toMatchObject({ weightKg: 0.3, billableWeightKg: 2, quotedPrice: 2.8, usingReverse: true, productType: 'liviano' });
    expect(s.multiLineDetail).toHaveLength(2);
  });

  it('accepts the spec payload shape (multiLineDetail) and still requotes it', async () => {
    const { lines: _lines, ...rest } = valid();
    const res = await t.call('POST', '/api/shipments', {
      token: admin,
      body: { ...rest, multiLineDetail: [{ productType: 'medio', weightKg: 4, price: 0.5 }], quotedPrice: 0.5 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().quotedPrice).toBe(8.6);
  });

  it('never returns the secret code and lets a manager change it', async () => {
    const s = await create();
    for (const res of [
      await t.call('GET', `/api/shipments/${s.id}`, { token: admin }),
      await t.call('GET', `/api/shipments?q=${s.code}`, { token: admin }),
      await t.call('GET', `/api/shipments/search?q=${s.code}`, { token: admin }),
      await t.call('GET', `/api/shipments/code/${s.code}`, { token: admin }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(/secret|argon2|clave-1/i);
    }
    const hashOf = async () => {
      const r = await t.database.db.execute(sql`select secret_code_hash as h from shipments where id = ${s.id}`);
      return (r.rows[0] as { h: string }).h;
    };
    // An HMAC keyed outside the database, not a slow hash: see lib/secret-codes.ts.
    expect(await hashOf()).toMatch(/^hmac-sha256\$[\w-]{43}$/);
    expect((await t.app.secretCodes.verify(await hashOf(), 'clave-1')).ok).toBe(true);
    const bad = await t.call('PUT', `/api/shipments/${s.id}/secret-code`, { token: admin, body: { secretCode: 'ab' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.secretCode).toBe('Mínimo 4 caracteres');
    const changed = await t.call('PUT', `/api/shipments/${s.id}/secret-code`, { token: agentLima, body: { secretCode: 'Nueva_9' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).not.toMatch(/Nueva_9|argon2/);
    expect((await t.app.secretCodes.verify(await hashOf(), 'Nueva_9')).ok).toBe(true);
    expect((await t.app.secretCodes.verify(await hashOf(), 'clave-1')).ok).toBe(false);
    expect(changed.json().checkpoints.at(-1).name).toBe('Clave secreta actualizada');
  });

  it('gives 50 concurrent creations 50 distinct consecutive codes', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => t.call('POST', '/api/shipments', { token: admin, body: valid() })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    const numbers = results.map((r) => Number(r.json().code.slice(4))).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(50);
    expect(numbers.at(-1)! - numbers[0]!).toBe(49);
  });

  it('refuses bad input with the spec message and stores nothing', async () => {
    const before = await shipmentCount();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ senderName: '  ' }, 'senderName', 'Remitente requerido'],
      [{ senderName: undefined }, 'senderName', 'Remitente requerido'],
      [{ recipientDoc: '12345' }, 'recipientDoc', 'DNI/RUC inválido'],
      [{ recipientDoc: '12a45678' }, 'recipientDoc', 'DNI/RUC inválido'],
      [{ recipientDoc: '1234567890123456' }, 'recipientDoc', 'DNI/RUC demasiado largo'],
      [{ recipientFirstName: '' }, 'recipientFirstName', 'Nombres requeridos'],
      [{ recipientLastName: '' }, 'recipientLastName', 'Apellidos requeridos'],
      [{ originBranchId: undefined }, 'originBranchId', 'Seleccione origen'],
      [{ originBranchId: '' }, 'originBranchId', 'Seleccione origen'],
      [{ destinationBranchId: null }, 'destinationBranchId', 'Seleccione destino'],
      [{ destinationBranchId: lima }, 'destinationBranchId', 'El origen y destino no pueden ser la misma sucursal.'],
      [{ secretCode: 'abc' }, 'secretCode', 'Mínimo 4 caracteres'],
      [{ secretCode: 'abcdefghijklm' }, 'secretCode', 'Máximo 12 caracteres'],
      [{ secretCode: 'ab cd' }, 'secretCode', 'Solo letras, números y - _ .'],
      [{ description: 'x'.repeat(501) }, 'description', 'Máximo 500 caracteres'],
      [{ lines: [{ productType: 'liviano', weightKg: 0 }] }, 'lines', 'Agrega al menos una línea con peso mayor a 0.'],
      [{ lines: [] }, 'lines', 'Agrega al menos una línea con peso mayor a 0.'],
      [{ lines: [{ productType: 'pesado', weightKg: 3 }] }, 'lines.0.productType', 'Categoría inválida'],
    ];
    for (const [over, field, message] of cases) {
      const res = await t.call('POST', '/api/shipments', { token: admin, body: valid(over) });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().fields[field], JSON.stringify(over)).toBe(message);
    }
    const outOfRange = await t.call('POST', '/api/shipments', {
      token: admin,
      body: valid({ lines: [{ productType: 'liviano', weightKg: 1000.5 }] }),
    });
    expect(outOfRange.statusCode).toBe(422);
    expect(outOfRange.json()).toMatchObject({
      error: 'Peso fuera de los rangos configurados.',
      fields: { 'lines.0.weightKg': 'Peso fuera de los rangos configurados.' },
    });
    const noTable = await t.call('POST', '/api/shipments', { token: admin, body: valid({ originBranchId: cusco, destinationBranchId: piura }) });
    expect(noTable.statusCode).toBe(422);
    const ghostBranch = await t.call('POST', '/api/shipments', { token: admin, body: valid({ destinationBranchId: 9999 }) });
    expect(ghostBranch.statusCode).toBe(422);
    expect(ghostBranch.json().error).toBe('La sucursal de destino no existe.');
    const ghostSender = await t.call('POST', '/api/shipments', { token: admin, body: valid({ senderCustomerId: 9999 }) });
    expect(ghostSender.statusCode).toBe(422);
    const notJson = await t.call('POST', '/api/shipments', { token: admin, body: '{nope' });
    expect(notJson.statusCode).toBe(400);
    expect(await shipmentCount()).toBe(before);
  });

  it('applies the status transition table with the spec messages', async () => {
    const s = await create();
    const patch = (body: unknown, token = admin) => t.call('PATCH', `/api/shipments/${s.id}/status`, { token, body });

    let res = await patch({ note: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.status).toBe('Selecciona un estado.');
    res = await patch({ status: '' });
    expect(res.json().fields.status).toBe('Selecciona un estado.');
    res = await patch({ status: 'Creado' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('El estado es el mismo. Agrega una nota o elige otro estado.');
    res = await patch({ status: 'Creado', note: 'Cliente llamó' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('Creado');
    expect(res.json().checkpoints.at(-1)).toMatchObject({ kind: 'status', note: 'Cliente llamó', statusFrom: 'Creado', statusTo: 'Creado' });

    res = await patch({ status: 'Entregado' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('El estado Entregado solo se registra al confirmar la entrega.');

    res = await patch({ status: 'En tránsito' }, agentLima);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('En tránsito');
    expect(res.json().checkpoints.at(-1)).toMatchObject({ name: 'En tránsito', userName: 'Luis Ramírez', statusFrom: 'Creado' });

    res = await patch({ status: 'Creado' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe("No se puede pasar de 'En tránsito' a 'Creado'.");
    res = await patch({ status: 'Anulado' });
    expect(res.json().error).toBe('No se puede anular un envío en tránsito.');
    res = await patch({ status: 'Entregado' });
    expect(res.json().error).toBe('El estado Entregado solo se registra al confirmar la entrega.');
    const cancel = await t.call('DELETE', `/api/shipments/${s.id}`, { token: admin });
    expect(cancel.statusCode).toBe(422);
    expect(cancel.json().error).toBe('No se puede anular un envío en tránsito.');
    expect(await scalar(sql`select count(*) as n from shipments where id = ${s.id} and status = 'En tránsito'`)).toBe(1);

    // Entregado is reached by delivery only (issue #6); here the row is set directly.
    await t.database.db.execute(sql`update shipments set status = 'Entregado' where id = ${s.id}`);
    res = await t.call('DELETE', `/api/shipments/${s.id}`, { token: admin });
    expect(res.json().error).toBe('No se puede anular un envío entregado.');
    res = await patch({ status: 'En tránsito' });
    expect(res.json().error).toBe("No se puede pasar de 'Entregado' a 'En tránsito'.");

    const other = await create();
    const anulled = await t.call('PATCH', `/api/shipments/${other.id}/status`, {
      token: admin,
      body: { status: 'Anulado', note: 'Pedido del cliente' },
    });
    expect(anulled.statusCode).toBe(200);
    expect(anulled.json().status).toBe('Anulado');
    res = await t.call('PATCH', `/api/shipments/${other.id}/status`, { token: admin, body: { status: 'En tránsito' } });
    expect(res.json().error).toBe("No se puede pasar de 'Anulado' a 'En tránsito'.");
  });

  it('cancels a Creado shipment (kept as Anulado) and refuses a second cancel', async () => {
    const s = await create();
    const res = await t.call('DELETE', `/api/shipments/${s.code}`, { token: agentLima });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'Anulado', canEdit: false });
    expect(res.json().checkpoints.at(-1)).toMatchObject({ kind: 'cancel', name: 'Anulado' });
    const again = await t.call('DELETE', `/api/shipments/${s.id}`, { token: admin });
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe('El envío ya está anulado.');
    expect(await scalar(sql`select count(*) as n from shipments where id = ${s.id}`)).toBe(1);
  });

  it("keeps the history of a closed shipment: 'Entregado' and 'Anulado' refuse description, secret code and event changes (issue 12, item 15)", async () => {
    for (const final of ['Entregado', 'Anulado'] as const) {
      const s = await create();
      const added = await t.call('POST', `/api/shipments/${s.id}/checkpoints`, { token: admin, body: { name: 'Llegó a almacén' } });
      const manual = added.json().checkpoints.at(-1);
      await t.database.db.execute(sql`update shipments set status = ${final} where id = ${s.id}`);
      const before = await t.call('GET', `/api/shipments/${s.id}`, { token: admin });
      const audits = await scalar(sql`select count(*) as n from audit_log where entity = 'shipment' and entity_id = ${String(s.id)}`);
      const attempts = [
        await t.call('PUT', `/api/shipments/${s.id}/description`, { token: admin, body: { description: 'Otra cosa' } }),
        await t.call('PUT', `/api/shipments/${s.id}/secret-code`, { token: admin, body: { secretCode: 'nueva-99' } }),
        await t.call('POST', `/api/shipments/${s.id}/checkpoints`, { token: admin, body: { name: 'Reabierto' } }),
        await t.call('DELETE', `/api/shipments/${s.id}/checkpoints/${manual.id}`, { token: admin }),
        await t.call('PATCH', `/api/shipments/${s.id}/status`, { token: admin, body: { status: final, note: 'Nota tardía' } }),
      ];
      for (const res of attempts) {
        expect(res.statusCode).toBe(422);
        expect(res.json().error).toBe(closedShipmentMessage(final));
      }
      const after = await t.call('GET', `/api/shipments/${s.id}`, { token: admin });
      expect(after.json()).toEqual(before.json());
      expect(await scalar(sql`select count(*) as n from audit_log where entity = 'shipment' and entity_id = ${String(s.id)}`)).toBe(audits);
    }
  });

  it('adds and deletes events; only manual ones can be deleted', async () => {
    const s = await create();
    const empty = await t.call('POST', `/api/shipments/${s.id}/checkpoints`, { token: admin, body: { name: '   ' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.name).toBe('Ingresa una descripción del evento.');
    const missing = await t.call('POST', `/api/shipments/${s.id}/checkpoints`, { token: admin, body: {} });
    expect(missing.json().fields.name).toBe('Ingresa una descripción del evento.');
    const added = await t.call('POST', `/api/shipments/${s.id}/checkpoints`, { token: agentLima, body: { name: 'Llegó a almacén' } });
    expect(added.statusCode).toBe(201);
    const event = added.json().checkpoints.at(-1);
    expect(event).toMatchObject({ name: 'Llegó a almacén', kind: 'event', userName: 'Luis Ramírez', at: expect.any(String) });
    const creation = added.json().checkpoints[0];
    const refused = await t.call('DELETE', `/api/shipments/${s.id}/checkpoints/${creation.id}`, { token: admin });
    expect(refused.statusCode).toBe(422);
    const deleted = await t.call('DELETE', `/api/shipments/${s.id}/checkpoints/${event.id}`, { token: admin });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().checkpoints.map((c: { id: number }) => c.id)).not.toContain(event.id);
    expect((await t.call('DELETE', `/api/shipments/${s.id}/checkpoints/${event.id}`, { token: admin })).statusCode).toBe(404);
  });

  it('changes the description with an event and validates it', async () => {
    const s = await create();
    const long = await t.call('PUT', `/api/shipments/${s.id}/description`, { token: admin, body: { description: 'x'.repeat(501) } });
    expect(long.statusCode).toBe(400);
    expect(long.json().fields.description).toBe('Máximo 500 caracteres');
    const res = await t.call('PUT', `/api/shipments/${s.id}/description`, { token: admin, body: { description: 'Dos cajas' } });
    expect(res.json()).toMatchObject({ description: 'Dos cajas' });
    expect(res.json().checkpoints.at(-1).name).toBe('Descripción actualizada');

    // A missing field is refused and changes nothing; an explicit null clears (issue 12, item 6).
    const events = res.json().checkpoints.length;
    const empty = await t.call('PUT', `/api/shipments/${s.id}/description`, { token: admin, body: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(SHIPMENT_MESSAGES.descriptionMissing);
    const after = (await t.call('GET', `/api/shipments/${s.id}`, { token: admin })).json();
    expect(after).toMatchObject({ description: 'Dos cajas' });
    expect(after.checkpoints).toHaveLength(events);
    const cleared = await t.call('PUT', `/api/shipments/${s.id}/description`, { token: admin, body: { description: null } });
    expect(cleared.json().description).toBeNull();
  });

  it('edits only while Creado, requoting the price', async () => {
    const s = await create();
    const res = await t.call('PUT', `/api/shipments/${s.id}`, {
      token: agentLima,
      body: valid({ lines: [{ productType: 'liviano', weightKg: 20 }], quotedPrice: 1, recipientFirstName: 'Rosa', secretCode: '' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ quotedPrice: 26, weightKg: 20, recipientName: 'Rosa Flores Ccori', code: s.code });
    expect(res.json().checkpoints.at(-1).name).toBe('Envío editado');
    const hash = await t.database.db.execute(sql`select secret_code_hash as h from shipments where id = ${s.id}`);
    expect((await t.app.secretCodes.verify((hash.rows[0] as { h: string }).h, 'clave-1')).ok).toBe(true);

    const bad = await t.call('PUT', `/api/shipments/${s.id}`, { token: admin, body: valid({ recipientDoc: '1' }) });
    expect(bad.statusCode).toBe(400);
    await t.call('PATCH', `/api/shipments/${s.id}/status`, { token: admin, body: { status: 'En tránsito' } });
    const late = await t.call('PUT', `/api/shipments/${s.id}`, { token: admin, body: valid() });
    expect(late.statusCode).toBe(422);
    expect(late.json().error).toBe('Solo se puede editar un envío en estado Creado.');
  });

  it('an Arequipa agent sees no Lima→Trujillo shipment: not in the list, its total or the detail (one branch scope)', async () => {
    const page = async () => (await t.call('GET', '/api/shipments?pageSize=100', { token: agentArequipa })).json();
    const before = await page();
    const limaTrujillo = await create({ destinationBranchId: trujillo });
    const after = await page();
    expect(after.items.map((s: { id: number }) => s.id)).not.toContain(limaTrujillo.id);
    expect(after.total).toBe(before.total);
    const byCode = await t.call('GET', `/api/shipments?q=${limaTrujillo.code}`, { token: agentArequipa });
    expect(byCode.json()).toMatchObject({ items: [], total: 0 });
    expect((await t.call('GET', `/api/shipments/${limaTrujillo.id}`, { token: agentArequipa })).statusCode).toBe(403);
    // The Lima agent, at the shipment's origin, sees it.
    const lima = await t.call('GET', `/api/shipments?q=${limaTrujillo.code}`, { token: agentLima });
    expect(lima.json().items.map((s: { id: number }) => s.id)).toEqual([limaTrujillo.id]);
  });

  it('enforces roles and branches on every management call and on visibility', async () => {
    const limaTrujillo = await create({ destinationBranchId: trujillo });
    const limaArequipa = await create();

    const courier = await t.call('POST', '/api/shipments', {
      token: courierArequipa,
      body: valid({ originBranchId: arequipa, destinationBranchId: lima }),
    });
    expect(courier.statusCode).toBe(403);
    const foreignOrigin = await t.call('POST', '/api/shipments', { token: agentArequipa, body: valid() });
    expect(foreignOrigin.statusCode).toBe(403);
    expect(foreignOrigin.json().error).toBe('Solo puedes registrar envíos con origen en tu agencia.');

    for (const target of [limaTrujillo, limaArequipa]) {
      const base = `/api/shipments/${target.id}`;
      const calls: [string, string, unknown?][] = [
        ['PATCH', `${base}/status`, { status: 'En tránsito' }],
        ['POST', `${base}/checkpoints`, { name: 'x' }],
        ['DELETE', `${base}/checkpoints/1`],
        ['PUT', `${base}/secret-code`, { secretCode: 'otra1' }],
        ['PUT', `${base}/description`, { description: 'x' }],
        ['PUT', base, valid()],
        ['DELETE', base],
      ];
      for (const [method, url, body] of calls) {
        expect((await t.call(method, url, { token: agentArequipa, body })).statusCode, `${method} ${url}`).toBe(403);
        expect((await t.call(method, url, { token: courierArequipa, body })).statusCode, `${method} ${url}`).toBe(403);
        expect((await t.call(method, url, { body })).statusCode, `${method} ${url}`).toBe(401);
      }
    }
    const unchanged = await t.call('GET', `/api/shipments/${limaTrujillo.id}`, { token: admin });
    expect(unchanged.json()).toMatchObject({ status: 'Creado', description: 'Caja de repuestos' });

    const listed = async (token: string) =>
      (await t.call('GET', '/api/shipments?pageSize=100&q=Flores', { token })).json().items.map((s: { id: number }) => s.id);
    expect(await listed(agentArequipa)).not.toContain(limaTrujillo.id);
    expect(await listed(agentArequipa)).toContain(limaArequipa.id);
    expect(await listed(agentLima)).toContain(limaTrujillo.id);
    expect((await t.call('GET', `/api/shipments/${limaTrujillo.id}`, { token: agentArequipa })).statusCode).toBe(403);
    const seen = await t.call('GET', `/api/shipments/${limaArequipa.id}`, { token: courierArequipa });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ canManage: false, canEdit: false });

    // Tracking reaches every branch, read-only.
    const tracked = await t.call('GET', `/api/shipments/code/${limaTrujillo.code}`, { token: agentArequipa });
    expect(tracked.statusCode).toBe(200);
    expect(tracked.json()).toMatchObject({ canManage: false, checkpoints: [expect.objectContaining({ name: 'Creado' })] });
    const search = await t.call('GET', `/api/shipments/search?q=${limaTrujillo.code}`, { token: courierArequipa });
    expect(search.json().map((s: { id: number }) => s.id)).toEqual([limaTrujillo.id]);
    // ...answering only what the tracking screen shows: no sender, price, weight or permissions (item 9).
    expect(Object.keys(search.json()[0]).sort()).toEqual(
      ['code', 'createdAt', 'destinationBranch', 'id', 'originBranch', 'recipientDoc', 'recipientName', 'status'].sort(),
    );

    // Without a term tracking is no branch browser (issue 12, item 9).
    for (const query of [
      `originId=${limaTrujillo.originBranchId}`,
      `destinationId=${limaTrujillo.destinationBranchId}`,
      'status=Creado',
      'q=%20%20',
    ]) {
      const browse = await t.call('GET', `/api/shipments/search?${query}`, { token: courierArequipa });
      expect(browse.statusCode, query).toBe(400);
      expect(browse.json().error).toBe(SHIPMENT_MESSAGES.searchTermRequired);
    }
  });

  it('tracking search finds by the recipient, never by the sender; the list searches both (issue 16, item 5)', async () => {
    const s = await create({ senderName: 'Zacarías Ñahui Remitente', recipientFirstName: 'Olga', recipientLastName: 'Destinataria Poma' });
    const search = async (q: string) =>
      (await t.call('GET', `/api/shipments/search?q=${encodeURIComponent(q)}`, { token: admin })).json().map((r: { id: number }) => r.id);
    expect(await search('zacarias nahui')).toEqual([]);
    expect(await search('olga destinataria')).toEqual([s.id]);
    const listed = await t.call('GET', `/api/shipments?q=${encodeURIComponent('zacarias nahui')}`, { token: admin });
    expect(listed.json().items.map((r: { id: number }) => r.id)).toEqual([s.id]);
  });

  it('accepts the widest well-formed date range (issue 12, item 13)', async () => {
    const s = await create();
    const res = await t.call('GET', '/api/shipments?dateFrom=0001-01-01&dateTo=9999-12-31&pageSize=100', { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items[0].id).toBe(s.id);
    expect((await t.call('GET', '/api/dashboard?dateFrom=0001-01-01&dateTo=9999-12-31', { token: admin })).statusCode).toBe(200);
  });

  it('finds a shipment by id, by code in any form, and 404s in Spanish', async () => {
    const s = await create();
    const n = Number(s.code.slice(4));
    for (const ref of [String(s.id), s.code, `tmt-${n}`]) {
      const res = await t.call('GET', `/api/shipments/${ref}`, { token: admin });
      expect(res.statusCode, ref).toBe(200);
      expect(res.json().id).toBe(s.id);
    }
    expect((await t.call('GET', `/api/shipments/code/${s.code}`, { token: admin })).json().id).toBe(s.id);
    for (const url of ['/api/shipments/999999', '/api/shipments/TMT-999999', '/api/shipments/code/TMT-999999', '/api/shipments/nada']) {
      const res = await t.call('GET', url, { token: admin });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe('Envío no encontrado.');
    }
  });

  it('filters, searches and pages the list with a matching total, newest first', async () => {
    // A past month of its own so the date filters see only these rows.
    const at = (iso: string) => t.clock.set(iso);
    const rows = [
      ['2024-03-01T04:59:00Z', lima, arequipa, 'Quispe Tarazona', '70000001'], // Lima day 2024-02-29
      ['2024-03-01T05:00:00Z', lima, arequipa, 'Quispe Tarazona', '70000002'], // Lima day 2024-03-01
      ['2024-03-02T15:00:00Z', lima, trujillo, 'Vargas Llosa', '70000003'],
      ['2024-03-03T15:00:00Z', trujillo, lima, 'Quispe Mamani', '20600000004'],
      ['2024-03-04T15:00:00Z', lima, trujillo, 'Chávez Rojas', '70000005'],
    ] as const;
    const made = [];
    for (const [when, origin, destination, last, doc] of rows) {
      at(when);
      made.push(
        await create({
          originBranchId: origin,
          destinationBranchId: destination,
          recipientLastName: last,
          recipientDoc: doc,
          recipientFirstName: 'Zoila',
        }),
      );
    }
    t.clock.set(new Date());
    await t.call('PATCH', `/api/shipments/${made[2].id}/status`, { token: admin, body: { status: 'En tránsito' } });
    await t.call('DELETE', `/api/shipments/${made[4].id}`, { token: admin });

    const list = async (query: string, token = admin) => {
      const params = new URLSearchParams({ dateFrom: '2024-02-01', dateTo: '2024-03-31' });
      for (const [key, value] of new URLSearchParams(query)) params.set(key, value);
      const res = await t.call('GET', `/api/shipments?${params}`, { token });
      expect(res.statusCode, query).toBe(200);
      return res.json();
    };
    const codes = (page: { items: { code: string }[] }) => page.items.map((s) => s.code);

    const all = await list('');
    expect(all).toMatchObject({ total: 5, page: 1, pageSize: 10 });
    expect(codes(all)).toEqual([...made].reverse().map((s) => s.code));
    const page2 = await list('page=2&pageSize=2');
    expect(page2).toMatchObject({ total: 5, page: 2, pageSize: 2 });
    expect(codes(page2)).toEqual([made[2].code, made[1].code]);
    expect((await list('page=3&pageSize=2')).items).toHaveLength(1);

    expect((await list('dateFrom=2024-03-01&dateTo=2024-03-01')).total).toBe(1);
    expect((await list('dateFrom=2024-02-29&dateTo=2024-02-29')).total).toBe(1);
    expect((await list('status=En%20tr%C3%A1nsito')).total).toBe(1);
    expect((await list('active=true')).total).toBe(4);
    expect((await list('active=false')).total).toBe(1);
    expect((await list(`originBranchId=${trujillo}`)).total).toBe(1);
    expect((await list(`destinationBranchId=${trujillo}`)).total).toBe(2);
    expect((await list(`originBranchId=${lima}&destinationBranchId=${arequipa}`)).total).toBe(2);
    expect((await list('q=quispe')).total).toBe(3);
    expect((await list('q=QUISPE%20MAM')).total).toBe(1);
    expect((await list('q=chavez')).total).toBe(1);
    expect((await list('q=zo%C3%ADla%20ch%C3%A1vez')).total).toBe(1);
    expect((await list('q=2060000')).total).toBe(1);
    expect((await list('q=70000005')).total).toBe(1);
    expect(codes(await list(`q=${made[3].code.toLowerCase()}`))).toEqual([made[3].code]);
    expect((await list('q=100%25')).total).toBe(0);
    // Every word typed, whole, the last one also as a beginning (issue 19): 'quis' starts Quispe, 'uisp' starts no word.
    expect((await list('q=quis')).total).toBe(3);
    expect((await list('q=uisp')).total).toBe(0);
    expect((await list('q=zoila%20ch')).total).toBe(1);
    expect((await list('q=zoi%20chavez')).total).toBe(0);
    // Fewer than 3 characters are refused everywhere a shipment is searched, in Spanish.
    for (const url of ['/api/shipments?q=qu', '/api/shipments/search?q=%20qu%20', '/api/dashboard?q=q']) {
      const short = await t.call('GET', url, { token: admin });
      expect(short.statusCode, url).toBe(400);
      expect(short.json().fields.q, url).toBe(SHIPMENT_MESSAGES.searchTermTooShort);
    }
    // An Arequipa agent sees only what leaves or reaches Arequipa.
    expect((await list('', agentArequipa)).total).toBe(2);

    for (const [query, field, message] of [
      ['dateFrom=2024-03-05&dateTo=2024-03-01', 'dateTo', 'Rango de fechas inválido: "Desde" no puede ser posterior a "Hasta".'],
      ['dateFrom=05/03/2024', 'dateFrom', 'Fecha inválida (AAAA-MM-DD).'],
      ['pageSize=101', 'pageSize', 'Máximo 100 por página'],
      ['status=Perdido', 'status', 'Estado inválido'],
    ]) {
      const res = await t.call('GET', `/api/shipments?${query}`, { token: admin });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().fields[field!], query).toBe(message);
    }
  });

  it('returns the Panel counters and the per-day series in one call', async () => {
    t.clock.set('2023-06-10T17:00:00Z');
    const a = await create();
    await create({ destinationBranchId: trujillo });
    t.clock.set('2023-06-12T17:00:00Z');
    const c = await create();
    t.clock.set(new Date());
    await t.call('PATCH', `/api/shipments/${a.id}/status`, { token: admin, body: { status: 'En tránsito' } });
    await t.call('DELETE', `/api/shipments/${c.id}`, { token: admin });

    const res = await t.call('GET', '/api/dashboard?dateFrom=2023-06-09&dateTo=2023-06-12', { token: admin });
    expect(res.statusCode).toBe(200);
    const d = res.json();
    expect(d.counters).toEqual({ total: 3, Creado: 1, 'En tránsito': 1, 'En agencia': 0, Entregado: 0, Anulado: 1, Devuelto: 0 });
    expect(d.series.map((s: { day: string; total: number }) => [s.day, s.total])).toEqual([
      ['2023-06-09', 0],
      ['2023-06-10', 2],
      ['2023-06-11', 0],
      ['2023-06-12', 1],
    ]);
    expect(d.series[1].byStatus).toEqual({ Creado: 1, 'En tránsito': 1, 'En agencia': 0, Entregado: 0, Anulado: 0, Devuelto: 0 });

    const filtered = await t.call('GET', `/api/dashboard?dateFrom=2023-06-09&dateTo=2023-06-12&destinationBranchId=${trujillo}`, { token: admin });
    expect(filtered.json().counters.total).toBe(1);
    const scoped = await t.call('GET', '/api/dashboard?dateFrom=2023-06-09&dateTo=2023-06-12', { token: agentArequipa });
    expect(scoped.json().counters).toMatchObject({ total: 2, 'En tránsito': 1, Anulado: 1 });
    const reversed = await t.call('GET', '/api/dashboard?dateFrom=2023-06-12&dateTo=2023-06-09', { token: admin });
    expect(reversed.statusCode).toBe(400);
  });

  it('counts exactly what the latest-shipments list holds, with a missing date bound left open', async () => {
    // Shipments years apart, so no 30-day window could hold them all.
    t.clock.set('2021-02-03T17:00:00Z');
    await create({ recipientFirstName: 'Eulalia', recipientLastName: 'Antigua' });
    t.clock.set('2022-11-20T17:00:00Z');
    await create({ destinationBranchId: trujillo, recipientFirstName: 'Eulalia', recipientLastName: 'Media' });
    t.clock.set(new Date());
    await create({ recipientFirstName: 'Eulalia', recipientLastName: 'Reciente' });

    type Day = { day: string; total: number };
    const both = async (query: string, token = admin) => {
      const [d, l] = await Promise.all([
        t.call('GET', `/api/dashboard?${query}`, { token }),
        t.call('GET', `/api/shipments?pageSize=1&${query}`, { token }),
      ]);
      expect(d.statusCode, query).toBe(200);
      expect(l.json().totalCapped, query).toBe(false);
      const dash = d.json();
      expect(dash.counters.total, query).toBe(l.json().total);
      // The chart shows the same shipments as the counters.
      expect(
        dash.series.reduce((a: number, s: Day) => a + s.total, 0),
        query,
      ).toBe(dash.counters.total);
      return dash;
    };
    const today = limaDay(new Date());
    const open = await both('');
    expect(open.counters.total).toBeGreaterThanOrEqual(3);
    expect(open.dateTo).toBe(today);
    expect(open.dateFrom <= '2021-02-03').toBe(true);
    // Years of data: one bar per month (or per year), never thousands of days.
    expect(['month', 'year']).toContain(open.bucket);
    expect(open.series.length).toBeLessThanOrEqual(92);

    const fromOnly = await both('dateFrom=2022-01-01');
    expect(fromOnly.dateFrom).toBe('2022-01-01');
    expect(fromOnly.dateTo).toBe(today);
    const toOnly = await both('dateTo=2022-12-31');
    expect(toOnly.dateTo).toBe('2022-12-31');
    expect(toOnly.dateFrom <= '2021-02-03').toBe(true);
    expect((await both('dateTo=2021-02-03')).counters.total).toBeGreaterThanOrEqual(1);
    expect((await both('q=eulalia')).counters.total).toBe(3);
    expect((await both('q=eulalia&dateFrom=2022-01-01')).counters.total).toBe(2);
    expect((await both('q=eulalia&dateTo=2022-12-31')).counters.total).toBe(2);
    await both(`destinationBranchId=${trujillo}`);
    await both('status=Creado&dateTo=2023-01-01');
    await both('', agentArequipa);

    // An explicit range is kept as given; its bars are days, weeks or months by length.
    const year = await both('dateFrom=2022-01-01&dateTo=2022-12-31');
    expect(year.bucket).toBe('week');
    expect(year.series[0].day).toBe('2022-01-01');
    // 2022-01-01 is a Saturday: the next bar starts on Monday the 3rd.
    expect(year.series[1].day).toBe('2022-01-03');
    expect(year.series.at(-1).day).toBe('2022-12-26');
    // Each shipment sits in the bar of its Lima day's Monday-started week (the database groups the
    // bars when both bounds are given): 2022-11-20 is a Sunday, so its bar is Monday the 14th.
    const days2022 = (
      await t.database.db.execute(
        sql`select (((created_at at time zone 'UTC') - interval '5 hours')::date)::text as day from shipments where created_at >= '2022-01-01T05:00:00Z' and created_at < '2023-01-01T05:00:00Z'`,
      )
    ).rows as { day: string }[];
    const expectedBars: Record<string, number> = {};
    for (const { day } of days2022) {
      const bar = latest('2022-01-01', bucketStart(day, 'week'));
      expectedBars[bar] = (expectedBars[bar] ?? 0) + 1;
    }
    expect(expectedBars['2022-11-14']).toBeGreaterThanOrEqual(1);
    expect(Object.fromEntries(year.series.filter((s: Day) => s.total > 0).map((s: Day) => [s.day, s.total]))).toEqual(expectedBars);
    const twoYears = await both('dateFrom=2021-01-15&dateTo=2022-12-31');
    expect(twoYears.bucket).toBe('month');
    expect(twoYears.series.map((s: Day) => s.day).slice(0, 3)).toEqual(['2021-01-15', '2021-02-01', '2021-03-01']);
    expect(twoYears.series).toHaveLength(24);
    expect(twoYears.series.find((s: Day) => s.day === '2022-11-01').total).toBeGreaterThanOrEqual(1);
    // Ranges the list accepts are not refused here either.
    const long = await both('dateFrom=2000-01-01&dateTo=2030-12-31');
    expect(long.bucket).toBe('year');
    expect(long.series).toHaveLength(31);
  });

  it('keeps the daily counts (read by the Panel) equal to the shipments through every change', async () => {
    const recount = async () => {
      const kept = await t.database.db.execute(sql`
        select day::text as day, origin_branch_id, destination_branch_id, status, sum(n)::int as n
          from (select day, origin_branch_id, destination_branch_id, status, n from shipment_daily_counts
                union all select day, origin_branch_id, destination_branch_id, status, n from shipment_daily_count_deltas) k
         group by 1, 2, 3, 4 having sum(n) <> 0 order by 1, 2, 3, 4`);
      const actual = await t.database.db.execute(sql`
        select (((created_at at time zone 'UTC') - interval '5 hours')::date)::text as day, origin_branch_id, destination_branch_id, status, count(*)::int as n
          from shipments group by 1, 2, 3, 4 order by 1, 2, 3, 4`);
      return { kept: kept.rows.map((r) => ({ ...r, n: Number((r as { n: unknown }).n) })), actual: actual.rows };
    };
    const s = await create();
    await t.call('PATCH', `/api/shipments/${s.id}/status`, { token: admin, body: { status: 'En tránsito' } });
    const other = await create();
    await t.call('DELETE', `/api/shipments/${other.id}`, { token: admin });
    const { kept, actual } = await recount();
    expect(actual.length).toBeGreaterThan(0);
    expect(kept).toEqual(actual);
    // Folding the deltas changes nothing a reader sees.
    await foldDailyCounts(t.database.db);
    expect((await recount()).kept).toEqual(actual);
    // The text-search path counts the shipments themselves and agrees with the kept counts.
    const day = limaDay(t.clock.now());
    const viaCounts = (await t.call('GET', `/api/dashboard?dateFrom=${day}&dateTo=${day}`, { token: admin })).json().counters;
    const viaScan = (await t.call('GET', `/api/dashboard?dateFrom=${day}&dateTo=${day}&q=flores`, { token: admin })).json().counters;
    expect(viaScan.total).toBeLessThanOrEqual(viaCounts.total);
    expect(viaCounts.total).toBe(actual.filter((r) => (r as { day: string }).day === day).reduce((a, r) => a + Number((r as { n: number }).n), 0));
  });

  it('counts exactly from the daily counts, and a text search up to 1 000 (issue 19)', async () => {
    const before = (await t.call('GET', '/api/shipments?pageSize=1', { token: admin })).json();
    expect(before.totalCapped).toBe(false);
    await bulkInsertShipments(t.database.db, 10_050);
    const res = (await t.call('GET', '/api/shipments?pageSize=10&page=100', { token: admin })).json();
    expect(res).toMatchObject({ total: before.total + 10_050, totalCapped: false, page: 100 });
    expect(res.items).toHaveLength(10);
    // Past the numbered pages the list goes on by cursor.
    const deep = await t.call('GET', '/api/shipments?pageSize=10&page=101', { token: admin });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().fields.page).toBe('Página fuera del rango numerado: continúa con "Siguiente".');
    const next = (await t.call('GET', `/api/shipments?pageSize=10&page=101&after=${res.next}`, { token: admin })).json();
    expect(next).toMatchObject({ page: 101, total: before.total + 10_050 });
    expect(next.items).toHaveLength(10);
    // One sender in eight of the bulk load: more than a text search counts.
    expect((await t.call('GET', '/api/shipments?q=comercial', { token: admin })).json()).toMatchObject({ total: 1000, totalCapped: true });
    const narrow = (await t.call('GET', `/api/shipments?q=${before.items[0].code}`, { token: admin })).json();
    expect(narrow).toMatchObject({ total: 1, totalCapped: false });
  });

  it('writes an audit row for every change, and keeps branches in use', async () => {
    const s = await create();
    await t.call('POST', `/api/shipments/${s.id}/checkpoints`, { token: admin, body: { name: 'Revisado' } });
    await t.call('PUT', `/api/shipments/${s.id}/description`, { token: admin, body: { description: 'Otra' } });
    await t.call('PUT', `/api/shipments/${s.id}/secret-code`, { token: admin, body: { secretCode: 'zzzz' } });
    await t.call('PUT', `/api/shipments/${s.id}`, { token: admin, body: valid() });
    await t.call('PATCH', `/api/shipments/${s.id}/status`, { token: admin, body: { status: 'Creado', note: 'Nota' } });
    await t.call('DELETE', `/api/shipments/${s.id}`, { token: admin });
    const r = await t.database.db.execute(
      sql`select action, after from audit_log where entity = 'shipment' and entity_id = ${String(s.id)} order by id`,
    );
    const actions = (r.rows as { action: string; after: unknown }[]).map((row) => row.action);
    expect(actions).toEqual(['create', 'event.add', 'description', 'secret', 'update', 'status', 'cancel']);
    expect(JSON.stringify(r.rows)).not.toMatch(/argon2|zzzz/);

    const del = await t.call('DELETE', `/api/branches/${arequipa}`, { token: admin });
    expect(del.statusCode).toBe(409);
    // Trujillo has no staff, only shipments: the foreign key itself refuses, as a 409 on both engines.
    const byShipments = await t.call('DELETE', `/api/branches/${trujillo}`, { token: admin });
    expect(byShipments.statusCode).toBe(409);
    expect(byShipments.json().error).toBe('No se puede eliminar la sucursal: tiene registros asociados.');
  });
});
