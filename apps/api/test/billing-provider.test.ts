import { createHash, X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { ExclusiveCanonicalization, SignedXml } from 'xml-crypto';
import { checkInvoice, SUNAT_HINTS, type FreightTrip, type InvoicePayloadInput } from '@tramo/domain';
import {
  BillingProviderError,
  DEMO_ISSUER,
  memorySandboxStore,
  nubefactBillingProvider,
  qrPng,
  renderDocumentPdf,
  sandboxBillingProvider,
  type BillingDocument,
  type BillingProvider,
  type SandboxFailures,
} from '../src/providers/billing/index.ts';
import { loadConfig } from '../src/config.ts';
import { createProviders } from '../src/providers/index.ts';
import { startFakeNubefact, type FakeNubefact } from './support/fake-nubefact.ts';
import { validateUbl } from './support/ubl-xsd.ts';

const TODAY = '2026-05-15';
const RUC = '20100070970';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';

function numbered(payload: InvoicePayloadInput, number: number, today = TODAY): BillingDocument {
  const check = checkInvoice(payload, { today });
  if (!check.ok) throw new Error(check.problems.join(' / '));
  return { ...check.draft, number, issueTime: '10:42:05' };
}

const company = { doc_type: 6, doc_number: RUC, name: 'Supermercados Peruanos S.A.', address: 'Calle Morelli 181, San Borja' };
const freight = (code: string, route: string, value: number | string, extra: Record<string, unknown> = {}) => ({
  description: `Servicio de transporte de carga ${code} ${route}`,
  code,
  unit: 'ZZ',
  quantity: 1,
  unitValue: value,
  igvType: '10',
  ...extra,
});

/** The freight trip of the detracción factura: Lima (Cercado) to Arequipa, with the MTC reference values. */
const TRIP = {
  ubigeo_origen: '150101',
  direccion_origen: 'Av. Nicolás de Piérola 1020, Cercado de Lima',
  ubigeo_destino: '040101',
  direccion_destino: 'Calle Mercaderes 214, Arequipa',
  detalle_viaje: 'Carga consolidada Lima - Arequipa por carretera',
  val_ref_serv_trans: '950.00',
  val_ref_carga_efec: '820.50',
  val_ref_carga_util: '1200.00',
};

/** A factura of three lines (855.00 + IGV 153.90 = 1,008.90) with detracción 40.00, on credit in two instalments. */
const facturaWithDetraction = (number = 12, today = TODAY) =>
  numbered(
    {
      type: '01',
      issueDate: today,
      serie: 'FFF1',
      items: [
        freight('TMT-000123', 'Lima → Arequipa', 450),
        freight('TMT-000124', 'Lima → Cusco', '380.50', { discount: '20.50' }),
        { description: 'Embalaje con film', unit: 'NIU', quantity: 3, unitValue: 15, igvType: '10' },
      ],
      customer: company,
      extras: {
        detraccion: true,
        detraccion_porcentaje: 4,
        detraccion_total: 40,
        cuenta_detraccion: '00-005-123456',
        medio_de_pago_detraccion: 1,
        viaje: TRIP,
        guias: [{ guia_tipo: 2, serie: 'VVV1', numero: 31 }],
      },
      payment: {
        type: 'credito',
        installments: [
          { fecha_de_pago: '2026-06-14', importe: 500 },
          { fecha_de_pago: '2026-07-14', importe: '468.90' },
        ],
      },
    },
    number,
    today,
  );

/** A boleta of 53.98 + 9.72 = 63.70 with one gravado, one exonerado and one inafecto line. */
const boleta = (number = 4) =>
  numbered(
    {
      type: '03',
      issueDate: TODAY,
      serie: 'BBB1',
      items: [
        {
          description: 'Servicio de envío TMT-000125 Lima → Trujillo',
          code: 'TMT-000125',
          unit: 'ZZ',
          quantity: 1,
          unitValue: '53.98',
          igvType: '10',
        },
        { description: 'Seguro de carga', unit: 'ZZ', quantity: 1, unitValue: 5, igvType: '20' },
        { description: 'Tasa municipal', unit: 'ZZ', quantity: 2, unitValue: '1.5', igvType: '30' },
      ],
      customer: { doc_type: 1, doc_number: '70606878', name: 'Ana Lucía Quispe Mamani' },
    },
    number,
  );

const creditNote = (number = 3) =>
  numbered(
    {
      type: '07',
      issueDate: TODAY,
      serie: 'FFF1',
      items: [freight('TMT-000123', 'Lima → Arequipa', 450)],
      customer: company,
      extras: {
        documento_que_se_modifica_tipo: '01',
        documento_que_se_modifica_serie: 'FFF1',
        documento_que_se_modifica_numero: 12,
        tipo_de_nota_de_credito: '01',
      },
    },
    number,
  );

/** The same value with every object's keys in reverse order. */
function reversedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversedKeys) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reversedKeys(v)]),
    ) as T;
  return value;
}

function parseXml(xml: string): Document {
  const problems: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => level !== 'warning' && problems.push(message) }).parseFromString(xml, 'text/xml');
  expect(problems).toEqual([]);
  return doc as unknown as Document;
}

const texts = (doc: Document | Element, ns: string, name: string) => Array.from(doc.getElementsByTagNameNS(ns, name)).map((n) => n.textContent);

function verify(xml: string): boolean {
  const doc = parseXml(xml);
  const signature = doc.getElementsByTagNameNS(DSIG, 'Signature')[0]!;
  const sig = new SignedXml({ getCertFromKeyInfo: SignedXml.getCertFromKeyInfo });
  sig.loadSignature(signature as unknown as Node);
  return sig.checkSignature(xml);
}

describe('sandbox provider', () => {
  let dir: string;
  let now: Date;
  let failures: SandboxFailures;
  let provider: BillingProvider;
  const BOLETA_DELAY = 60_000;
  const VOID_DELAY = 120_000;
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tramo-billing-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  beforeEach(() => {
    now = new Date('2026-05-15T15:42:05Z');
    failures = {};
    provider = sandboxBillingProvider({
      issuer: DEMO_ISSUER,
      store: memorySandboxStore(),
      certificateDir: dir,
      clock: () => now,
      boletaDelayMs: BOLETA_DELAY,
      voidDelayMs: VOID_DELAY,
      failures,
    });
  });

  it('builds a UBL 2.1 Invoice that parses and carries the factura, its detracción and its instalments', async () => {
    const result = await provider.emit(facturaWithDetraction());
    expect(result.status).toBe('aceptado');
    const doc = parseXml(result.xml!);
    expect(doc.documentElement.localName).toBe('Invoice');
    expect(texts(doc, CBC, 'UBLVersionID')).toEqual(['2.1']);
    expect(texts(doc, CBC, 'CustomizationID')).toEqual(['2.0']);
    expect(texts(doc, CBC, 'ID')[0]).toBe('FFF1-12');
    expect(texts(doc, CBC, 'IssueDate')).toEqual([TODAY]);
    const typeCode = doc.getElementsByTagNameNS(CBC, 'InvoiceTypeCode')[0]!;
    expect([typeCode.textContent, typeCode.getAttribute('listID')]).toEqual(['01', '1004']);
    expect(texts(doc, CBC, 'PayableAmount')).toEqual(['1008.90']);
    expect(texts(doc, CBC, 'LineExtensionAmount')[0]).toBe('855.00');
    expect(doc.getElementsByTagNameNS(CAC, 'InvoiceLine')).toHaveLength(3);
    const terms = Array.from(doc.getElementsByTagNameNS(CAC, 'PaymentTerms')).map((t) =>
      Array.from(t.childNodes)
        .map((c) => c.textContent)
        .join('|'),
    );
    expect(terms).toEqual([
      'Detraccion|027|4|40.00',
      'FormaPago|Credito|968.90',
      'FormaPago|Cuota001|500.00|2026-06-14',
      'FormaPago|Cuota002|468.90|2026-07-14',
    ]);
    expect(texts(doc, CBC, 'PaymentMeansCode')).toEqual(['001']);
    // The second line's discount: 20.50 of 380.50, as an allowance with its factor.
    expect(texts(doc, CBC, 'MultiplierFactorNumeric')).toEqual(['0.05388']);
    expect(texts(doc, CBC, 'Note')[0]).toBe('MIL OCHO CON 90/100 SOLES');

    // Operation 1004: every line carries the trip (SUNAT 3116, 3124-3126 without it).
    for (const invoiceLine of Array.from(doc.getElementsByTagNameNS(CAC, 'InvoiceLine'))) {
      const deliveries = invoiceLine.getElementsByTagNameNS(CAC, 'Delivery');
      expect(deliveries).toHaveLength(1);
      const delivery = deliveries[0]!;
      const origin = delivery.getElementsByTagNameNS(CAC, 'DespatchAddress')[0]!;
      expect(texts(origin, CBC, 'ID')).toEqual([TRIP.ubigeo_origen]);
      expect(texts(origin, CBC, 'Line')).toEqual([TRIP.direccion_origen]);
      const destination = delivery.getElementsByTagNameNS(CAC, 'DeliveryLocation')[0]!;
      expect(texts(destination, CBC, 'ID')).toEqual([TRIP.ubigeo_destino]);
      expect(texts(destination, CBC, 'Line')).toEqual([TRIP.direccion_destino]);
      expect(texts(delivery, CBC, 'Instructions')).toEqual([TRIP.detalle_viaje]);
      const deliveryTerms = Array.from(delivery.getElementsByTagNameNS(CAC, 'DeliveryTerms')).map((t) =>
        Array.from(t.childNodes)
          .map((c) => c.textContent)
          .join('|'),
      );
      expect(deliveryTerms).toEqual(['01|950.00', '02|820.50', '03|1200.00']);
    }
  });

  it('builds a CreditNote that references the factura it modifies', async () => {
    await provider.emit(facturaWithDetraction(12));
    const result = await provider.emit(creditNote());
    const doc = parseXml(result.xml!);
    expect(doc.documentElement.localName).toBe('CreditNote');
    expect(texts(doc, CBC, 'ResponseCode')).toEqual(['01']);
    expect(texts(doc, CBC, 'ReferenceID')).toEqual(['FFF1-12']);
    expect(texts(doc, CBC, 'DocumentTypeCode')).toEqual(['01']);
    expect(doc.getElementsByTagNameNS(CAC, 'CreditNoteLine')).toHaveLength(1);
    expect(result.status).toBe('aceptado');
    expect(verify(result.xml!)).toBe(true);
  });

  it('each signed document validates against the official UBL 2.1 schema (Invoice, CreditNote)', async () => {
    for (const document of [facturaWithDetraction(), boleta(), creditNote()]) {
      const { xml } = await provider.emit(document);
      expect(validateUbl(xml!), `${document.type} ${document.series}-${document.number}`).toMatchObject({ valid: true, errors: [] });
    }
    const { xml } = await provider.emit(boleta(5));
    const broken = validateUbl(xml!.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, '<cbc:IssueDate>15/05/2026</cbc:IssueDate>'));
    expect(broken.valid).toBe(false);
    expect(broken.errors.join('\n')).toMatch(/IssueDate/);
  });

  it('signs with XML-DSig that xml-crypto verifies, with the TRAMO DEMO certificate in KeyInfo', async () => {
    const { xml } = await provider.emit(facturaWithDetraction());
    expect(verify(xml!)).toBe(true);
    const doc = parseXml(xml!);
    const signature = doc.getElementsByTagNameNS(DSIG, 'Signature')[0]!;
    expect((signature.parentNode as Element | null)?.localName).toBe('ExtensionContent');
    expect(signature.getAttribute('Id')).toBe('SignatureTramo');
    const algorithms = Array.from(signature.getElementsByTagNameNS('*', '*'))
      .map((n) => n.getAttribute('Algorithm'))
      .filter(Boolean);
    expect(algorithms).toEqual([
      'http://www.w3.org/2001/10/xml-exc-c14n#',
      'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
      'http://www.w3.org/2001/04/xmlenc#sha256',
    ]);
    expect(signature.getElementsByTagNameNS(DSIG, 'Reference')[0]!.getAttribute('URI')).toBe('');
    const cert = new X509Certificate(Buffer.from(texts(doc, DSIG, 'X509Certificate')[0]!, 'base64'));
    expect(cert.subject).toContain('CN=TRAMO DEMO');
  });

  it('fails verification once the signed document is altered', async () => {
    const { xml } = await provider.emit(facturaWithDetraction());
    expect(xml).toContain('<cbc:PayableAmount currencyID="PEN">1008.90</cbc:PayableAmount>');
    const tampered = xml!.replace('<cbc:PayableAmount currencyID="PEN">1008.90', '<cbc:PayableAmount currencyID="PEN">108.90');
    expect(verify(tampered)).toBe(false);
    expect(verify(xml!.replace('Supermercados Peruanos', 'Supermercados Peruanas'))).toBe(false);
  });

  it('uses the digest of the canonical document as the hash', async () => {
    const result = await provider.emit(facturaWithDetraction());
    const doc = parseXml(result.xml!);
    expect(texts(doc, DSIG, 'DigestValue')).toEqual([result.hash]);
    // Recompute it: drop the signature (enveloped), exclusive c14n, SHA-256, base64.
    const signature = doc.getElementsByTagNameNS(DSIG, 'Signature')[0]!;
    signature.parentNode!.removeChild(signature);
    const canonical = new ExclusiveCanonicalization().process(doc.documentElement, {}) as string;
    expect(createHash('sha256').update(canonical).digest('base64')).toBe(result.hash);
    expect(result.hash).toHaveLength(44);
  });

  it('keeps one certificate in the directory it was given', async () => {
    const first = await provider.emit(facturaWithDetraction(1));
    const again = sandboxBillingProvider({ issuer: DEMO_ISSUER, store: memorySandboxStore(), certificateDir: dir, clock: () => now });
    const second = await again.emit(facturaWithDetraction(2));
    const cert = (xml: string) => texts(parseXml(xml), DSIG, 'X509Certificate')[0];
    expect(cert(second.xml!)).toBe(cert(first.xml!));
  });

  it('gives the SUNAT QR text, and the QR image decodes to it', async () => {
    const result = await provider.emit(boleta());
    const fields = result.qrText!.split('|');
    expect(fields).toEqual([DEMO_ISSUER.ruc, '03', 'BBB1', '000004', '9.72', '71.70', '15/05/2026', '1', '70606878', result.hash, '']);
    const png = PNG.sync.read(await qrPng(result.qrText!));
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(result.qrText);
  });

  it('keeps a boleta pending until SUNAT takes the daily summary, then accepts it', async () => {
    const issued = await provider.emit(boleta());
    expect(issued.status).toBe('pendiente');
    const ref = { type: '03' as const, series: 'BBB1', number: 4 };
    advance(BOLETA_DELAY - 1);
    expect((await provider.consult(ref)).status).toBe('pendiente');
    advance(1);
    const accepted = await provider.consult(ref);
    expect(accepted).toMatchObject({ status: 'aceptado', sunatCode: '0', hash: issued.hash, voided: false });
    expect(accepted.sunatDescription).toBe('La Boleta de venta número BBB1-4, ha sido aceptada');
  });

  it('voids: pending, then voided after the delay; the document then reads as voided', async () => {
    await provider.emit(facturaWithDetraction());
    const ref = { type: '01' as const, series: 'FFF1', number: 12 };
    const requested = await provider.void(ref, 'ERROR DEL SISTEMA');
    expect(requested.status).toBe('anulación pendiente');
    // SUNAT's ticket is a number of its own; the comunicación de baja is RA-<day>-<correlative of the day>.
    expect(requested.ticket).toMatch(/^\d{15}$/);
    expect(requested.summary).toMatchObject({ kind: 'RA', id: 'RA-20260515-1', ticket: requested.ticket });
    advance(VOID_DELAY - 1);
    expect((await provider.voidStatus(ref)).status).toBe('anulación pendiente');
    advance(1);
    expect((await provider.voidStatus(ref)).status).toBe('anulado');
    expect((await provider.consult(ref)).voided).toBe(true);
    // Asking again answers the request already made.
    expect((await provider.void(ref, 'ERROR DEL SISTEMA')).status).toBe('anulado');
  });

  it('refuses to void what it does not have; a boleta not yet accepted is voided in its daily summary (estado 3)', async () => {
    await provider.emit(boleta());
    await expect(provider.void({ type: '01', series: 'FFF1', number: 99 }, 'ERROR DEL SISTEMA')).rejects.toMatchObject({
      kind: 'not_found',
      httpStatus: 404,
    });
    await expect(provider.voidStatus({ type: '03', series: 'BBB1', number: 4 })).rejects.toMatchObject({ kind: 'not_found' });
    const voided = await provider.void({ type: '03', series: 'BBB1', number: 4 }, 'ERROR DEL SISTEMA');
    // A boleta is voided through the daily summary (RC), not a comunicación de baja (RA); the
    // summary that would have carried it accepted carries it voided, answered when SUNAT answers it.
    expect(voided).toMatchObject({ status: 'anulación pendiente', summary: { kind: 'RC', id: 'RC-20260515-1' }, raw: { estado_en_resumen: '3' } });
    expect(voided.ticket).toMatch(/^\d{15}$/);
    advance(BOLETA_DELAY);
    expect((await provider.voidStatus({ type: '03', series: 'BBB1', number: 4 })).status).toBe('anulación pendiente');
    advance(VOID_DELAY);
    expect((await provider.voidStatus({ type: '03', series: 'BBB1', number: 4 })).status).toBe('anulado');
    expect((await provider.consult({ type: '03', series: 'BBB1', number: 4 })).voided).toBe(true);
  });

  it('refuses a factura void more than 7 days after its issue date', async () => {
    await provider.emit(facturaWithDetraction(15));
    advance(8 * 24 * 3600 * 1000);
    const err = await provider.void({ type: '01', series: 'FFF1', number: 15 }, 'ERROR DEL SISTEMA').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingProviderError);
    expect(err).toMatchObject({
      kind: 'rejected',
      message: 'Pasaron más de 7 días desde la emisión: anula la factura con una nota de crédito (motivo 01).',
    });
  });

  it('after a lost answer, a consult or a retry with the same number finds the same document', async () => {
    failures.emit = ['lost-answer'];
    const doc = facturaWithDetraction(20);
    const err = await provider.emit(doc).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'timeout', uncertain: true });
    const consulted = await provider.consult({ type: '01', series: 'FFF1', number: 20 });
    // The caller retries with the document as it stored it (a jsonb column gives its keys back reordered).
    const retried = await provider.emit(reversedKeys(doc));
    expect(retried.hash).toBe(consulted.hash);
    expect(retried.status).toBe('aceptado');
    // The same number with other content is another document: refused.
    await expect(provider.emit({ ...doc, observations: 'otra cosa' })).rejects.toMatchObject({ kind: 'exists', httpStatus: 409 });
  });

  it('times out before storing, rejects like SUNAT, and fails like a network when told to', async () => {
    failures.emit = ['timeout', 'sunat-rejects', 'network'];
    const doc = facturaWithDetraction(21);
    await expect(provider.emit(doc)).rejects.toMatchObject({ kind: 'timeout' });
    await expect(provider.consult({ type: '01', series: 'FFF1', number: 21 })).rejects.toMatchObject({ kind: 'not_found' });
    const rejected = await provider.emit(doc);
    expect(rejected).toMatchObject({ status: 'rechazado', sunatCode: '2800' });
    await expect(provider.void({ type: '01', series: 'FFF1', number: 21 }, 'x')).rejects.toMatchObject({ kind: 'rejected' });
    await expect(provider.emit(facturaWithDetraction(22))).rejects.toMatchObject({ kind: 'network' });
  });
});

describe('the sandbox refuses what SUNAT refuses, with the code and how to fix it', () => {
  let dir: string;
  let failures: SandboxFailures;
  let provider: BillingProvider;
  const now = new Date('2026-05-15T15:42:05Z');

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tramo-billing-rules-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  beforeEach(() => {
    failures = {};
    provider = sandboxBillingProvider({ issuer: DEMO_ISSUER, store: memorySandboxStore(), certificateDir: dir, clock: () => now, failures });
  });

  const expectRejected = async (doc: BillingDocument, code: string) => {
    const result = await provider.emit(doc);
    expect(result).toMatchObject({ status: 'rechazado', sunatCode: code });
    expect(result.sunatDescription).toContain(`(SUNAT ${code}). Cómo corregirlo: ${SUNAT_HINTS[code]}`);
  };
  const withTrip = (number: number, trip: FreightTrip | null): BillingDocument => {
    const doc = facturaWithDetraction(number);
    return { ...doc, detraction: { ...doc.detraction!, trip } };
  };
  const note = (number: number, modifiedNumber: number): BillingDocument => {
    const doc = creditNote(number);
    return { ...doc, creditNote: { ...doc.creditNote!, modifiedNumber } };
  };

  it('1001: a series that is not 4 characters', async () => {
    await expectRejected({ ...facturaWithDetraction(1), series: 'F1' }, '1001');
  });

  it('3116, 3124, 3125, 3126: a 1004 factura without its trip or a reference value', async () => {
    const trip = facturaWithDetraction().detraction!.trip!;
    await expectRejected(withTrip(2, null), '3116');
    await expectRejected(withTrip(3, { ...trip, serviceReferenceCents: 0 }), '3124');
    await expectRejected(withTrip(4, { ...trip, effectiveLoadReferenceCents: 0 }), '3125');
    await expectRejected(withTrip(5, { ...trip, nominalLoadReferenceCents: 0 }), '3126');
  });

  it('3265, 3267: instalments off by a céntimo, or due on the issue date', async () => {
    const doc = facturaWithDetraction(6);
    const [first, second] = doc.payment.instalments;
    await expectRejected(
      { ...doc, payment: { ...doc.payment, instalments: [first!, { ...second!, importeCents: second!.importeCents + 1 }] } },
      '3265',
    );
    await expectRejected(
      { ...facturaWithDetraction(7), payment: { ...doc.payment, instalments: [{ ...first!, fecha_de_pago: TODAY }, second!] } },
      '3267',
    );
  });

  it('2119, 2120, 2121: a credit note against a document SUNAT lacks, voided or rejected; 2800 as injected', async () => {
    await expectRejected(note(1, 999), '2119');
    await provider.emit(facturaWithDetraction(20));
    await provider.void({ type: '01', series: 'FFF1', number: 20 }, 'Error en el servicio');
    await expectRejected(note(2, 20), '2120');
    failures.emit = ['sunat-rejects'];
    expect(await provider.emit(facturaWithDetraction(21))).toMatchObject({ status: 'rechazado', sunatCode: '2800' });
    await expectRejected(note(3, 21), '2121');
    await provider.emit(facturaWithDetraction(22));
    expect(await provider.emit(note(4, 22))).toMatchObject({ status: 'aceptado', sunatCode: '0' });
  });
});

describe('printed representation', () => {
  const pages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
  const mediaBox = (pdf: Buffer) => /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(pdf.toString('latin1'))!.slice(1).map(Number);
  const printable = async (doc: BillingDocument) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tramo-pdf-'));
    const provider = sandboxBillingProvider({ issuer: DEMO_ISSUER, store: memorySandboxStore(), certificateDir: dir });
    const result = await provider.emit(doc);
    await rm(dir, { recursive: true, force: true });
    return { document: doc, issuer: DEMO_ISSUER, hash: result.hash, qrText: result.qrText, demo: true };
  };

  it('renders a factura with detracción on one A4 page with the QR image', async () => {
    const pdf = await renderDocumentPdf(await printable(facturaWithDetraction()), 'a4');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pages(pdf)).toBe(1);
    expect(mediaBox(pdf)).toEqual([595.28, 841.89]);
    expect(pdf.toString('latin1')).toMatch(/\/Subtype \/Image/);
  });

  it('renders a boleta as one 80 mm ticket as tall as its content', async () => {
    const pdf = await renderDocumentPdf(await printable(boleta()), 'ticket');
    expect(pages(pdf)).toBe(1);
    const [width, height] = mediaBox(pdf);
    expect(width).toBeCloseTo(226.77, 1);
    expect(height).toBeGreaterThan(400);
    expect(height).toBeLessThan(841);
    // More lines make a taller ticket.
    const longer = await renderDocumentPdf(await printable(facturaWithDetraction()), 'ticket');
    expect(mediaBox(longer)[1]).toBeGreaterThan(height!);
  });
});

describe('Nubefact provider against a fake Nubefact', () => {
  let fake: FakeNubefact;
  let provider: BillingProvider;

  beforeEach(async () => {
    fake = await startFakeNubefact();
    provider = nubefactBillingProvider({ url: fake.url, token: fake.token, timeoutMs: 400 });
  });
  afterEach(() => fake.close());

  const last = () => fake.requests.at(-1)!;
  const noViolations = () => expect(fake.requests.flatMap((r) => r.violations)).toEqual([]);

  it('emits a factura with detracción, credit and a guide exactly as the contract says', async () => {
    const result = await provider.emit(facturaWithDetraction());
    noViolations();
    const r = last();
    expect(r.authorization).toBe(`Token token="${fake.token}"`);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({
      operacion: 'generar_comprobante',
      tipo_de_comprobante: 1,
      serie: 'FFF1',
      numero: 12,
      sunat_transaction: 33,
      cliente_tipo_de_documento: '6',
      cliente_numero_de_documento: RUC,
      fecha_de_emision: '15-05-2026',
      fecha_de_vencimiento: '14-07-2026',
      moneda: 1,
      total_gravada: 855,
      total_igv: 153.9,
      total: 1008.9,
      total_descuento: 20.5,
      detraccion: true,
      detraccion_tipo: 25,
      detraccion_porcentaje: 4,
      detraccion_total: 40,
      medio_de_pago_detraccion: 1,
      ubigeo_origen: TRIP.ubigeo_origen,
      direccion_origen: TRIP.direccion_origen,
      ubigeo_destino: TRIP.ubigeo_destino,
      direccion_destino: TRIP.direccion_destino,
      detalle_viaje: TRIP.detalle_viaje,
      val_ref_serv_trans: 950,
      val_ref_carga_efec: 820.5,
      val_ref_carga_util: 1200,
      codigo_unico: '01-FFF1-12',
      generado_por_contingencia: false,
      guias: [{ guia_tipo: 2, guia_serie_numero: 'VVV1-31' }],
      venta_al_credito: [
        { cuota: 1, fecha_de_pago: '14-06-2026', importe: 500 },
        { cuota: 2, fecha_de_pago: '14-07-2026', importe: 468.9 },
      ],
    });
    expect((r.body!.items as Record<string, unknown>[])[1]).toEqual({
      unidad_de_medida: 'ZZ',
      codigo: 'TMT-000124',
      descripcion: 'Servicio de transporte de carga TMT-000124 Lima → Cusco',
      cantidad: 1,
      valor_unitario: 380.5,
      precio_unitario: 448.99,
      descuento: 20.5,
      subtotal: 360,
      tipo_de_igv: 1,
      igv: 64.8,
      total: 424.8,
      anticipo_regularizacion: false,
    });
    expect(result).toMatchObject({ status: 'aceptado', sunatCode: '0', xml: null });
    expect(result.hash).toBe(fake.documents.get('1-FFF1-12')!.hash);
    expect(result.links?.pdf).toMatch(/\.pdf$/);
    expect(result.qrText?.split('|').slice(1, 4)).toEqual(['01', 'FFF1', '000012']);
  });

  it('maps IGV types 10/20/30 to 1/8/9; a boleta is accepted on a later consult', async () => {
    const first = await provider.emit(boleta());
    noViolations();
    expect(last().body).toMatchObject({
      tipo_de_comprobante: 2,
      sunat_transaction: 1,
      cliente_tipo_de_documento: '1',
      detraccion: false,
      venta_al_credito: [],
    });
    expect((last().body!.items as { tipo_de_igv: number }[]).map((i) => i.tipo_de_igv)).toEqual([1, 8, 9]);
    expect(first.status).toBe('pendiente');
    const later = await provider.consult({ type: '03', series: 'BBB1', number: 4 });
    expect(last().body).toEqual({ operacion: 'consultar_comprobante', tipo_de_comprobante: 2, serie: 'BBB1', numero: 4 });
    expect(later).toMatchObject({ status: 'aceptado', voided: false });
    noViolations();
  });

  it('sends a credit note with the document it modifies and its reason', async () => {
    await provider.emit(creditNote());
    noViolations();
    expect(last().body).toMatchObject({
      tipo_de_comprobante: 3,
      documento_que_se_modifica_tipo: 1,
      documento_que_se_modifica_serie: 'FFF1',
      documento_que_se_modifica_numero: 12,
      tipo_de_nota_de_credito: 1,
    });
  });

  it('sends a contingency document with its flag and a customer without a document as -', async () => {
    const doc = numbered(
      {
        type: '03',
        issueDate: '2026-05-13',
        serie: '0001',
        items: [{ description: 'Servicio de envío', unit: 'ZZ', quantity: 1, unitValue: 10, igvType: '10' }],
        customer: { doc_type: 0, doc_number: '', name: 'Clientes varios' },
      },
      1,
    );
    await provider.emit(doc);
    noViolations();
    expect(last().body).toMatchObject({
      serie: '0001',
      generado_por_contingencia: true,
      cliente_tipo_de_documento: '-',
      fecha_de_emision: '13-05-2026',
    });
  });

  it('voids: generar_anulacion pending, consultar_anulacion accepted, the document then reads as voided', async () => {
    await provider.emit(facturaWithDetraction());
    const ref = { type: '01' as const, series: 'FFF1', number: 12 };
    const requested = await provider.void(ref, 'ERROR DEL SISTEMA');
    expect(last().body).toEqual({
      operacion: 'generar_anulacion',
      tipo_de_comprobante: 1,
      serie: 'FFF1',
      numero: 12,
      motivo: 'ERROR DEL SISTEMA',
      codigo_unico: '01-FFF1-12',
    });
    expect(requested.status).toBe('anulación pendiente');
    expect(requested.ticket).toMatch(/^15\d+$/);
    const status = await provider.voidStatus(ref);
    expect(last().body).toEqual({ operacion: 'consultar_anulacion', tipo_de_comprobante: 1, serie: 'FFF1', numero: 12 });
    expect(status.status).toBe('anulado');
    expect((await provider.consult(ref)).voided).toBe(true);
    // A second request (code 23) is answered by the void's status.
    expect((await provider.void(ref, 'ERROR DEL SISTEMA')).status).toBe('anulado');
    noViolations();
  });

  it.each([
    [10, 'auth', 'Nubefact no aceptó el token de acceso (código 10). Revisa NUBEFACT_TOKEN.'],
    [11, 'auth', 'La ruta de Nubefact no es válida (código 11). Revisa NUBEFACT_URL.'],
    [12, 'internal', 'Nubefact no aceptó el formato de la solicitud (código 12).'],
    [20, 'rejected', 'Nubefact rechazó el documento por un dato inválido (código 20): error 20'],
    [21, 'rejected', 'Nubefact no pudo completar la operación (código 21): error 21'],
    [22, 'rejected', 'La fecha del documento está fuera del plazo que SUNAT permite (código 22): error 22'],
    [23, 'exists', 'El documento ya existe en Nubefact (código 23).'],
    [24, 'not_found', 'El documento no existe en Nubefact (código 24).'],
    [40, 'internal', 'Nubefact tuvo un error interno (código 40); vuelve a intentar más tarde.'],
    [50, 'suspended', 'La cuenta de Nubefact está suspendida (código 50).'],
    [51, 'suspended', 'La cuenta de Nubefact está suspendida por falta de pago (código 51).'],
    [99, 'internal', 'Nubefact respondió con el código 99: error 99'],
  ])('error codigo %i → %s with its Spanish message', async (codigo, kind, message) => {
    fake.failNext({ kind: 'error', codigo, status: codigo === 40 ? 500 : 400 });
    const err = await provider.consult({ type: '01', series: 'FFF1', number: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingProviderError);
    expect(err).toMatchObject({ kind, message, providerCode: String(codigo), httpStatus: codigo === 40 ? 500 : 400 });
  });

  it('maps a bare HTTP status without JSON to HTTP {status}', async () => {
    fake.failNext({ kind: 'status', status: 502 });
    await expect(provider.consult({ type: '01', series: 'FFF1', number: 1 })).rejects.toMatchObject({
      kind: 'internal',
      httpStatus: 502,
      message: 'HTTP 502: Nubefact respondió sin detalle del error.',
    });
    fake.failNext({ kind: 'status', status: 403 });
    await expect(provider.consult({ type: '01', series: 'FFF1', number: 1 })).rejects.toMatchObject({ kind: 'auth', httpStatus: 403 });
  });

  it('a timeout and a malformed answer leave the outcome uncertain', async () => {
    fake.failNext({ kind: 'timeout' });
    const timeout = await provider.emit(boleta()).catch((e: unknown) => e);
    expect(timeout).toMatchObject({ kind: 'timeout', httpStatus: null, uncertain: true });
    fake.failNext({ kind: 'malformed' });
    await expect(provider.emit(boleta())).rejects.toMatchObject({ kind: 'malformed', uncertain: true });
  });

  it('recovers code 23 on a retry after a lost answer by consulting: same document, no second number', async () => {
    fake.failNext({ kind: 'timeout', process: true });
    const doc = facturaWithDetraction(30);
    await expect(provider.emit(doc)).rejects.toMatchObject({ kind: 'timeout' });
    const retried = await provider.emit(doc);
    expect(retried.status).toBe('aceptado');
    expect(retried.hash).toBe(fake.documents.get('1-FFF1-30')!.hash);
    expect(fake.requests.map((r) => r.body?.operacion)).toEqual(['generar_comprobante', 'generar_comprobante', 'consultar_comprobante']);
    expect(fake.documents.size).toBe(1);
    noViolations();
  });

  it('never lets the token into an error, even when Nubefact echoes it', async () => {
    fake.failNext({ kind: 'error', codigo: 20, errors: `token ${fake.token} inválido` });
    const err = (await provider.emit(boleta()).catch((e: unknown) => e)) as BillingProviderError;
    expect(err.message).toBe('Nubefact rechazó el documento por un dato inválido (código 20): token *** inválido');
    expect(JSON.stringify(err.raw)).not.toContain(fake.token);
    const wrong = nubefactBillingProvider({ url: fake.url, token: 'not-the-token', timeoutMs: 400 });
    const auth = (await wrong.consult({ type: '01', series: 'FFF1', number: 1 }).catch((e: unknown) => e)) as BillingProviderError;
    expect(auth.kind).toBe('auth');
    expect(`${auth.message} ${JSON.stringify(auth.raw)}`).not.toContain('not-the-token');
  });

  it('3116: the fake refuses a 1004 factura without the eight trip fields; the error explains how to fix it', async () => {
    const doc = facturaWithDetraction();
    const err = (await provider.emit({ ...doc, detraction: { ...doc.detraction!, trip: null } }).catch((e: unknown) => e)) as BillingProviderError;
    expect(err).toMatchObject({ kind: 'rejected', providerCode: '20' });
    expect(last().violations).toEqual(
      expect.arrayContaining(['ubigeo_origen: 6 dígitos', 'ubigeo_destino: 6 dígitos', expect.stringMatching(/^val_ref_carga_util/)]),
    );
    expect(last().violations).toHaveLength(8);
    expect(err.message).toContain(`Cómo corregirlo: ${SUNAT_HINTS['3116']}`);
    expect(err.message).toContain(SUNAT_HINTS['3126']);
  });

  it("a SUNAT rejection in Nubefact's answer reads with the same explanation as the sandbox's", async () => {
    fake.failNext({
      kind: 'sunat-rejects',
      code: '3265',
      description: 'El monto total de las cuotas no coincide con el monto neto pendiente de pago',
    });
    const result = await provider.emit(facturaWithDetraction());
    expect(result).toMatchObject({ status: 'rechazado', sunatCode: '3265' });
    expect(result.sunatDescription).toBe(
      `El monto total de las cuotas no coincide con el monto neto pendiente de pago (SUNAT 3265). Cómo corregirlo: ${SUNAT_HINTS['3265']}`,
    );
    noViolations();
  });

  it('the fake itself refuses a request that breaks the contract', async () => {
    const res = await fetch(fake.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Token token="${fake.token}"` },
      body: JSON.stringify({ operacion: 'consultar_comprobante', tipo_de_comprobante: '1', serie: 'FFF1', numero: 1 }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ codigo: 20 });
    expect(last().violations).toEqual(['tipo_de_comprobante debe ser 1, 2 o 3 (número)']);
  });
});

describe('billing provider from config.ts', () => {
  const url = 'https://api.nubefact.com/api/v1/00000000-0000-0000-0000-000000000000';

  it('is Nubefact with NUBEFACT_URL and NUBEFACT_TOKEN, else the sandbox; the issuer comes from BILLING_ISSUER_*', () => {
    const nubefact = loadConfig({ NUBEFACT_URL: url, NUBEFACT_TOKEN: 'secreto', BILLING_ISSUER_RUC: '20100070970' });
    expect(nubefact.billing).toMatchObject({ provider: 'nubefact', issuer: { ruc: '20100070970' } });
    expect(createProviders(nubefact).billing.name).toBe('nubefact');
    expect(createProviders(loadConfig({})).billing.name).toBe('sandbox');
  });

  it('refuses to start with half a Nubefact configuration, saying what is missing', () => {
    expect(() => loadConfig({ NUBEFACT_URL: url })).toThrow('NUBEFACT_URL está definido pero falta NUBEFACT_TOKEN');
    expect(() => loadConfig({ NUBEFACT_TOKEN: 'secreto' })).toThrow('NUBEFACT_TOKEN está definido pero falta NUBEFACT_URL');
    expect(() => loadConfig({ NUBEFACT_URL: 'api.nubefact.com/x', NUBEFACT_TOKEN: 'secreto' })).toThrow(
      'NUBEFACT_URL debe empezar con http:// o https://',
    );
  });
});
