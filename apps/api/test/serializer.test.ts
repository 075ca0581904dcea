import { answers, shipmentPageSchema, type ShipmentListRow, type ShipmentPage } from '@tramo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodOnlyReason } from '../src/plugins/serializer.ts';
import { startTestApp, type TestContext } from './harness.ts';

// Answers leave through a serializer compiled from the route's schema (src/plugins/serializer.ts).
// The harness also writes every answer of every suite with zod and compares; these are the
// guarantees spelled out, through HTTP, on routes added for the test.

const delivered: ShipmentListRow = {
  id: 41,
  code: 'TMT-000041',
  status: 'Entregado',
  createdAt: '2026-03-02T14:05:09.120Z',
  updatedAt: '2026-03-04T09:00:00.000Z',
  createdByName: 'Agente Lima',
  originBranchId: 1,
  destinationBranchId: 2,
  originBranch: { name: 'Lima', city: 'Lima' },
  destinationBranch: { name: 'Cusco', city: null },
  senderCustomerId: 7,
  senderName: 'Comercial "El Sol" S.A.C.',
  recipientFirstName: 'María',
  recipientLastName: 'Flores Ccori',
  recipientName: 'María Flores Ccori',
  recipientDoc: '44556677',
  productType: 'medio',
  weightKg: 12.5,
  billableWeightKg: 13,
  description: 'Caja\ncon "vidrio" \\ frágil',
  quotedPrice: 1234.5,
  quotedCurrency: 'PEN',
  quotedFactorPerKg: 0.1,
  usingReverse: false,
  payer: 'remitente',
  paymentMoment: 'origen',
  payerDocType: null,
  payerDocNumber: null,
  payerName: null,
  payerCustomerId: null,
  multiLineDetail: [
    {
      productType: 'medio',
      weightKg: 12.5,
      billableWeightKg: 13,
      factorPerKg: 0.1,
      price: 1234.5,
      currency: 'PEN',
      tier: { from_kg: 0, to_kg: 20, factor_per_kg: 0.1 },
      usingReverse: false,
    },
  ],
  deliveredInfo: { receiverName: 'María', deliveredAt: '2026-03-04T09:00:00.000Z', notes: null, hasPhoto: true },
  canManage: true,
};
/** Nulls everywhere they are allowed, optional keys absent. */
const bare: ShipmentListRow = {
  ...delivered,
  id: 42,
  code: 'TMT-000042',
  status: 'Creado',
  createdByName: null,
  senderCustomerId: null,
  description: null,
  multiLineDetail: null,
  deliveredInfo: null,
  canManage: undefined,
};
const page: ShipmentPage = { items: [delivered, bare], total: 2, page: 1, pageSize: 10, next: null };

const secrets = { secretCodeHash: 'sc$hash-del-codigo', passwordHash: '$argon2id$v=19$secreto' };
/** The page with hashes the schema does not declare at every level: top, items, nested objects, array items. */
const leakyPage = {
  ...page,
  ...secrets,
  items: page.items.map((row) => ({
    ...row,
    ...secrets,
    originBranch: { ...row.originBranch, ...secrets },
    deliveredInfo: row.deliveredInfo && { ...row.deliveredInfo, ...secrets },
    multiLineDetail: row.multiLineDetail?.map((line) => ({ ...line, ...secrets, tier: line.tier && { ...line.tier, ...secrets } })) ?? null,
  })),
};

/** What answers looked like before: zod's encoding of the payload, as JSON. */
const zodJson = (schema: z.ZodType, payload: unknown) => JSON.stringify(z.encode(schema, payload));
/** Keys in one order: the compiled serializer writes required keys first, zod in schema order. */
const sortedKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortedKeys)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
        )
      : value;

const money = z.codec(z.string(), z.number(), { decode: Number, encode: (n) => n.toFixed(2) });
const codecSchema = z.object({ amount: money });
const transformSchema = z.object({ size: z.string().transform((s) => s.length) });
const defaultSchema = z.object({ note: z.string().default('sin nota') });
const trimSchema = z.object({ name: z.string().trim() });

describe('compiled response serialization', () => {
  let t: TestContext;
  const responses: { route: string; schema: z.ZodType }[] = [];
  beforeAll(async () => {
    t = await startTestApp('embedded', {
      beforeRoutes: (app) => {
        app.addHook('onRoute', (route) => {
          for (const [status, schema] of Object.entries(route.schema?.response ?? {})) {
            if (schema instanceof z.ZodType) responses.push({ route: `${String(route.method)} ${route.url} → ${status}`, schema });
          }
        });
        const pageAnswer = { schema: { response: answers({ 200: shipmentPageSchema }) } };
        app.get('/api/test/page', pageAnswer, async () => page);
        app.get('/api/test/leaky-page', pageAnswer, async () => leakyPage);
        const broken = (items: unknown[]) => async () => ({ ...page, items }) as unknown as ShipmentPage;
        const { code: _code, ...withoutCode } = delivered;
        app.get('/api/test/missing-top', pageAnswer, async () => ({ items: [], page: 1, pageSize: 10 }) as unknown as ShipmentPage);
        app.get('/api/test/missing-in-item', pageAnswer, broken([withoutCode]));
        app.get('/api/test/missing-in-nested', pageAnswer, broken([{ ...delivered, originBranch: { city: 'Lima' } }]));
        const { price: _price, ...lineWithoutPrice } = delivered.multiLineDetail![0]!;
        app.get('/api/test/missing-in-array-item', pageAnswer, broken([{ ...delivered, multiLineDetail: [lineWithoutPrice] }]));
        app.get('/api/test/codec', { schema: { response: answers({ 200: codecSchema }) } }, async () => ({ amount: 12.5 }));
        app.get('/api/test/transform', { schema: { response: answers({ 200: transformSchema }) } }, async () => ({ size: 3 }));
        app.get('/api/test/default', { schema: { response: answers({ 200: defaultSchema }) } }, async () => ({}) as { note: string });
        app.get('/api/test/trim', { schema: { response: answers({ 200: trimSchema }) } }, async () => ({ name: '  Lima  ' }));
      },
    });
  });
  afterAll(() => t?.close());

  /** A GET straight to the server, past `call`: the harness would throw on the contract violation these routes cause. */
  const fetchRaw = async (url: string) => {
    const res = await fetch(t.baseUrl + url);
    return { statusCode: res.status, body: await res.text() };
  };

  it('compiles the shipment page (no fallback to zod)', () => {
    expect(zodOnlyReason(shipmentPageSchema)).toBeNull();
  });

  it('writes nulls, absent optionals, enums, numbers and escaped text as zod did', async () => {
    const res = await t.call('GET', '/api/test/page');
    expect(res.statusCode).toBe(200);
    expect(sortedKeys(JSON.parse(res.body))).toEqual(sortedKeys(JSON.parse(zodJson(shipmentPageSchema, page))));
    // The same bytes but for the order of keys.
    expect([...res.body].sort().join('')).toBe([...zodJson(shipmentPageSchema, page)].sort().join(''));
    const [first, second] = res.json().items;
    expect(second.deliveredInfo).toBeNull();
    expect(second.multiLineDetail).toBeNull();
    expect(second).not.toHaveProperty('canManage');
    expect(res.json().next).toBeNull();
    expect(res.json()).not.toHaveProperty('prev');
    expect(first.description).toBe('Caja\ncon "vidrio" \\ frágil');
    expect(first.deliveredInfo).toEqual({ receiverName: 'María', deliveredAt: '2026-03-04T09:00:00.000Z', notes: null, hasPhoto: true });
  });

  it('never writes a key the schema does not declare: top level, items, nested objects, array items', async () => {
    const res = await fetchRaw('/api/test/leaky-page');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/secretCodeHash|passwordHash|argon2|sc\$hash/);
    expect(JSON.parse(res.body)).toEqual(JSON.parse(zodJson(shipmentPageSchema, page)));
    // The strict contract of test builds still reports the payload.
    expect(t.takeViolations().join('\n')).toMatch(/leaky-page[\s\S]*additional/);
  });

  it.each([['missing-top'], ['missing-in-item'], ['missing-in-nested'], ['missing-in-array-item']])(
    'answers a 500 in Spanish, not a partial body, when a required field is missing (%s)',
    async (route) => {
      const res = await fetchRaw(`/api/test/${route}`);
      expect(res.statusCode).toBe(500);
      expect(JSON.parse(res.body)).toEqual({ error: 'Error del servidor', code: 'INTERNAL' });
      expect(t.takeViolations().join('\n')).toMatch(new RegExp(`${route}[\\s\\S]*required`));
    },
  );

  it('keeps zod where the JSON is not the output: codecs, transforms, defaults, trims', async () => {
    expect(zodOnlyReason(codecSchema)).toMatch(/codec/);
    expect(zodOnlyReason(transformSchema)).toMatch(/transform/);
    expect(zodOnlyReason(defaultSchema)).toMatch(/default/);
    expect(zodOnlyReason(trimSchema)).toMatch(/trim/);
    expect(zodOnlyReason(z.object({ tags: z.array(z.string().optional()) }))).toMatch(/undefined/);
    expect(zodOnlyReason(z.object({ byStatus: z.record(z.enum(['Creado', 'Anulado']), z.number()) }))).toMatch(/record/);
    expect(zodOnlyReason(z.strictObject({ id: z.number() }))).toMatch(/strict/);
    // A codec leaves through its encoding: "12.50", not the 12.5 its output type describes.
    expect((await t.call('GET', '/api/test/codec')).body).toBe('{"amount":"12.50"}');
    expect((await t.call('GET', '/api/test/trim')).body).toBe('{"name":"Lima"}');
    // zod cannot encode a transform, nor an absent value with a default: a 500, as before.
    expect((await fetchRaw('/api/test/transform')).statusCode).toBe(500);
    expect((await fetchRaw('/api/test/default')).statusCode).toBe(500);
    t.takeViolations();
  });

  it('compiles every response schema of the API', () => {
    // An answer that is a codec, a transform… falls back to zod (zodOnlyReason says why); none
    // does today, and a route that does should be a choice, listed here.
    const fallbacks = responses.flatMap(({ route, schema }) => {
      const reason = zodOnlyReason(schema);
      return reason && !route.includes(' /api/test/') ? [`${route}: ${reason}`] : [];
    });
    expect(responses.length).toBeGreaterThan(300);
    expect(fallbacks).toEqual([]);
  });
});
