import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import {
  CARRIER_GUIDE_SUNAT_HINTS,
  checkGuide,
  checkPerception,
  checkRetention,
  type GuidePayloadInput,
  type VoucherPayloadInput,
} from '@tramo/domain';
import {
  BillingProviderError,
  DEMO_ISSUER,
  GRE_QR_BASE,
  loadBillingConfig,
  memorySandboxStore,
  nubefactBillingProvider,
  GUIDE_VOID_REFUSAL,
  renderGuidePdf,
  renderVoucherPdf,
  sandboxBillingProvider,
  type BillingProvider,
  type GuideDocument,
  type VoucherDocument,
} from '../src/providers/billing/index.ts';
import { startFakeNubefact, type FakeNubefact } from './support/fake-nubefact.ts';
import { validateUbl } from './support/ubl-xsd.ts';

const TODAY = '2026-05-15';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const SAC = 'urn:sunat:names:specification:ubl:peru:schema:xsd:SunatAggregateComponents-1';

const senderPayload: GuidePayloadInput = {
  type: '09',
  serie: 'TTT1',
  fecha_de_emision: TODAY,
  fecha_de_inicio_de_traslado: '2026-05-16',
  cliente: { numero_de_documento: '20100070970', denominacion: 'SUPERMERCADOS PERUANOS S.A.', direccion: 'Calle Morelli 181, San Borja' },
  motivo_de_traslado: '01',
  tipo_de_transporte: '01',
  numero_de_bultos: 4,
  punto_de_partida: { ubigeo: '150115', direccion: 'Av. Nicolás Arriola 2280, La Victoria', codigo_establecimiento_sunat: '0000' },
  punto_de_llegada: { ubigeo: '040101', direccion: 'Calle Mercaderes 45, Arequipa' },
  transportista: { documento_numero: '20512345679', denominacion: 'TRANSPORTES SUR S.A.C.' },
  placa_numero: 'ABC-123',
  items: [
    { codigo: 'TMT-000123', descripcion: 'Cajas de repuestos', cantidad: 3, unidad_de_medida: 'NIU', peso: '36.5' },
    { codigo: 'TMT-000124', descripcion: 'Arroz en sacos', cantidad: '50', unidad_de_medida: 'KG' },
  ],
  documentos_relacionados: [{ tipo: '01', serie: 'FFF1', numero: 12 }],
};

const carrierPayload: GuidePayloadInput = {
  ...senderPayload,
  type: '31',
  serie: 'VVV1',
  tipo_de_transporte: '02',
  numero_de_bultos: 2,
  transportista: null,
  placa_numero: 'B7K-904',
  conductor: { documento_numero: '45678912', nombre: 'Juan Carlos', apellidos: 'Pérez Soto', numero_licencia: 'Q45678912' },
  destinatario: { documento_numero: '10456789123', denominacion: 'María Quispe Huamán' },
  vehiculos_secundarios: [{ placa_numero: 'C9L-118', tuc: '15M22000004567' }],
  conductores_secundarios: [{ documento_numero: '41234567', nombre: 'Luis', apellidos: 'Ramos Díaz', numero_licencia: 'Q41234567' }],
  // Issue 36: what SUNAT's GRE-T validation asks (4391, 4399, 3617).
  registro_mtc: '1532CXNO',
  tuc_vehiculo_principal: '15M22000001234',
  fecha_de_entrega_al_transportista: TODAY,
};

function guide(payload: GuidePayloadInput, number: number): GuideDocument {
  const r = checkGuide(payload, { today: TODAY });
  if (!r.ok) throw new Error(r.problems.join(' / '));
  return { ...r.draft, number, issueTime: '09:15:00' };
}

const retentionPayload: VoucherPayloadInput = {
  serie: 'RRR1',
  fecha_de_emision: TODAY,
  proveedor: { numero_de_documento: '20512345679', denominacion: 'TRANSPORTES SUR S.A.C.', direccion: 'Av. Arequipa 100, Lima' },
  documentos_relacionados: [
    { tipo: '01', serie: 'F001', numero: '150', fecha_de_emision: '2026-05-02', total: '1180.00' },
    {
      tipo: '01',
      serie: 'F001',
      numero: '151',
      fecha_de_emision: '2026-05-03',
      total: '1000.00',
      pago_fecha: '2026-05-14',
      pago_numero: 1,
      pago_importe: '166.50',
    },
  ],
};

const perceptionPayload: VoucherPayloadInput = {
  serie: 'PPP1',
  fecha_de_emision: TODAY,
  cliente: { numero_de_documento: '20100070970', denominacion: 'SUPERMERCADOS PERUANOS S.A.' },
  documentos_relacionados: [{ tipo: '01', serie: 'FFF1', numero: 12, fecha_de_emision: '2026-05-10', total: '1234.57' }],
};

function voucher(kind: 'retention' | 'perception', payload: VoucherPayloadInput, number: number): VoucherDocument {
  const r = (kind === 'retention' ? checkRetention : checkPerception)(payload, { today: TODAY });
  if (!r.ok) throw new Error(r.problems.join(' / '));
  return { ...r.draft, number, issueTime: '11:00:00' };
}

function parseXml(xml: string): Document {
  const problems: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => level !== 'warning' && problems.push(message) }).parseFromString(xml, 'text/xml');
  expect(problems).toEqual([]);
  return doc as unknown as Document;
}
const texts = (doc: Document, ns: string, name: string) => Array.from(doc.getElementsByTagNameNS(ns, name)).map((n) => n.textContent);

function verify(xml: string): boolean {
  const doc = parseXml(xml);
  const signature = doc.getElementsByTagNameNS(DSIG, 'Signature')[0]!;
  const sig = new SignedXml({ getCertFromKeyInfo: SignedXml.getCertFromKeyInfo });
  sig.loadSignature(signature as unknown as Node);
  return sig.checkSignature(xml);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('sandbox: dispatch guides', () => {
  let dir: string;
  let now: Date;
  let provider: BillingProvider;
  const GUIDE_DELAY = 5_000;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tramo-guides-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  beforeEach(() => {
    now = new Date('2026-05-15T14:15:00Z');
    provider = sandboxBillingProvider({
      issuer: DEMO_ISSUER,
      store: memorySandboxStore(),
      certificateDir: dir,
      clock: () => now,
      guideDelayMs: GUIDE_DELAY,
    });
  });

  it('builds a signed DespatchAdvice 2.1 for a GRE remitente by public transport', async () => {
    const result = await provider.emitGuide(guide(senderPayload, 7));
    expect(result.status).toBe('pendiente');
    expect(verify(result.xml!)).toBe(true);
    const doc = parseXml(result.xml!);
    expect(doc.documentElement.localName).toBe('DespatchAdvice');
    expect(doc.documentElement.namespaceURI).toBe('urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2');
    expect(texts(doc, CBC, 'UBLVersionID')).toEqual(['2.1']);
    expect(texts(doc, CBC, 'ID')[0]).toBe('TTT1-7');
    expect(texts(doc, CBC, 'DespatchAdviceTypeCode')).toEqual(['09']);
    expect(texts(doc, CBC, 'HandlingCode')).toEqual(['01']);
    expect(texts(doc, CBC, 'TransportModeCode')).toEqual(['01']);
    expect(texts(doc, CBC, 'StartDate')).toEqual(['2026-05-16']);
    const weight = doc.getElementsByTagNameNS(CBC, 'GrossWeightMeasure')[0]!;
    // 36.5 kg of boxes + 50 kg of rice, computed from the items.
    expect([weight.textContent, weight.getAttribute('unitCode')]).toEqual(['86.500', 'KGM']);
    expect(texts(doc, CBC, 'TotalTransportHandlingUnitQuantity')).toEqual(['4']);
    const carrier = doc.getElementsByTagNameNS(CAC, 'CarrierParty')[0]!;
    expect(carrier.getElementsByTagNameNS(CBC, 'ID')[0]!.textContent).toBe('20512345679');
    expect(doc.getElementsByTagNameNS(CAC, 'DriverPerson')).toHaveLength(0);
    const delivery = doc.getElementsByTagNameNS(CAC, 'DeliveryAddress')[0]!;
    expect(delivery.getElementsByTagNameNS(CBC, 'ID')[0]!.textContent).toBe('040101');
    const despatch = doc.getElementsByTagNameNS(CAC, 'DespatchAddress')[0]!;
    expect(despatch.getElementsByTagNameNS(CBC, 'ID')[0]!.textContent).toBe('150115');
    expect(despatch.getElementsByTagNameNS(CBC, 'AddressTypeCode')[0]!.textContent).toBe('0000');
    const lines = Array.from(doc.getElementsByTagNameNS(CAC, 'DespatchLine'));
    expect(lines.map((l) => l.getElementsByTagNameNS(CBC, 'DeliveredQuantity')[0]!.getAttribute('unitCode'))).toEqual(['NIU', 'KGM']);
    expect(lines.map((l) => l.getElementsByTagNameNS(CBC, 'Description')[0]!.textContent)).toEqual(['Cajas de repuestos', 'Arroz en sacos']);
    expect(texts(doc, CAC, 'AdditionalDocumentReference')[0]).toContain('FFF1-12');
  });

  it('builds a GRE transportista with vehicles, both drivers, the sender and the recipient', async () => {
    const result = await provider.emitGuide(guide(carrierPayload, 1));
    expect(verify(result.xml!)).toBe(true);
    const doc = parseXml(result.xml!);
    expect(texts(doc, CBC, 'DespatchAdviceTypeCode')).toEqual(['31']);
    const drivers = Array.from(doc.getElementsByTagNameNS(CAC, 'DriverPerson'));
    expect(drivers.map((d) => d.getElementsByTagNameNS(CBC, 'JobTitle')[0]!.textContent)).toEqual(['Principal', 'Secundario']);
    expect(drivers.map((d) => d.getElementsByTagNameNS(CBC, 'FamilyName')[0]!.textContent)).toEqual(['Pérez Soto', 'Ramos Díaz']);
    const equipment = doc.getElementsByTagNameNS(CAC, 'TransportEquipment')[0]!;
    expect(equipment.getElementsByTagNameNS(CBC, 'ID')[0]!.textContent).toBe('B7K904');
    expect(texts(doc, CAC, 'AttachedTransportEquipment')).toEqual(['C9L11815M22000004567']);
    expect(texts(doc, CBC, 'RegistrationNationalityID')).toEqual(['15M22000001234', '15M22000004567']);
    const carrier = doc.getElementsByTagNameNS(CAC, 'CarrierParty')[0]!;
    expect(carrier.getElementsByTagNameNS(CBC, 'CompanyID')[0]!.textContent).toBe('1532CXNO');
    expect(texts(doc, CBC, 'OccurrenceDate')).toEqual([TODAY]);
    const customer = doc.getElementsByTagNameNS(CAC, 'DeliveryCustomerParty')[0]!;
    expect(customer.getElementsByTagNameNS(CBC, 'RegistrationName')[0]!.textContent).toBe('María Quispe Huamán');
    const sender = doc.getElementsByTagNameNS(CAC, 'DespatchParty')[0]!;
    expect(sender.getElementsByTagNameNS(CBC, 'ID')[0]!.textContent).toBe('20100070970');
  });

  it("refuses a GRE-T without the MTC, the TUC or the delivery to the carrier with SUNAT's code and a Spanish hint", async () => {
    const cases = [
      [{ registro_mtc: null }, '4391'],
      [{ tuc_vehiculo_principal: null }, '4399'],
      [{ fecha_de_entrega_al_transportista: null }, '3617'],
    ] as const;
    let number = 60;
    for (const [missing, code] of cases) {
      const result = await provider.emitGuide(guide({ ...carrierPayload, ...missing }, number++));
      expect(result).toMatchObject({ status: 'rechazado', sunatCode: code, sunatDescription: `${code}: ${CARRIER_GUIDE_SUNAT_HINTS[code]}` });
    }
    // A GRE remitente is not held to the carrier's fields.
    expect((await provider.emitGuide(guide(senderPayload, number))).status).toBe('pendiente');
  });

  it('both guides validate against the official UBL 2.1 DespatchAdvice schema', async () => {
    for (const [payload, number] of [
      [senderPayload, 41],
      [carrierPayload, 42],
    ] as const) {
      const { xml } = await provider.emitGuide(guide(payload, number));
      expect(validateUbl(xml!), `${payload.type} ${payload.serie}-${number}`).toMatchObject({ valid: true, errors: [] });
    }
  });

  it('stays pendiente without QR until the delay passes, then is accepted with SUNAT’s QR link', async () => {
    const ref = { type: '09' as const, series: 'TTT1', number: 7 };
    const first = await provider.emitGuide(guide(senderPayload, 7));
    expect([first.status, first.qrText, first.sunatCode]).toEqual(['pendiente', null, null]);
    now = new Date(now.getTime() + GUIDE_DELAY - 1);
    expect((await provider.consultGuide(ref)).status).toBe('pendiente');
    now = new Date(now.getTime() + 1);
    const accepted = await provider.consultGuide(ref);
    expect(accepted.status).toBe('aceptado');
    expect(accepted.sunatCode).toBe('0');
    expect(accepted.qrText?.startsWith(`${GRE_QR_BASE}?hashqr=`)).toBe(true);
    expect(accepted.hash).toBe(first.hash);
  });

  it('is idempotent by series-number and refuses another guide on a used number', async () => {
    const a = await provider.emitGuide(guide(senderPayload, 3));
    const again = await provider.emitGuide(guide(senderPayload, 3));
    expect(again.hash).toBe(a.hash);
    const other = guide({ ...senderPayload, numero_de_bultos: 9 }, 3);
    await expect(provider.emitGuide(other)).rejects.toMatchObject({ kind: 'exists' });
  });

  it('consultGuide refuses what is not a guide and a guide it does not know', async () => {
    await expect(provider.consultGuide({ type: '01', series: 'FFF1', number: 1 })).rejects.toBeInstanceOf(BillingProviderError);
    await expect(provider.consultGuide({ type: '31', series: 'VVV1', number: 99 })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'El comprobante VVV1-00000099 no existe en el proveedor.',
    });
  });

  it('renders the guide PDF (A4) with and without its QR', async () => {
    const g = guide(carrierPayload, 1);
    const pending = await renderGuidePdf({ document: g, issuer: DEMO_ISSUER, hash: 'abc', qrText: null, status: 'pendiente', demo: true });
    const accepted = await renderGuidePdf({
      document: g,
      issuer: DEMO_ISSUER,
      hash: 'abc',
      qrText: `${GRE_QR_BASE}?hashqr=x`,
      status: 'aceptado',
      demo: true,
    });
    expect(pending.subarray(0, 5).toString()).toBe('%PDF-');
    expect(accepted.length).toBeGreaterThan(pending.length);
    expect(accepted.toString('latin1')).toContain('/MediaBox [0 0 595.28 841.89]');
  });
});

describe('sandbox: polling a guide through the real delay (BILLING_SANDBOX_GUIDE_DELAY_MS)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tramo-guides-poll-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads the delay from the environment, default 5 s', () => {
    expect(loadBillingConfig({}).sandbox.guideDelayMs).toBe(5_000);
    expect(loadBillingConfig({ BILLING_SANDBOX_GUIDE_DELAY_MS: '400' }).sandbox.guideDelayMs).toBe(400);
  });

  it('a client polling every 50 ms sees pendiente, then aceptado with the QR', async () => {
    const config = loadBillingConfig({ BILLING_SANDBOX_GUIDE_DELAY_MS: '400' });
    const provider = sandboxBillingProvider({ issuer: DEMO_ISSUER, store: memorySandboxStore(), certificateDir: dir, ...config.sandbox });
    const started = Date.now();
    const first = await provider.emitGuide(guide(carrierPayload, 5));
    expect(first.status).toBe('pendiente');
    const seen: string[] = [first.status];
    let last = first;
    while (last.status === 'pendiente' && Date.now() - started < 5_000) {
      await sleep(50);
      last = await provider.consultGuide({ type: '31', series: 'VVV1', number: 5 });
      seen.push(last.status);
    }
    expect(last.status).toBe('aceptado');
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(seen.filter((s) => s === 'pendiente').length).toBeGreaterThan(2);
    expect(last.qrText).toMatch(/^https:\/\/e-factura\.sunat\.gob\.pe\//);
    const pdf = await renderGuidePdf({
      document: guide(carrierPayload, 5),
      issuer: DEMO_ISSUER,
      hash: last.hash,
      qrText: last.qrText,
      status: last.status,
      demo: true,
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('sandbox: retention and perception vouchers', () => {
  let dir: string;
  let provider: BillingProvider;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tramo-vouchers-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  beforeEach(() => {
    provider = sandboxBillingProvider({ issuer: DEMO_ISSUER, store: memorySandboxStore(), certificateDir: dir });
  });

  it('both vouchers validate against SUNAT’s UBL 2.0 Retention and Perception schemas', async () => {
    const retention = await provider.emitRetention(voucher('retention', retentionPayload, 9));
    expect(validateUbl(retention.xml!)).toMatchObject({ valid: true, errors: [] });
    const perception = await provider.emitPerception(voucher('perception', perceptionPayload, 9));
    expect(validateUbl(perception.xml!)).toMatchObject({ valid: true, errors: [] });
  });

  it('builds a signed Retention with the withheld amounts per document and in total', async () => {
    const v = voucher('retention', retentionPayload, 4);
    const result = await provider.emitRetention(v);
    expect(result.status).toBe('aceptado');
    expect(verify(result.xml!)).toBe(true);
    const doc = parseXml(result.xml!);
    expect(doc.documentElement.localName).toBe('Retention');
    expect(texts(doc, SAC, 'SUNATRetentionSystemCode')).toEqual(['01']);
    expect(texts(doc, SAC, 'SUNATRetentionPercent')).toEqual(['3.00']);
    // 3 % of 1180.00 = 35.40; of 166.50 = 4.995 → 5.00 (half up); total 40.40.
    expect(texts(doc, SAC, 'SUNATRetentionAmount')).toEqual(['35.40', '5.00']);
    expect(texts(doc, SAC, 'SUNATNetTotalPaid')).toEqual(['1144.60', '161.50']);
    expect(texts(doc, SAC, 'SUNATTotalPaid')).toEqual(['1306.10']);
    // The voucher's total withheld, then each related document's total.
    expect(texts(doc, CBC, 'TotalInvoiceAmount')).toEqual(['40.40', '1180.00', '1000.00']);
    expect(texts(doc, CBC, 'PaidAmount')).toEqual(['1180.00', '166.50']);
    expect(result.qrText).toMatch(/^20605200983\|20\|RRR1\|000004\|40\.40\|1306\.10\|15\/05\/2026\|6\|20512345679\|/);
  });

  it('builds a signed Perception (2.00 %)', async () => {
    const result = await provider.emitPerception(voucher('perception', perceptionPayload, 1));
    expect(verify(result.xml!)).toBe(true);
    const doc = parseXml(result.xml!);
    expect(doc.documentElement.localName).toBe('Perception');
    expect(texts(doc, SAC, 'SUNATPerceptionAmount')).toEqual(['24.69']);
    expect(texts(doc, SAC, 'SUNATNetTotalCashed')).toEqual(['1259.26']);
    expect(texts(doc, SAC, 'SUNATTotalCashed')).toEqual(['1259.26']);
  });

  it('consults and reverses a voucher once, answering the same on a retry', async () => {
    const ref = { type: '20' as const, series: 'RRR1', number: 4 };
    await provider.emitRetention(voucher('retention', retentionPayload, 4));
    expect((await provider.consultVoucher(ref)).voided).toBe(false);
    await expect(provider.reverseVoucher(ref, ' ')).rejects.toMatchObject({ kind: 'rejected', message: 'El motivo de la anulación es obligatorio.' });
    const reversed = await provider.reverseVoucher(ref, 'ERROR DEL SISTEMA');
    expect(reversed.status).toBe('anulado');
    expect(reversed.sunatDescription).toContain('reversión');
    expect((await provider.reverseVoucher(ref, 'ERROR DEL SISTEMA')).ticket).toBe(reversed.ticket);
    expect((await provider.consultVoucher(ref)).voided).toBe(true);
    await expect(provider.reverseVoucher({ type: '09', series: 'TTT1', number: 1 }, 'x')).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('refuses a perception through emitRetention', async () => {
    await expect(provider.emitRetention(voucher('perception', perceptionPayload, 1))).rejects.toMatchObject({ kind: 'rejected' });
  });

  it('renders the voucher PDFs', async () => {
    const pdf = await renderVoucherPdf({
      document: voucher('retention', retentionPayload, 4),
      issuer: DEMO_ISSUER,
      hash: 'h',
      qrText: '20605200983|20|RRR1|4|',
      status: 'anulado',
      demo: true,
    });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('Nubefact adapter: guides and vouchers against the fake server', () => {
  let fake: FakeNubefact;
  let provider: BillingProvider;
  beforeEach(async () => {
    fake = await startFakeNubefact();
    provider = nubefactBillingProvider({ url: fake.url, token: fake.token, timeoutMs: 400 });
  });
  afterEach(() => fake.close());

  const last = () => fake.requests.at(-1)!;

  it('sends generar_guia (GRE remitente, public transport) field by field', async () => {
    const result = await provider.emitGuide(guide(senderPayload, 7));
    expect(last().violations).toEqual([]);
    expect(last().authorization).toBe(`Token token="${fake.token}"`);
    expect(last().body).toEqual({
      operacion: 'generar_guia',
      tipo_de_comprobante: 7,
      serie: 'TTT1',
      numero: 7,
      cliente_tipo_de_documento: '6',
      cliente_numero_de_documento: '20100070970',
      cliente_denominacion: 'SUPERMERCADOS PERUANOS S.A.',
      cliente_direccion: 'Calle Morelli 181, San Borja',
      cliente_email: '',
      fecha_de_emision: '15-05-2026',
      observaciones: '',
      motivo_de_traslado: '01',
      peso_bruto_total: 86.5,
      peso_bruto_unidad_de_medida: 'KGM',
      numero_de_bultos: 4,
      tipo_de_transporte: '01',
      fecha_de_inicio_de_traslado: '16-05-2026',
      transportista_documento_tipo: '6',
      transportista_documento_numero: '20512345679',
      transportista_denominacion: 'TRANSPORTES SUR S.A.C.',
      transportista_placa_numero: 'ABC123',
      punto_de_partida_ubigeo: '150115',
      punto_de_partida_direccion: 'Av. Nicolás Arriola 2280, La Victoria',
      punto_de_partida_codigo_establecimiento_sunat: '0000',
      punto_de_llegada_ubigeo: '040101',
      punto_de_llegada_direccion: 'Calle Mercaderes 45, Arequipa',
      punto_de_llegada_codigo_establecimiento_sunat: '',
      enviar_automaticamente_a_la_sunat: true,
      enviar_automaticamente_al_cliente: false,
      codigo_unico: '09-TTT1-7',
      formato_de_pdf: 'A4',
      items: [
        { unidad_de_medida: 'NIU', codigo: 'TMT-000123', descripcion: 'Cajas de repuestos', cantidad: 3 },
        { unidad_de_medida: 'KGM', codigo: 'TMT-000124', descripcion: 'Arroz en sacos', cantidad: 50 },
      ],
      documento_relacionado: [{ tipo: '01', serie: 'FFF1', numero: 12 }],
      vehiculos_secundarios: [],
      conductores_secundarios: [],
    });
    // The first answer has no links: SUNAT has not accepted the guide yet.
    expect(result.status).toBe('pendiente');
    expect(result.links?.pdf).toBeNull();
    expect(result.qrText).toBeNull();
  });

  it('sends a GRE transportista with driver, recipient and secondary vehicles, then consultar_guia brings the PDF', async () => {
    await provider.emitGuide(guide(carrierPayload, 1));
    expect(last().violations).toEqual([]);
    expect(last().body).toMatchObject({
      tipo_de_comprobante: 8,
      serie: 'VVV1',
      tipo_de_transporte: '02',
      transportista_placa_numero: 'B7K904',
      conductor_documento_tipo: '1',
      conductor_documento_numero: '45678912',
      conductor_nombre: 'Juan Carlos',
      conductor_apellidos: 'Pérez Soto',
      conductor_numero_licencia: 'Q45678912',
      destinatario_documento_tipo: '6',
      destinatario_documento_numero: '10456789123',
      destinatario_denominacion: 'María Quispe Huamán',
      vehiculos_secundarios: [{ placa_numero: 'C9L118', tuc: '15M22000004567' }],
      mtc: '1532CXNO',
      tuc_vehiculo_principal: '15M22000001234',
      fecha_de_entrega_al_transportista: TODAY.split('-').reverse().join('-'),
      conductores_secundarios: [
        { documento_tipo: '1', documento_numero: '41234567', nombre: 'Luis', apellidos: 'Ramos Díaz', numero_licencia: 'Q41234567' },
      ],
    });
    expect(last().body).not.toHaveProperty('transportista_documento_numero');
    const consulted = await provider.consultGuide({ type: '31', series: 'VVV1', number: 1 });
    expect(last().body).toEqual({ operacion: 'consultar_guia', tipo_de_comprobante: 8, serie: 'VVV1', numero: 1 });
    expect(last().violations).toEqual([]);
    expect(consulted.status).toBe('aceptado');
    expect(consulted.links?.pdf).toMatch(/^https:\/\/fake\.nubefact\.test\/gre\/.+\.pdf$/);
    expect(consulted.qrText).toMatch(/^https:\/\/e-factura\.sunat\.gob\.pe\//);
  });

  it('answers a repeated guide (code 23) with the first attempt, via consultar_guia', async () => {
    fake.failNext({ kind: 'timeout', process: true });
    await expect(provider.emitGuide(guide(senderPayload, 2))).rejects.toMatchObject({ kind: 'timeout' });
    const retried = await provider.emitGuide(guide(senderPayload, 2));
    expect(fake.requests.map((r) => r.body?.operacion)).toEqual(['generar_guia', 'generar_guia', 'consultar_guia']);
    expect(retried.status).toBe('aceptado');
  });

  it('maps Nubefact error codes to Spanish', async () => {
    fake.failNext({ kind: 'error', codigo: 20, errors: 'El ubigeo no existe' });
    await expect(provider.emitGuide(guide(senderPayload, 3))).rejects.toMatchObject({
      kind: 'rejected',
      message: 'Nubefact rechazó el documento por un dato inválido (código 20): El ubigeo no existe',
    });
    await expect(provider.consultGuide({ type: '09', series: 'TTT1', number: 404 })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'El documento no existe en Nubefact (código 24).',
    });
    fake.failNext({ kind: 'error', codigo: 50, status: 403 });
    await expect(provider.emitRetention(voucher('retention', retentionPayload, 9))).rejects.toMatchObject({
      kind: 'suspended',
      message: 'La cuenta de Nubefact está suspendida (código 50).',
    });
  });

  it('sends generar_retencion field by field, amounts to the céntimo', async () => {
    const result = await provider.emitRetention(voucher('retention', retentionPayload, 4));
    expect(last().violations).toEqual([]);
    expect(last().body).toEqual({
      operacion: 'generar_retencion',
      serie: 'RRR1',
      numero: 4,
      fecha_de_emision: '15-05-2026',
      proveedor_tipo_de_documento: '6',
      proveedor_numero_de_documento: '20512345679',
      proveedor_denominacion: 'TRANSPORTES SUR S.A.C.',
      proveedor_direccion: 'Av. Arequipa 100, Lima',
      proveedor_email: '',
      moneda: 1,
      tipo_de_tasa_de_retencion: 1,
      total_retenido: 40.4,
      total_pagado: 1306.1,
      observaciones: '',
      enviar_automaticamente_a_la_sunat: true,
      enviar_automaticamente_al_cliente: false,
      codigo_unico: '20-RRR1-4',
      items: [
        {
          documento_relacionado_tipo: '01',
          documento_relacionado_serie: 'F001',
          documento_relacionado_numero: 150,
          documento_relacionado_fecha_de_emision: '02-05-2026',
          documento_relacionado_moneda: 1,
          documento_relacionado_total: 1180,
          pago_fecha: '15-05-2026',
          pago_numero: 1,
          pago_total_sin_retencion: 1180,
          importe_retenido: 35.4,
          importe_pagado_con_retencion: 1144.6,
        },
        {
          documento_relacionado_tipo: '01',
          documento_relacionado_serie: 'F001',
          documento_relacionado_numero: 151,
          documento_relacionado_fecha_de_emision: '03-05-2026',
          documento_relacionado_moneda: 1,
          documento_relacionado_total: 1000,
          pago_fecha: '14-05-2026',
          pago_numero: 1,
          pago_total_sin_retencion: 166.5,
          importe_retenido: 5,
          importe_pagado_con_retencion: 161.5,
        },
      ],
    });
    expect(result.status).toBe('aceptado');
  });

  it('sends generar_percepcion with the customer and cobro fields; consults and reverses it', async () => {
    await provider.emitPerception(voucher('perception', perceptionPayload, 1));
    expect(last().violations).toEqual([]);
    expect(last().body).toMatchObject({
      operacion: 'generar_percepcion',
      cliente_tipo_de_documento: '6',
      cliente_numero_de_documento: '20100070970',
      tipo_de_tasa_de_percepcion: 1,
      total_percibido: 24.69,
      total_cobrado: 1259.26,
      items: [
        {
          cobro_fecha: '15-05-2026',
          cobro_numero: 1,
          cobro_total_sin_percepcion: 1234.57,
          importe_percibido: 24.69,
          importe_cobrado_con_percepcion: 1259.26,
        },
      ],
    });
    const ref = { type: '40' as const, series: 'PPP1', number: 1 };
    expect((await provider.consultVoucher(ref)).voided).toBe(false);
    expect(last().body).toEqual({ operacion: 'consultar_percepcion', serie: 'PPP1', numero: 1 });
    const reversed = await provider.reverseVoucher(ref, 'ERROR DEL SISTEMA');
    expect(last().body).toEqual({ operacion: 'generar_reversion_percepcion', serie: 'PPP1', numero: 1, motivo: 'ERROR DEL SISTEMA' });
    expect(last().violations).toEqual([]);
    expect(reversed.status).toBe('anulado');
    expect((await provider.consultVoucher(ref)).voided).toBe(true);
  });

  it('refuses a retention rate Nubefact has no code for, without calling it', async () => {
    await expect(provider.emitRetention(voucher('retention', { ...retentionPayload, porcentaje: '4' }, 5))).rejects.toMatchObject({
      kind: 'rejected',
      message: 'Nubefact solo admite retenciones de 3 % o 6 %.',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses to void a guide, which Nubefact cannot do, without calling it', async () => {
    for (const type of ['09', '31'] as const) {
      await expect(provider.void({ type, series: type === '09' ? 'TTT1' : 'VVV1', number: 1 }, 'ERROR DEL SISTEMA')).rejects.toMatchObject({
        kind: 'rejected',
        message: GUIDE_VOID_REFUSAL,
      });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('the fake catches a request that breaks the contract (it can fail)', async () => {
    const bad = guide(senderPayload, 8);
    await expect(provider.emitGuide({ ...bad, origin: { ...bad.origin, ubigeo: '15011' } })).rejects.toMatchObject({ kind: 'rejected' });
    expect(last().violations).toContain('punto_de_partida_ubigeo: 6 dígitos');
  });
});
