import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/**
 * Issue 34 through HTTP: the quote, the stored breakdown and the receipt agree to the céntimo; a
 * later table change leaves a stored shipment as it was charged; bad tariff input is a Spanish
 * 400/422 with nothing stored.
 */
describe.each(engines)('tariffs (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let lima: number;
  let arequipa: number;
  let customerId: number;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;

  beforeAll(async () => {
    billing = await sandboxBilling('tariffs');
    t = await startTestApp(engine, {
      // S/ 2.00 per chargeable kg, every weight.
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '2.00']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    admin = await t.login('ADMIN');
    agent = await t.login('AGENTE1');
    const inserted = await t.database.db.execute(
      sql`insert into customers (first_name, last_name, doc_type, doc_number, address) values ('Textiles Andinos SAC', null, 6, '20100070970', 'Av. Argentina 1450, Lima') returning id`,
    );
    customerId = Number((inserted.rows[0] as { id: number }).id);
    const discount = await t.call('PUT', `/api/tariffs/customers/${customerId}`, { token: agent, body: { discount: 10 } });
    expect(discount.statusCode, discount.body).toBe(200);
    // Lima → Arequipa charges at least S/ 50.00.
    const minimum = await t.call('PUT', '/api/tariffs/routes', {
      token: agent,
      body: { originBranchId: lima, destinationBranchId: arequipa, minimumCharge: 50 },
    });
    expect(minimum.statusCode, minimum.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const route = () => ({ originBranchId: lima, destinationBranchId: arequipa });
  /**
   * By volume: 2 bultos of 50 × 40 × 30 cm = 120 000 cm³ / 6000 = 20 kg (3 kg real) × 2.00 = 40.00,
   * raised to the route's minimum 50.00 (+10.00); home delivery +10.00; S/ 800 declared is above the
   * S/ 500 threshold: insurance 2 % = 16.00; the customer's 10 % off the freight (50.00) = −5.00.
   * Total 71.00.
   */
  const tariffFields = (over: Record<string, unknown> = {}) => ({
    senderCustomerId: customerId,
    lines: [{ productType: 'liviano', weightKg: 3, packages: 2, lengthCm: 50, widthCm: 40, heightCm: 30, basis: 'volumen' }],
    surcharges: ['entrega_domicilio'],
    declaredValue: 800,
    insured: true,
    ...over,
  });
  const expectedComponents = [
    { kind: 'flete', code: '1', description: 'Flete 20 kg (volumen)', amount: 40 },
    { kind: 'minimo', code: null, description: 'Ajuste a cargo mínimo (S/ 50.00)', amount: 10 },
    { kind: 'recargo', code: 'entrega_domicilio', description: 'Entrega a domicilio', amount: 10 },
    { kind: 'seguro', code: null, description: 'Seguro (valor declarado S/ 800.00)', amount: 16 },
    { kind: 'descuento', code: null, description: 'Descuento Textiles Andinos SAC (10 %)', amount: -5 },
  ];
  const count = async () => Number(((await t.database.db.execute(sql`select count(*)::int as n from shipments`)).rows[0] as { n: number }).n);

  it('the quote, the stored breakdown and the receipt total agree: 71.00', async () => {
    const quote = await t.call('POST', '/api/quotes', { token: agent, body: { ...route(), ...tariffFields() } });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({ total: 71, currency: 'PEN', divisor: 6000, usingReverse: false, components: expectedComponents });
    expect(quote.json().lines[0]).toMatchObject({ basis: 'volumen', realKg: 3, volumetricKg: 20, chargeableKg: 20, source: 'ruta', amount: 40 });

    const created = await t.call('POST', '/api/shipments', {
      token: agent,
      body: shipmentBody(route(), tariffFields({ senderName: 'Textiles Andinos SAC' })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const shipment = created.json();
    expect(shipment).toMatchObject({ quotedPrice: 71, billableWeightKg: 20, declaredValue: 800, insured: true, surcharges: ['entrega_domicilio'] });
    expect(shipment.priceComponents).toEqual(expectedComponents);
    expect(shipment.multiLineDetail[0]).toMatchObject({ packages: 2, basis: 'volumen', lengthCm: 50, chargeableKg: 20, volumetricKg: 20, price: 40 });

    const read = (await t.call('GET', `/api/shipments/${shipment.id}`, { token: agent })).json();
    expect(read.priceComponents).toEqual(expectedComponents);
    const sum = read.priceComponents.reduce((acc: number, c: { amount: number }) => acc + Math.round(c.amount * 100), 0);
    expect(sum).toBe(7100);

    const paid = await t.call('POST', '/api/payments/manual', {
      token: agent,
      body: {
        shipmentId: shipment.id,
        customerName: 'Textiles Andinos SAC',
        customerDocNumber: '20100070970',
        amount: 71,
        currency: 'PEN',
        methodCode: 'cash',
      },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const doc = await t.database.db.execute(
      sql`select d.total::text as total from payments p join documents d on d.id = p.document_id where p.shipment_id = ${shipment.id}`,
    );
    expect(doc.rows[0]).toEqual({ total: '71.00' });

    // One SUNAT item per positive component; the customer's −5.00 is the freight items' own discount.
    const payment = paid.json().payment as { documentId?: number | null };
    const documentId =
      payment.documentId ??
      Number(
        ((await t.database.db.execute(sql`select document_id as id from payments where shipment_id = ${shipment.id}`)).rows[0] as { id: number }).id,
      );
    const receipt = await t.call('GET', `/api/billing/lookup/${documentId}`, { token: agent });
    expect(receipt.statusCode, receipt.body).toBe(200);
    const lines = receipt.json().lines as { description: string; discount: number; taxable: number; igv: number; total: number }[];
    const descriptions = expectedComponents.filter((c) => c.amount > 0).map((c) => c.description);
    descriptions[0] = `Servicio de envío ${shipment.code}: ${descriptions[0]}`;
    expect(lines.map((l) => l.description)).toEqual(descriptions);
    // The −5.00 over the freight 40.00 + 10.00 in proportion: 4.00 and 1.00 (with IGV).
    expect(lines.map((l) => l.total)).toEqual([36, 9, 10, 16]);
    for (const l of lines) expect(Math.round((l.taxable + l.igv) * 100)).toBe(Math.round(l.total * 100));
    expect(lines[0]!.discount).toBeGreaterThan(0);
    expect(lines.reduce((acc, l) => acc + Math.round(l.total * 100), 0)).toBe(7100);
    expect(receipt.json().totals.total).toBe(71);

    // Lost: the clause pays the insured declared value × the cover.
    const { cover } = (await t.call('GET', '/api/tariffs/settings', { token: agent })).json() as { cover: number };
    const lost = await t.call('POST', `/api/shipments/${shipment.id}/incidents`, { token: agent, body: { reason: 'extraviado' } });
    expect(lost.statusCode, lost.body).toBe(201);
    const listed = (await t.call('GET', `/api/shipments/${shipment.id}/incidents`, { token: agent })).json() as { compensation: unknown }[];
    expect(listed[0]!.compensation).toMatchObject({ basis: 'declarado', amount: Math.round(800 * cover) / 100 });

    // The company's liability clause prints on the A4 receipt and the 80 mm ticket.
    const { liabilityClause } = (await t.call('GET', '/api/tariffs/settings', { token: agent })).json() as { liabilityClause: string };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-tariffs-'));
    try {
      for (const format of ['a4', 'ticket']) {
        const res = await fetch(`${t.baseUrl}/api/billing/documents/${documentId}/pdf?format=${format}`, {
          headers: { authorization: `Bearer ${agent}` },
        });
        expect(res.status).toBe(200);
        const file = path.join(dir, `${format}.pdf`);
        fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
        const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
        expect(text).toContain(liabilityClause.replace(/\s+/g, ' ').slice(0, 60));
        expect(text).toContain('Entrega a domicilio');
        if (process.env.TARIFF_PDF_DIR) fs.copyFileSync(file, path.join(process.env.TARIFF_PDF_DIR, `receipt-${engine}-${format}.pdf`));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a customer's own tiers and article prices on a route come before the route's; bad ones change nothing", async () => {
    const inserted = await t.database.db.execute(
      sql`insert into customers (first_name, last_name, doc_type, doc_number) values ('Ferretería', 'Norte', 1, '41234567') returning id`,
    );
    const own = Number((inserted.rows[0] as { id: number }).id);
    const article = await t.call('POST', '/api/tariffs/articles', {
      token: agent,
      body: { name: 'Saco 50 kg propio', unit: 'saco', unitCode: 'BG' },
    });
    expect(article.statusCode, article.body).toBe(201);
    const articleId = (article.json() as { id: number }).id;
    const rows = async () =>
      Number(((await t.database.db.execute(sql`select count(*)::int as n from customer_route_tariffs`)).rows[0] as { n: number }).n);

    // Bad input: overlapping tiers (400) and an unknown article (422), nothing stored.
    const overlapping = await t.call('PUT', `/api/tariffs/customers/${own}/routes`, {
      token: agent,
      body: {
        ...route(),
        tiers: {
          liviano: [
            { from_kg: 1, to_kg: 50, factor_per_kg: 1 },
            { from_kg: 40, to_kg: 1000, factor_per_kg: 1 },
          ],
        },
      },
    });
    expect(overlapping.statusCode).toBe(400);
    expect(overlapping.body).toContain('Hay tramos que se solapan');
    const unknown = await t.call('PUT', `/api/tariffs/customers/${own}/routes`, {
      token: agent,
      body: { ...route(), articles: [{ articleId: 999_999, price: 5 }] },
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().error).toBe('El artículo no existe.');
    expect(await rows()).toBe(0);

    const put = await t.call('PUT', `/api/tariffs/customers/${own}/routes`, {
      token: agent,
      body: { ...route(), tiers: { liviano: [{ from_kg: 1, to_kg: 1000, factor_per_kg: 1 }] }, articles: [{ articleId, price: 60 }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ articles: [{ articleId, name: 'Saco 50 kg propio', price: 60 }] });
    expect((await t.call('GET', `/api/tariffs/customers/${own}/routes`, { token: agent })).json()).toHaveLength(1);

    // 100 kg × 1.00 (the customer's tier, not the route's 2.00) + one sack at 60.00 = 160.00.
    const quote = await t.call('POST', '/api/quotes', {
      token: agent,
      body: {
        ...route(),
        senderCustomerId: own,
        lines: [
          { productType: 'liviano', weightKg: 100 },
          { productType: 'liviano', weightKg: 50, basis: 'articulo', articleId },
        ],
      },
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({
      total: 160,
      lines: [
        { source: 'cliente', amount: 100 },
        { source: 'cliente', amount: 60 },
      ],
    });
    // Another sender on the same route pays the route's 2.00 per kg.
    const other = (
      await t.call('POST', '/api/quotes', { token: agent, body: { ...route(), lines: [{ productType: 'liviano', weightKg: 100 }] } })
    ).json();
    expect(other).toMatchObject({ total: 200, lines: [{ source: 'ruta' }] });

    // Both lists empty: the customer's own prices go.
    expect((await t.call('PUT', `/api/tariffs/customers/${own}/routes`, { token: agent, body: { ...route() } })).statusCode).toBe(200);
    expect(await rows()).toBe(0);
  });

  it('a table change does not alter a stored shipment; a new quote follows the new tables', async () => {
    const created = await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route(), tariffFields()) });
    expect(created.statusCode, created.body).toBe(201);
    const before = created.json();
    const [table] = (await t.call('GET', `/api/weight-factors?originId=${lima}&destinationId=${arequipa}`, { token: agent })).json();
    expect(
      (
        await t.call('PUT', `/api/weight-factors/${table.id}/tiers`, {
          token: agent,
          body: { tiers: [{ from_kg: 1, to_kg: 1000, factor_per_kg: 3 }] },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.call('PUT', '/api/tariffs/surcharges/entrega_domicilio', {
          token: agent,
          body: { description: 'Entrega a domicilio', fixedAmount: 15 },
        })
      ).statusCode,
    ).toBe(200);
    const settings = (await t.call('GET', '/api/tariffs/settings', { token: admin })).json();
    expect((await t.call('PUT', '/api/tariffs/settings', { token: admin, body: { ...settings, insuranceRate: 3 } })).statusCode).toBe(200);
    try {
      const after = (await t.call('GET', `/api/shipments/${before.id}`, { token: agent })).json();
      expect(after.quotedPrice).toBe(71);
      expect(after.priceComponents).toEqual(expectedComponents);
      expect(after.multiLineDetail).toEqual(before.multiLineDetail);
      // 20 kg × 3.00 = 60.00 (above the minimum), +15.00, 3 % of 800 = 24.00, −6.00: 93.00.
      const quote = (await t.call('POST', '/api/quotes', { token: agent, body: { ...route(), ...tariffFields() } })).json();
      expect(quote.total).toBe(93);
    } finally {
      await t.call('PUT', `/api/weight-factors/${table.id}/tiers`, {
        token: agent,
        body: { tiers: [{ from_kg: 1, to_kg: 1000, factor_per_kg: 2 }] },
      });
      await t.call('PUT', '/api/tariffs/surcharges/entrega_domicilio', {
        token: agent,
        body: { description: 'Entrega a domicilio', fixedAmount: 10 },
      });
      await t.call('PUT', '/api/tariffs/settings', { token: admin, body: settings });
    }
  });

  it('prices a line by article, from the reverse route when the route has no price of its own', async () => {
    const article = await t.call('POST', '/api/tariffs/articles', { token: agent, body: { name: 'Saco de 50 kg', unit: 'saco', unitCode: 'bg' } });
    expect(article.statusCode, article.body).toBe(201);
    const { id } = article.json();
    expect(article.json()).toMatchObject({ unitCode: 'BG', active: true });
    const price = await t.call('PUT', `/api/tariffs/articles/${id}/prices`, {
      token: agent,
      body: { originBranchId: arequipa, destinationBranchId: lima, price: 18.5 },
    });
    expect(price.statusCode, price.body).toBe(200);
    // 3 sacos × 18.50 = 55.50 (above the 50.00 minimum), no discount without a customer.
    const quote = await t.call('POST', '/api/quotes', {
      token: agent,
      body: { ...route(), lines: [{ productType: 'liviano', weightKg: 150, packages: 3, basis: 'articulo', articleId: id }] },
    });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({
      total: 55.5,
      components: [{ kind: 'flete', description: 'Flete Saco de 50 kg × 3', amount: 55.5 }],
      lines: [{ basis: 'articulo', source: 'articulo', tier: null, article: { id, name: 'Saco de 50 kg', unitCode: 'BG', unitPrice: 18.5 } }],
    });
  });

  it('the spec quote answers as before', async () => {
    const res = await t.call('GET', `/api/weight-factors/quote?originId=${lima}&destinationId=${arequipa}&productType=liviano&weightKg=2.5`, {
      token: agent,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      price: 6,
      currency: 'PEN',
      factorPerKg: 2,
      tier: { from_kg: 1, to_kg: 1000, factor_per_kg: 2 },
      billableWeightKg: 3,
      usingReverse: false,
    });
  });

  const refusals: [string, Record<string, unknown>, number, string][] = [
    [
      'a zero dimension',
      { lines: [{ productType: 'liviano', weightKg: 3, lengthCm: 0, widthCm: 40, heightCm: 30, basis: 'volumen' }] },
      400,
      'Medida inválida: centímetros enteros de 1 a 1000.',
    ],
    [
      'a negative dimension',
      { lines: [{ productType: 'liviano', weightKg: 3, lengthCm: -5, widthCm: 40, heightCm: 30 }] },
      400,
      'Medida inválida: centímetros enteros de 1 a 1000.',
    ],
    [
      'a dimension in words',
      { lines: [{ productType: 'liviano', weightKg: 3, lengthCm: 'cincuenta', widthCm: 40, heightCm: 30 }] },
      400,
      'Medida inválida: centímetros enteros de 1 a 1000.',
    ],
    [
      'two of three dimensions',
      { lines: [{ productType: 'liviano', weightKg: 3, lengthCm: 50, widthCm: 40 }] },
      422,
      'Indica largo, ancho y alto (cm), o ninguno.',
    ],
    [
      'volume without dimensions',
      { lines: [{ productType: 'liviano', weightKg: 3, basis: 'volumen' }] },
      422,
      'Para cobrar por volumen indica largo, ancho y alto (cm).',
    ],
    [
      'an unknown article',
      { lines: [{ productType: 'liviano', weightKg: 3, basis: 'articulo', articleId: 999999 }] },
      422,
      'El artículo no tiene precio en esta ruta.',
    ],
    [
      'an article line without article',
      { lines: [{ productType: 'liviano', weightKg: 3, basis: 'articulo' }] },
      422,
      'Elige un artículo del catálogo.',
    ],
    [
      'a basis not in the list',
      { lines: [{ productType: 'liviano', weightKg: 3, basis: 'metro' }] },
      400,
      'Tipo a cobrar inválido: peso, volumen o artículo.',
    ],
    [
      'a declared value above the cap',
      { declaredValue: 50000.01, insured: true },
      422,
      'El valor declarado supera el máximo asegurable (S/ 50000.00).',
    ],
    [
      'a declared value above the threshold, uninsured',
      { declaredValue: 800, insured: false },
      422,
      'El seguro es obligatorio para un valor declarado mayor a S/ 500.00.',
    ],
    ['insurance without a declared value', { insured: true }, 422, 'Indica el valor declarado para asegurar el envío.'],
    ['a negative declared value', { declaredValue: -1 }, 400, 'Valor declarado inválido'],
    ['an unknown surcharge', { surcharges: ['helicoptero'] }, 422, 'Recargo desconocido.'],
    ['bultos of zero', { lines: [{ productType: 'liviano', weightKg: 3, packages: 0 }] }, 400, 'Bultos inválidos: un número entero de 1 a 9999.'],
  ];
  it.each(refusals)('refuses %s in Spanish, nothing stored (create and quote)', async (_name, over, status, message) => {
    const before = await count();
    const res = await t.call('POST', '/api/shipments', { token: agent, body: shipmentBody(route(), over) });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.body).toContain(message);
    const quote = await t.call('POST', '/api/quotes', {
      token: agent,
      body: { ...route(), lines: [{ productType: 'liviano', weightKg: 3 }], ...over },
    });
    expect(quote.statusCode, quote.body).toBe(status);
    expect(await count()).toBe(before);
    expect(t.takeViolations()).toEqual([]);
  });

  it('keeps the catalogues staff work and the company settings the admin’s', async () => {
    const courier = await t.login('REPARTIDOR1');
    expect(
      (await t.call('POST', '/api/quotes', { token: courier, body: { ...route(), lines: [{ productType: 'liviano', weightKg: 3 }] } })).statusCode,
    ).toBe(403);
    const settings = (await t.call('GET', '/api/tariffs/settings', { token: agent })).json();
    expect(settings).toMatchObject({ volumetricDivisor: 6000, insuranceRate: 2, declaredValueThreshold: 500, cover: 90 });
    expect((await t.call('PUT', '/api/tariffs/settings', { token: agent, body: settings })).statusCode).toBe(403);
    const bad = await t.call('PUT', '/api/tariffs/settings', { token: admin, body: { ...settings, volumetricDivisor: 12 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Divisor inválido: un entero de 1000 a 10000.');
  });
});
