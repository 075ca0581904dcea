import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addDays, CARRIER_GUIDE_SUNAT_HINTS, limaDay } from '@tramo/domain';
import { enqueueFleetExpiryAlerts } from '../src/modules/fleet/index.ts';
import { seedLimaPrices, shipmentBody } from './fixtures.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';
import { validateUbl } from './support/ubl-xsd.ts';

/** How long the sandbox's SUNAT takes to accept a guide here: the departure waits that long. */
const GUIDE_DELAY_MS = 60_000;
const MTC = '1532CXNO';

/**
 * Issue 36, items 4–5 and the alerts: the GRE transportista of a load, one per remitente/destinatario
 * pair, with what SUNAT's GRE-T validation asks (MTC, TUC, semirremolque, delivery to the carrier)
 * and valid against the UBL 2.1 DespatchAdvice schema; the sandbox refusing a GRE-T without them;
 * the departure waiting for the trip's guides; the admin's override letting one GRE-T and one
 * departure through; the expiry alerts sent once per window.
 */
describe.each(engines)('fleet guides and alerts (%s)', (engine) => {
  let t: TestContext;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;
  let admin: string;
  let agent: string;
  let lima: number;
  let arequipa: number;
  let seq = 200;

  beforeAll(async () => {
    billing = await sandboxBilling('fleet-guides', { guideDelayMs: GUIDE_DELAY_MS });
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, ['Arequipa'], { liviano: [[1, 1000, '1.4']] }),
      providers: { billing: billing.provider },
    });
    billing.followClock(t.clock.now);
    [admin, agent] = await Promise.all([t.login('ADMIN'), t.login('AGENTE1')]);
    lima = t.branchIds.get('Lima')!;
    arequipa = t.branchIds.get('Arequipa')!;
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const post = (url: string, body: unknown, token = agent) => t.call('POST', url, { token, body });
  const rows = async (query: ReturnType<typeof sql>) => (await t.database.db.execute(query)).rows as Record<string, unknown>[];
  const setCompany = (over: Record<string, unknown> = {}) =>
    t.call('PUT', '/api/settings/company', {
      token: admin,
      body: {
        ruc: '20605200983',
        name: 'TRANSPORTES TRAMO S.A.C.',
        address: 'Av. Nicolás Arriola 2280, La Victoria',
        mtcRegistration: MTC,
        guidesBeforeDeparture: true,
        ...over,
      },
    });
  const customers = new Map<string, number>();
  const customer = async (ruc: string, name: string) => {
    if (customers.has(ruc)) return customers.get(ruc)!;
    const res = await post('/api/customers', { doc_type: 6, doc_number: ruc, firstName: name, address: 'Av. Argentina 1780, Lima' }, admin);
    if (res.statusCode !== 201) throw new Error(`customer ${res.statusCode} ${res.body}`);
    customers.set(ruc, res.json().id as number);
    return customers.get(ruc)!;
  };
  const newDriver = async (fullName: string) => {
    const dni = String(41_000_000 + seq++);
    const res = await post('/api/drivers', { full_name: fullName, dni, license_number: `Q${dni}` }, admin);
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; dni: string };
  };
  /** A tracto with its semirremolque, two drivers and both TUCs. */
  const newTruck = async (over: Record<string, unknown> = {}) => {
    const trailer = await post(
      '/api/transports',
      {
        plate_primary: `T${seq++}-SR`.slice(0, 7),
        vehicle_type: 'semirremolque',
        tuc_number: `15M${seq}0004567`,
        origin_branch_id: lima,
        destination_branch_id: arequipa,
      },
      admin,
    );
    expect(trailer.statusCode).toBe(201);
    const [d1, d2] = [await newDriver('Juan Carlos Pérez Soto'), await newDriver('Luis Ramos Díaz')];
    const res = await post(
      '/api/transports',
      {
        plate_primary: `GRT-${seq++}`,
        vehicle_type: 'tracto',
        tuc_number: `15M${seq}0001234`,
        trailer_id: trailer.json().id,
        capacity_kg: 5000,
        origin_branch_id: lima,
        destination_branch_id: arequipa,
        driver_id_1: d1.id,
        driver_id_2: d2.id,
        ...over,
      },
      admin,
    );
    expect(res.statusCode).toBe(201);
    return {
      ...(res.json() as { id: number; plate_primary: string; tuc_number: string }),
      trailer: trailer.json() as { plate_primary: string; tuc_number: string },
    };
  };
  const newShipment = async (senderCustomerId: number, senderName: string, recipientDoc = '45879612') => {
    const res = await post(
      '/api/shipments',
      shipmentBody({ originBranchId: lima, destinationBranchId: arequipa }, { senderCustomerId, senderName, recipientDoc }),
      admin,
    );
    expect(res.statusCode).toBe(201);
    return res.json() as { id: number; code: string };
  };
  const load = async (transportId: number, shipmentIds: number[]) => {
    const res = await post(`/api/transports/${transportId}/assignments`, { shipmentIds }, admin);
    expect(res.statusCode).toBe(201);
  };
  const xmlOf = async (documentId: number) => {
    const res = await t.call('GET', `/api/billing/documents/${documentId}/xml`, { token: agent });
    expect(res.statusCode).toBe(200);
    return res.body;
  };
  const texts = (xml: string, element: string) => [...xml.matchAll(new RegExp(`<${element}[^>]*>([^<]*)</${element}>`, 'g'))].map((m) => m[1]);

  it("'Emitir guías' gives a mixed load of two remitentes two GRE-T, each valid UBL 2.1 with MTC, TUC, semirremolque, delivery date and its GRE remitente", async () => {
    expect((await setCompany()).statusCode).toBe(200);
    const andina = await customer('20100070970', 'SUPERMERCADOS PERUANOS S.A.');
    const sur = await customer('20608123459', 'COMERCIAL LOS ANDES S.A.C.');
    const truck = await newTruck();
    const ofAndina = [await newShipment(andina, 'SUPERMERCADOS PERUANOS S.A.'), await newShipment(andina, 'SUPERMERCADOS PERUANOS S.A.')];
    const ofSur = await newShipment(sur, 'COMERCIAL LOS ANDES S.A.C.');
    await load(truck.id, [ofAndina[0]!.id, ofSur.id, ofAndina[1]!.id]);
    // The sender's own GRE remitente of one shipment, recorded at the counter.
    const recorded = await t.call('PUT', `/api/shipments/${ofSur.id}/sender-guide`, { token: agent, body: { serie: 't001', numero: '482' } });
    expect(recorded.statusCode).toBe(200);
    expect((await t.call('PUT', `/api/shipments/${ofSur.id}/sender-guide`, { token: agent, body: { serie: 'F001', numero: 1 } })).statusCode).toBe(
      400,
    );

    // The review shows the first pair's guide and says another pair will have its own.
    const review = (await t.call('GET', `/api/transports/${truck.id}/carrier-guide`, { token: agent })).json();
    expect(review.shipments.map((s: { code: string }) => s.code)).toEqual(ofAndina.map((s) => s.code));
    expect(review).toMatchObject({
      registro_mtc: MTC,
      tuc_vehiculo_principal: truck.tuc_number,
      fecha_de_entrega_al_transportista: limaDay(t.clock.now()),
    });
    expect(review.warnings.some((w: string) => w.includes('otro par remitente/destinatario'))).toBe(true);

    const res = await post(`/api/transports/${truck.id}/carrier-guides`, {});
    expect(res.statusCode).toBe(200);
    const { guides } = res.json() as { guides: { shipmentCodes: string[]; ok: boolean; id: number; status: string }[] };
    expect(guides.map((g) => [g.shipmentCodes, g.ok, g.status])).toEqual([
      [ofAndina.map((s) => s.code), true, 'pendiente'],
      [[ofSur.code], true, 'pendiente'],
    ]);
    // Each guide carries the shipments of its pair, and its client is that pair's remitente.
    const linked = await rows(sql`select d.customer_doc_number as doc, count(*)::int as n from document_shipments ds
      join documents d on d.id = ds.document_id where ds.role = 'guia' and ds.live and d.id in (${guides[0]!.id}, ${guides[1]!.id})
      group by d.customer_doc_number order by 1`);
    expect(linked).toEqual([
      { doc: '20100070970', n: 2 },
      { doc: '20608123459', n: 1 },
    ]);

    for (const guide of guides) {
      const xml = await xmlOf(guide.id);
      expect(validateUbl(xml)).toMatchObject({ valid: true, errors: [] });
      expect(xml).toContain(
        `<cac:PartyLegalEntity><cbc:RegistrationName>TRANSPORTES TRAMO S.A.C.</cbc:RegistrationName><cbc:CompanyID>${MTC}</cbc:CompanyID>`,
      );
      expect(texts(xml, 'cbc:RegistrationNationalityID')).toEqual([truck.tuc_number, truck.trailer.tuc_number]);
      expect(xml).toContain(`<cac:AttachedTransportEquipment><cbc:ID>${truck.trailer.plate_primary.replace('-', '')}</cbc:ID>`);
      expect(texts(xml, 'cbc:OccurrenceDate')).toEqual([limaDay(t.clock.now())]);
      expect(texts(xml, 'cbc:JobTitle')).toEqual(['Principal', 'Secundario']);
    }
    const surXml = await xmlOf(guides[1]!.id);
    expect(surXml).toContain('<cac:AdditionalDocumentReference><cbc:ID>T001-482</cbc:ID>');
    expect(texts(surXml, 'cbc:DocumentType')).toEqual(['Guía de Remisión Remitente']);
    expect(await xmlOf(guides[0]!.id)).not.toContain('AdditionalDocumentReference');

    // Everything is on a guide now: asked again, nothing new.
    expect((await post(`/api/transports/${truck.id}/carrier-guides`, {})).statusCode).toBe(409);

    // The departure waits for SUNAT: 'Guía pendiente en SUNAT' until it accepts, then the truck leaves.
    const early = await post(`/api/transports/${truck.id}/departure`, {});
    expect(early.statusCode).toBe(422);
    expect(early.json()).toMatchObject({ code: 'GUIDE_PENDING' });
    expect(early.json().error).toMatch(/^Guía pendiente en SUNAT: VVV1-\d{8}, VVV1-\d{8}\./);
    expect(await rows(sql`select status from shipments where id = ${ofSur.id}`)).toEqual([{ status: 'Creado' }]);
    t.clock.advance(GUIDE_DELAY_MS + 1000);
    const left = await post(`/api/transports/${truck.id}/departure`, {});
    expect(left.statusCode).toBe(201);
    expect(await rows(sql`select status from documents where id in (${guides[0]!.id}, ${guides[1]!.id})`)).toEqual([
      { status: 'aceptado' },
      { status: 'aceptado' },
    ]);
  });

  it("the sandbox refuses a GRE-T without the company's MTC with SUNAT's 4391 and a Spanish hint; the guide frees its shipments", async () => {
    expect((await setCompany({ mtcRegistration: null })).statusCode).toBe(200);
    const andina = await customer('20100070970', 'SUPERMERCADOS PERUANOS S.A.');
    const truck = await newTruck();
    const s = await newShipment(andina, 'SUPERMERCADOS PERUANOS S.A.');
    await load(truck.id, [s.id]);
    const review = (await t.call('GET', `/api/transports/${truck.id}/carrier-guide`, { token: agent })).json();
    expect(review.warnings).toContain('La empresa no tiene registro MTC: indícalo en Configuración › Empresa (SUNAT 4391).');
    const { guides } = (await post(`/api/transports/${truck.id}/carrier-guides`, {})).json();
    expect(guides).toMatchObject([{ ok: false, status: 'rechazado' }]);
    const [doc] = await rows(sql`select status, provider_message as message from documents where id = ${guides[0].id}`);
    expect(doc).toEqual({ status: 'rechazado', message: `4391: ${CARRIER_GUIDE_SUNAT_HINTS['4391']}` });
    // A rejected guide covers nothing: the truck may leave (nothing pending), and the pair can be issued again.
    expect(await rows(sql`select count(*)::int as n from document_shipments where document_id = ${guides[0].id} and live`)).toEqual([{ n: 0 }]);
    expect((await setCompany()).statusCode).toBe(200);
    const again = (await post(`/api/transports/${truck.id}/carrier-guides`, {})).json();
    expect(again.guides).toMatchObject([{ ok: true, status: 'pendiente' }]);
  });

  it('with guides before departure off, a pending guide does not hold the truck', async () => {
    expect((await setCompany({ guidesBeforeDeparture: false })).statusCode).toBe(200);
    const andina = await customer('20100070970', 'SUPERMERCADOS PERUANOS S.A.');
    const truck = await newTruck();
    const s = await newShipment(andina, 'SUPERMERCADOS PERUANOS S.A.');
    await load(truck.id, [s.id]);
    expect((await post(`/api/transports/${truck.id}/carrier-guides`, {})).json().guides).toMatchObject([{ ok: true, status: 'pendiente' }]);
    expect((await post(`/api/transports/${truck.id}/departure`, {})).statusCode).toBe(201);
    expect((await setCompany()).statusCode).toBe(200);
  });

  it("an admin's override lets exactly one GRE-T and one departure through, audited; the next trip is refused again", async () => {
    const andina = await customer('20100070970', 'SUPERMERCADOS PERUANOS S.A.');
    const truck = await newTruck();
    const expired = addDays(limaDay(t.clock.now()), -3);
    await t.database.db.execute(sql`update fleet_documents set expires_on = ${expired} where transport_id = ${truck.id} and type = 'soat'`);
    const s = await newShipment(andina, 'SUPERMERCADOS PERUANOS S.A.');
    // Loaded before the SOAT lapsed (the gate refuses loading too): the row goes in directly.
    await t.database.db.execute(sql`insert into transport_assignments (transport_id, shipment_id) values (${truck.id}, ${s.id})`);
    const refused = await post(`/api/transports/${truck.id}/carrier-guides`, {});
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'DOCUMENT_EXPIRED' });
    expect(refused.json().error).toContain('El SOAT de');

    const override = await post(`/api/transports/${truck.id}/compliance-override`, { reason: 'SOAT renovado, póliza en trámite' }, admin);
    expect(override.statusCode).toBe(201);
    const issued = (await post(`/api/transports/${truck.id}/carrier-guides`, {})).json();
    expect(issued.guides).toMatchObject([{ ok: true }]);
    t.clock.advance(GUIDE_DELAY_MS + 1000);
    expect((await post(`/api/transports/${truck.id}/departure`, {})).statusCode).toBe(201);
    const audits = await rows(
      sql`select action from audit_log where entity = 'compliance_override' and entity_id = ${String(override.json().id)} order by id`,
    );
    expect(audits.map((a) => a.action)).toEqual(['create', 'use']);

    // The override is spent: after the arrival, the same truck is refused again.
    expect((await post(`/api/transports/${truck.id}/arrival`, { receive: 'all' }, admin)).statusCode).toBe(200);
    const s2 = await newShipment(andina, 'SUPERMERCADOS PERUANOS S.A.');
    await t.database.db.execute(sql`insert into transport_assignments (transport_id, shipment_id) values (${truck.id}, ${s2.id})`);
    expect((await post(`/api/transports/${truck.id}/carrier-guides`, {})).statusCode).toBe(422);
    expect((await post(`/api/transports/${truck.id}/departure`, {})).json()).toMatchObject({ code: 'DOCUMENT_EXPIRED' });
  });

  it('sends each expiry alert once per window (30, 15, 7 days) to the fleet contact, through the outbox', async () => {
    const alerts = { ...t.app.config.notify };
    Object.assign(t.app.config.notify, { fleetAlertEmail: 'flota@tramo.pe', fleetAlertWhatsapp: '+51 987 654 321' });
    try {
      const truck = await newTruck();
      const today = limaDay(t.clock.now());
      const soatExpires = addDays(today, 20);
      await t.database.db.execute(sql`update fleet_documents set expires_on = ${soatExpires} where transport_id = ${truck.id} and type = 'soat'`);
      const mine = () =>
        rows(sql`select a.alert_window as w, o.channel, o.address, o.topic, o.party, o.shipment_id as shipment from fleet_expiry_alerts a
          join notification_outbox o on o.idempotency_key like 'fleet:' || a.alert_key || ':%'
          where a.transport_id = ${truck.id} order by a.alert_window desc, o.channel`);

      await enqueueFleetExpiryAlerts(t.app);
      await enqueueFleetExpiryAlerts(t.app);
      expect(await mine()).toEqual([
        { w: 30, channel: 'email', address: 'flota@tramo.pe', topic: 'fleet_expiry', party: 'company', shipment: null },
        { w: 30, channel: 'whatsapp', address: '+51 987 654 321', topic: 'fleet_expiry', party: 'company', shipment: null },
      ]);
      // Two processes at once: the window's unique key lets one of them write it.
      t.clock.advance(6 * 86_400_000); // 14 days left: the 15-day window
      await Promise.all([enqueueFleetExpiryAlerts(t.app), enqueueFleetExpiryAlerts(t.app)]);
      await enqueueFleetExpiryAlerts(t.app);
      t.clock.advance(8 * 86_400_000); // 6 days left: the 7-day window
      await enqueueFleetExpiryAlerts(t.app);
      t.clock.advance(86_400_000);
      await enqueueFleetExpiryAlerts(t.app);
      expect((await mine()).map((r) => [r.w, r.channel])).toEqual([
        [30, 'email'],
        [30, 'whatsapp'],
        [15, 'email'],
        [15, 'whatsapp'],
        [7, 'email'],
        [7, 'whatsapp'],
      ]);
      const [message] = await rows(
        sql`select subject, body from notification_outbox where idempotency_key like ${`fleet:doc:%:${soatExpires}:7:email`} limit 1`,
      );
      expect(message!.subject).toBe(`Tramo: SOAT de ${truck.plate_primary} vence en 6 días`);
      // The outbox lists it with no shipment.
      const listed = await t.call('GET', '/api/notifications?pageSize=100', { token: await t.login('ADMIN') });
      expect(listed.statusCode).toBe(200);
      expect(listed.json().items.some((n: { topic: string; shipmentId: number | null }) => n.topic === 'fleet_expiry' && n.shipmentId === null)).toBe(
        true,
      );
    } finally {
      Object.assign(t.app.config.notify, alerts);
    }
  });
});
