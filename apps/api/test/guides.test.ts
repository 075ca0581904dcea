import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { GUIDE_API_MESSAGES, GUIDE_MESSAGES, limaDay, VOUCHER_MESSAGES, type GuidePayloadInput, type VoucherPayloadInput } from '@tramo/domain';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, statusCounts, type TestContext } from './harness.ts';

/** The test clock starts at the real now: documents are issued today in Lima. */
const today = limaDay(new Date());
/** How long the sandbox's SUNAT takes to accept a guide in these tests (the polling path). */
const GUIDE_DELAY_MS = 1_500;

const senderGuide = (over: Record<string, unknown> = {}): GuidePayloadInput => ({
  type: '09',
  serie: 'TTT1',
  fecha_de_emision: today,
  fecha_de_inicio_de_traslado: today,
  cliente: { numero_de_documento: '20100070970', denominacion: 'SUPERMERCADOS PERUANOS S.A.', direccion: 'Calle Morelli 181, San Borja' },
  motivo_de_traslado: '01',
  tipo_de_transporte: '01',
  numero_de_bultos: 4,
  punto_de_partida: { ubigeo: '150101', direccion: 'Av. Javier Prado Este 1450, San Isidro', codigo_establecimiento_sunat: '0000' },
  punto_de_llegada: { ubigeo: '040101', direccion: 'Calle Mercaderes 45, Arequipa' },
  transportista: { documento_numero: '20512345679', denominacion: 'TRANSPORTES SUR S.A.C.' },
  placa_numero: 'ABC-123',
  items: [
    { codigo: 'TMT-000123', descripcion: 'Cajas de repuestos', cantidad: 3, unidad_de_medida: 'NIU', peso: '36.5' },
    { codigo: 'TMT-000124', descripcion: 'Arroz en sacos', cantidad: '50', unidad_de_medida: 'KG' },
  ],
  ...over,
});

const retention = (over: Record<string, unknown> = {}): VoucherPayloadInput => ({
  serie: 'RRR1',
  fecha_de_emision: today,
  proveedor: { numero_de_documento: '20512345679', denominacion: 'TRANSPORTES SUR S.A.C.' },
  documentos_relacionados: [
    { tipo: '01', serie: 'F001', numero: '150', fecha_de_emision: today, total: '1180.00' },
    { tipo: '01', serie: 'F001', numero: '151', fecha_de_emision: today, total: '1000.00', pago_importe: '166.50' },
  ],
  ...over,
});

const perception = (over: Record<string, unknown> = {}): VoucherPayloadInput => ({
  serie: 'PPP1',
  fecha_de_emision: today,
  cliente: { numero_de_documento: '20100070970', denominacion: 'SUPERMERCADOS PERUANOS S.A.' },
  documentos_relacionados: [{ tipo: '01', serie: 'FFF1', numero: 12, fecha_de_emision: today, total: '1234.57' }],
  ...over,
});

describe.each(engines)('dispatch guides and vouchers (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let agent: string;
  let agentArequipa: string;
  let courier: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;
  let lima: number;
  let arequipa: number;
  let trujillo: number;

  beforeAll(async () => {
    billing = await sandboxBilling('guides-api', { guideDelayMs: GUIDE_DELAY_MS });
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa', 'Trujillo'], { liviano: [[1, 1000, '1.4']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    [admin, agent, agentArequipa, courier] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1'), t.login('AGENTE2'), t.login('REPARTIDOR1')]);
    // The company's MTC registration goes on every GRE transportista (SUNAT 4391 without it).
    const company = await t.call('PUT', '/api/settings/company', {
      token: admin,
      body: { ruc: '20605200983', name: 'TRANSPORTES TRAMO S.A.C.', address: 'Av. Nicolás Arriola 2280, La Victoria', mtcRegistration: '1532CXNO' },
    });
    expect(company.statusCode).toBe(200);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
    trujillo = t.branchIds.get('Trujillo')!;
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const scalar = async (query: ReturnType<typeof sql>) => Number(((await t.database.db.execute(query)).rows[0] as { n: unknown }).n);
  const post = (url: string, body: unknown, token = agent) => t.call('POST', url, { token, body });

  let plateSeq = 100;
  let dniSeq = 40_000_000;
  const newDriver = async (fullName: string) => {
    const res = await post('/api/drivers', { full_name: fullName, dni: String(dniSeq++), license_number: `Q${dniSeq}` }, admin);
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; dni: string; license_number: string };
  };
  const newTransport = async (over: Record<string, unknown> = {}) => {
    const res = await post(
      '/api/transports',
      // With its TUC: SUNAT (the sandbox) refuses a GRE-T whose main vehicle has none (4399).
      {
        plate_primary: `GRT-${plateSeq}`,
        tuc_number: `15M${plateSeq++}0001234`,
        capacity_kg: 5000,
        origin_branch_id: lima,
        destination_branch_id: arequipa,
        ...over,
      },
      admin,
    );
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; plate_primary: string };
  };
  const newShipment = async (
    weightKg: number,
    route = { originBranchId: lima, destinationBranchId: arequipa },
    over: Record<string, unknown> = {},
  ) => {
    const res = await post('/api/shipments', shipmentBody(route, { lines: [{ productType: 'liviano', weightKg }], ...over }), admin);
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; code: string };
  };
  const load = async (transportId: number, shipmentIds: number[]) => {
    const res = await post(`/api/transports/${transportId}/assignments`, { shipmentIds }, admin);
    expect(res.statusCode).toBe(201);
  };

  it('issues a GRE remitente pending at SUNAT (202, no PDF yet); a consult after the delay finds it accepted with its PDF', async () => {
    const res = await post('/api/guides/create-emit', senderGuide());
    expect(res.statusCode).toBe(202);
    const issued = res.json();
    expect(issued).toMatchObject({ ok: true, serie: 'TTT1', status: 'pendiente', enlace_del_pdf: null });
    expect(issued.numero).toBeGreaterThan(0);

    // Polled before SUNAT accepted it: still pending, still no PDF.
    const ask = () => post('/api/guides/consult', { tipo: '09', serie: 'TTT1', numero: issued.numero });
    const early = await ask();
    expect(early.statusCode).toBe(200);
    expect(early.json()).toMatchObject({ id: issued.id, status: 'pendiente', enlace_del_pdf: null });

    t.clock.advance(GUIDE_DELAY_MS + 100);
    const later = await ask();
    expect(later.json()).toMatchObject({ id: issued.id, status: 'aceptado', ok: true });
    expect(later.json().enlace_del_pdf).toBe(`/api/billing/documents/${issued.id}/pdf?format=a4`);

    const pdf = await t.call('GET', later.json().enlace_del_pdf, { token: agent });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.body.startsWith('%PDF')).toBe(true);
    const xml = await t.call('GET', `/api/billing/documents/${issued.id}/xml`, { token: agent });
    expect(xml.body).toContain('DespatchAdvice');

    // In the register with its type, and opened with its guide details and the QR SUNAT gave it.
    const register = (await t.call('GET', '/api/billing/documents?type=09', { token: agent })).json();
    expect(register.items.map((d: { id: number }) => d.id)).toContain(issued.id);
    expect(register.sums.total).toBe(0);
    const detail = (await t.call('GET', `/api/billing/lookup/${issued.id}`, { token: agent })).json();
    expect(detail).toMatchObject({ type: '09', status: 'aceptado', customerDocNumber: '20100070970' });
    expect(detail.guide).toMatchObject({ mode: 'remitente', grossWeight: '86.5', bundles: 4, origin: { ubigeo: '150101' } });
    expect(detail.qrText).not.toBe('');
    // Emitted, SUNAT's first answer (pending), accepted: polling wrote nothing while nothing changed.
    expect(detail.history.map((h: { kind: string }) => h.kind)).toEqual(['emitido', 'consultado', 'aceptado']);
  });

  it('refuses a guide or a voucher that breaks the rules with the problems under "Corrige:", taking no number', async () => {
    const before = await scalar(sql`select count(*) as n from document_series where series in ('TTT9', 'RRR9')`);
    const guide = await post(
      '/api/guides/create-emit',
      senderGuide({ serie: 'TTT9', tipo_de_transporte: '02', conductor: null, items: [], punto_de_llegada: { ubigeo: '4010', direccion: '' } }),
    );
    expect(guide.statusCode).toBe(422);
    const refused = guide.json();
    expect(refused).toMatchObject({ ok: false, id: null, numero: null });
    expect(refused.error.startsWith('Corrige:')).toBe(true);
    expect(refused.problems).toEqual(
      expect.arrayContaining([
        GUIDE_MESSAGES.driverDocument,
        GUIDE_MESSAGES.itemsRequired,
        GUIDE_MESSAGES.ubigeo('Punto de llegada'),
        GUIDE_MESSAGES.address('Punto de llegada'),
      ]),
    );
    const voucher = await post(
      '/api/retencion/create-emit',
      retention({ serie: 'RRR9', proveedor: { numero_de_documento: '123', denominacion: '' } }),
    );
    expect(voucher.statusCode).toBe(422);
    expect(voucher.json().problems).toEqual(
      expect.arrayContaining([VOUCHER_MESSAGES.subjectDocument('Proveedor'), VOUCHER_MESSAGES.subjectName('Proveedor')]),
    );
    expect(await scalar(sql`select count(*) as n from document_series where series in ('TTT9', 'RRR9')`)).toBe(before);
  });

  it('numbers concurrent guides on one series and concurrent retention vouchers on another 1..n: no gap, no duplicate', async () => {
    const n = 40;
    const [guides, vouchers] = await Promise.all([
      Promise.all(Array.from({ length: n }, () => post('/api/guides/create-emit', senderGuide({ serie: 'T100' })))),
      Promise.all(Array.from({ length: n }, () => post('/api/retencion/create-emit', retention({ serie: 'R100' })))),
    ]);
    expect(statusCounts(guides.map((r) => r.statusCode))).toEqual({ 202: n });
    expect(statusCounts(vouchers.map((r) => r.statusCode))).toEqual({ 201: n });
    const sorted = (rs: typeof guides) => rs.map((r) => r.json().numero as number).sort((a, b) => a - b);
    const oneToN = Array.from({ length: n }, (_, i) => i + 1);
    expect(sorted(guides)).toEqual(oneToN);
    expect(sorted(vouchers)).toEqual(oneToN);
    expect(await scalar(sql`select count(distinct number) as n from documents where type = '09' and series = 'T100'`)).toBe(n);
    expect(await scalar(sql`select count(distinct number) as n from documents where type = '20' and series = 'R100'`)).toBe(n);
    expect(await scalar(sql`select last_number as n from document_series where type = '20' and series = 'R100'`)).toBe(n);
  });

  it('issues retention and perception vouchers to the céntimo, and voids (reverses) one through /payments/nubefact/annul', async () => {
    const r = await post('/api/retencion/create-emit', retention());
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ ok: true, serie: 'RRR1', status: 'aceptado' });
    const rDetail = (await t.call('GET', `/api/billing/lookup/${r.json().id}`, { token: agent })).json();
    // 3 % of 1180.00 = 35.40 and of the payment 166.50 = 5.00 (4.995 half up).
    expect(rDetail.voucher).toMatchObject({ percent: '3.00', amountTotal: 40.4, baseTotal: 1346.5, netTotal: 1306.1 });
    expect(rDetail.total).toBe(40.4);

    const p = await post('/api/percepcion/create-emit', perception());
    expect(p.statusCode).toBe(201);
    const pDetail = (await t.call('GET', `/api/billing/lookup/${p.json().id}`, { token: agent })).json();
    // 2 % of 1234.57 = 24.6914 → 24.69.
    expect(pDetail.voucher).toMatchObject({ percent: '2.00', amountTotal: 24.69, netTotal: 1259.26 });
    const pdf = await t.call('GET', `/api/billing/documents/${p.json().id}/pdf`, { token: agent });
    expect(pdf.body.startsWith('%PDF')).toBe(true);

    const ref = { type: '20', series: 'RRR1', number: r.json().numero };
    const consulted = await post('/api/payments/nubefact/consult', ref);
    expect(consulted.statusCode).toBe(200);
    expect(consulted.json()).toMatchObject({ id: r.json().id, status: 'aceptado', aceptada_por_sunat: true, anulado: false });
    expect((await post('/api/payments/nubefact/annul', { ...ref, reason: '' })).statusCode).toBe(400);
    const annulled = await post('/api/payments/nubefact/annul', { ...ref, reason: 'ERROR DEL SISTEMA', codigo_unico: 'anul-r-1' });
    expect(annulled.statusCode).toBe(200);
    expect(annulled.json()).toMatchObject({ status: 'anulado', anulado: true });
    // The same unique code asked again answers the void's status; another request is refused.
    const again = await post('/api/payments/nubefact/annul', { ...ref, reason: 'ERROR DEL SISTEMA', codigo_unico: 'anul-r-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json().status).toBe('anulado');
    expect((await post('/api/payments/nubefact/annul', { ...ref, reason: 'OTRA VEZ' })).statusCode).toBe(409);
    const status = await post('/api/payments/nubefact/annul-status', { ...ref, type: 20 });
    expect(status.json()).toMatchObject({ status: 'anulado', anulado: true });
    // Nubefact's numbering is read too: 2 is a boleta, which this number is not.
    expect((await post('/api/payments/nubefact/consult', { type: 2, series: 'RRR1', number: ref.number })).statusCode).toBe(404);
  });

  describe('carrier guide of a transport', () => {
    it("pre-fills a GRE-T from exactly the loaded shipments, issues it, and shows its number on the load and the shipments' documents", async () => {
      const [d1, d2] = [await newDriver('Juan Carlos Pérez Soto'), await newDriver('Luis Ramos Díaz')];
      const truck = await newTransport({ plate_secondary: 'C9L-118', driver_id_1: d1.id, driver_id_2: d2.id });
      const loaded = [await newShipment(12.5), await newShipment(3.25), await newShipment(40)];
      const elsewhere = await newShipment(7); // created, never loaded on this truck
      const unloaded = await newShipment(9);
      await load(truck.id, [...loaded.map((s) => s.id), unloaded.id]);
      const assignments = (await t.call('GET', `/api/transports/${truck.id}/assignments`, { token: admin })).json();
      const unloadedAssignment = assignments.items.find((i: { shipmentId: number }) => i.shipmentId === unloaded.id);
      expect((await t.call('DELETE', `/api/transports/${truck.id}/assignments/${unloadedAssignment.id}`, { token: admin })).statusCode).toBe(204);

      const res = await t.call('GET', `/api/transports/${truck.id}/carrier-guide`, { token: agent });
      expect(res.statusCode).toBe(200);
      const guide = res.json();
      expect(guide.items.map((i: { codigo: string }) => i.codigo)).toEqual(loaded.map((s) => s.code));
      expect(guide.items.map((i: { codigo: string }) => i.codigo)).not.toContain(elsewhere.code);
      expect(guide.shipments.map((s: { shipmentId: number }) => s.shipmentId)).toEqual(loaded.map((s) => s.id));
      expect(guide).toMatchObject({
        type: '31',
        serie: 'VVV1',
        numero_de_bultos: 3,
        peso_bruto_total: '55.75',
        placa_numero: truck.plate_primary.replace('-', ''),
        vehiculos_secundarios: [{ placa_numero: 'C9L118' }],
        conductor: { documento_numero: d1.dni, nombre: 'Juan Carlos', apellidos: 'Pérez Soto', numero_licencia: d1.license_number },
        conductores_secundarios: [{ documento_numero: d2.dni, nombre: 'Luis', apellidos: 'Ramos Díaz' }],
        punto_de_partida: { ubigeo: '150101', codigo_establecimiento_sunat: '0000' },
        punto_de_llegada: { ubigeo: '040101', direccion: 'Av. Ejército 710, Cayma' },
        destinatario: { documento_numero: '45879612', denominacion: 'María Flores Ccori' },
      });
      expect(guide.items[0]).toMatchObject({ cantidad: '1', unidad_de_medida: 'NIU', peso: '12.50' });

      // The sender has no registered document: the user completes the client, as the form asks.
      const reviewed = { ...guide, cliente: { numero_de_documento: '20100070970', denominacion: 'Comercial Andina SAC' }, codigo_unico: 'gre-t-1' };
      const issued = await post(`/api/transports/${truck.id}/carrier-guide`, reviewed);
      expect(issued.statusCode).toBe(202);
      const result = issued.json();
      expect(result).toMatchObject({ serie: 'VVV1', status: 'pendiente' });
      // The same codigo_unico answers the same guide; another guide for the same load is refused.
      expect((await post(`/api/transports/${truck.id}/carrier-guide`, reviewed)).json().id).toBe(result.id);
      const second = await post(`/api/transports/${truck.id}/carrier-guide`, { ...reviewed, codigo_unico: null });
      expect(second.statusCode).toBe(409);
      expect(second.json().error).toBe(GUIDE_API_MESSAGES.shipmentOnGuide(loaded[0]!.code, `VVV1-${String(result.numero).padStart(8, '0')}`));

      const linked = await t.database.db.execute(
        sql`select shipment_id as id from document_shipments where document_id = ${result.id} and role = 'guia' order by shipment_id`,
      );
      expect(linked.rows.map((r) => Number((r as { id: unknown }).id))).toEqual(loaded.map((s) => s.id).sort((a, b) => a - b));

      const number = `VVV1-${String(result.numero).padStart(8, '0')}`;
      const after = (await t.call('GET', `/api/transports/${truck.id}/assignments`, { token: admin })).json();
      expect(after.items.map((i: { guideNumber: string | null }) => i.guideNumber)).toEqual([number, number, number]);
      const ofShipment = (await t.call('GET', `/api/billing/documents?shipmentId=${loaded[1]!.id}`, { token: agent })).json();
      expect(ofShipment.items.map((d: { fullNumber: string; type: string }) => [d.type, d.fullNumber])).toEqual([['31', number]]);
      const detail = (await t.call('GET', `/api/billing/lookup/${result.id}`, { token: agent })).json();
      expect(detail.shipmentCodes).toEqual(loaded.map((s) => s.code));

      // Carried under a guide is not billed: the shipments can still go on an invoice.
      const billed = await post('/api/billing/create-emit', {
        type: '03',
        serie: 'BBB1',
        issueDate: today,
        items: [{ description: 'Servicio de transporte', unit: 'ZZ', quantity: 1, unitValue: '100', igvType: '10' }],
        customer: { doc_type: 1, doc_number: '45879612', name: 'María Flores Ccori' },
        shipmentIds: [loaded[0]!.id],
      });
      expect(billed.statusCode).toBe(201);

      // The guide completes through the consult like any guide.
      t.clock.advance(GUIDE_DELAY_MS + 100);
      const done = await post('/api/guides/consult', { tipo: 8, serie: 'VVV1', numero: result.numero });
      expect(done.json()).toMatchObject({ status: 'aceptado' });
      expect(done.json().enlace_del_pdf).not.toBeNull();
    });

    it('refuses the guide of an empty load in Spanish', async () => {
      const truck = await newTransport();
      const built = await t.call('GET', `/api/transports/${truck.id}/carrier-guide`, { token: agent });
      expect(built.statusCode).toBe(422);
      expect(built.json().error).toBe(GUIDE_API_MESSAGES.emptyLoad);
      const issued = await post(`/api/transports/${truck.id}/carrier-guide`, senderGuide({ type: '31', serie: 'VVV1' }));
      expect(issued.statusCode).toBe(422);
      expect(issued.json().problems).toEqual([GUIDE_API_MESSAGES.emptyLoad]);
      expect((await t.call('GET', '/api/transports/999999/carrier-guide', { token: agent })).statusCode).toBe(404);
    });

    it('refuses the GRE-T of a truck whose SOAT expired after loading (422 naming the document and its date, nothing issued), and warns on the review', async () => {
      const truck = await newTransport({ driver_id_1: (await newDriver('Hugo Ccori Sánchez')).id });
      const s = await newShipment(2);
      await load(truck.id, [s.id]);
      // The SOAT the fixtures gave it runs out while the load waits at the dock.
      const expiredOn = limaDay(new Date(t.clock.now().getTime() - 2 * 86_400_000));
      await t.database.db.execute(sql`update fleet_documents set expires_on = ${expiredOn} where transport_id = ${truck.id} and type = 'soat'`);
      const refusalText = `El SOAT de ${truck.plate_primary} venció el ${expiredOn.slice(8, 10)}/${expiredOn.slice(5, 7)}/${expiredOn.slice(0, 4)}.`;

      const built = (await t.call('GET', `/api/transports/${truck.id}/carrier-guide`, { token: agent })).json();
      expect(built.warnings).toContain(refusalText);
      const before = await t.database.db.execute(sql`select count(*)::int as n from documents where type = '31'`);
      const reviewed = {
        ...built,
        cliente: { numero_de_documento: '20100070970', denominacion: 'Comercial Andina SAC' },
        codigo_unico: 'gre-t-expired',
      };
      const issued = await post(`/api/transports/${truck.id}/carrier-guide`, reviewed);
      expect(issued.statusCode).toBe(422);
      expect(issued.json()).toMatchObject({ ok: false, error: refusalText, problems: [refusalText], id: null });
      const after = await t.database.db.execute(sql`select count(*)::int as n from documents where type = '31'`);
      expect(after.rows).toEqual(before.rows);
    });

    it('warns of what the transport lacks (drivers, route) and still pre-fills the load', async () => {
      const truck = await newTransport({ origin_branch_id: null, destination_branch_id: null });
      const s = await newShipment(1);
      await load(truck.id, [s.id]);
      const guide = (await t.call('GET', `/api/transports/${truck.id}/carrier-guide`, { token: admin })).json();
      expect(guide.warnings).toEqual(expect.arrayContaining([GUIDE_API_MESSAGES.missing.route, GUIDE_API_MESSAGES.missing.driver]));
      expect(guide.conductor).toBeNull();
      expect(guide.items).toHaveLength(1);
    });
  });

  it("refuses another branch's agent (403) and couriers, and lets admins in", async () => {
    const limaGuide = (await post('/api/guides/create-emit', senderGuide())).json();
    const ref = { tipo: '09', serie: 'TTT1', numero: limaGuide.numero };
    expect((await post('/api/guides/consult', ref, agentArequipa)).statusCode).toBe(403);
    expect((await post('/api/guides/consult', ref, admin)).statusCode).toBe(200);
    expect((await post('/api/payments/nubefact/consult', { type: '09', series: 'TTT1', number: limaGuide.numero }, agentArequipa)).statusCode).toBe(
      403,
    );
    expect((await t.call('GET', `/api/billing/lookup/${limaGuide.id}`, { token: agentArequipa })).statusCode).toBe(403);

    const truck = await newTransport({ destination_branch_id: trujillo });
    const s = await newShipment(2, { originBranchId: lima, destinationBranchId: trujillo });
    await load(truck.id, [s.id]);
    expect((await t.call('GET', `/api/transports/${truck.id}/carrier-guide`, { token: agentArequipa })).statusCode).toBe(403);
    expect((await post(`/api/transports/${truck.id}/carrier-guide`, senderGuide({ type: '31' }), agentArequipa)).statusCode).toBe(403);
    expect((await t.call('GET', `/api/transports/${truck.id}/carrier-guide`, { token: agent })).statusCode).toBe(200);
    expect((await post('/api/guides/create-emit', senderGuide(), courier)).statusCode).toBe(403);
    expect((await post('/api/retencion/create-emit', retention(), courier)).statusCode).toBe(403);
  });

  it('answers malformed input with a 4xx and a Spanish error, never a 5xx', async () => {
    const bodies: unknown[] = [
      '{}',
      '[]',
      'null',
      '"texto"',
      { type: 7, serie: 12, items: 'x', cliente: 'x', punto_de_partida: [], numero_de_bultos: {} },
      { tipo: 'x', serie: 'TOOLONG', numero: -1 },
      { tipo: '09', serie: 'TTT1', numero: 1e20 },
      { type: '99', series: 'A', number: 'uno' },
      { type: '01', series: 'FFF1', number: 99_999_999, reason: 'x'.repeat(500) },
      { documentos_relacionados: [{ total: 1e308, pago_importe: 'abc' }], porcentaje: 'NaN', moneda: 2 },
      { ...senderGuide(), fecha_de_emision: '2026-02-30', items: [{ descripcion: 'a', cantidad: 1e308, peso: -1 }] },
    ];
    const urls = [
      '/api/guides/create-emit',
      '/api/guides/consult',
      '/api/retencion/create-emit',
      '/api/percepcion/create-emit',
      '/api/payments/nubefact/consult',
      '/api/payments/nubefact/annul',
      '/api/payments/nubefact/annul-status',
      '/api/transports/1/carrier-guide',
      '/api/transports/abc/carrier-guide',
    ];
    const wrong: string[] = [];
    for (const url of urls) {
      for (const body of bodies) {
        const res = await post(url, body, admin);
        if (res.statusCode >= 500 || res.statusCode < 400) {
          // A well-formed guide or voucher may be issued; nothing may fail on the server.
          if (res.statusCode >= 500) wrong.push(`${res.statusCode} ${url} ${JSON.stringify(body).slice(0, 60)}: ${res.body.slice(0, 120)}`);
          continue;
        }
        const answer = res.json();
        if (typeof answer.error !== 'string' || /Bad Request|Internal/.test(answer.error))
          wrong.push(`${res.statusCode} ${url}: ${res.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
