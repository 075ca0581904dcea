import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { BILLING_MESSAGES, checkInvoice, limaDay, type InvoicePayloadInput } from '@tramo/domain';
import {
  DEMO_ISSUER,
  memorySandboxStore,
  sandboxBillingProvider,
  type BillingDocument,
  type BillingProvider,
} from '../src/providers/billing/index.ts';
import { DEMO_CERTIFICATE_FILE } from '../src/providers/billing/signature.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/*
 * Issue #32, row 8: a void is a document of its own. The sandbox builds and signs the comunicación
 * de baja (RA, VoidedDocuments) of a factura and the resumen diario (RC, SummaryDocuments, status 3)
 * of a boleta, each with SUNAT's kind of ticket; Debian's xmlsec1 verifies both signatures and
 * refuses a tampered one; the register keeps them and hands them out like any document's XML.
 */

const run = promisify(execFile);
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const SAC = 'urn:sunat:names:specification:ubl:peru:schema:xsd:SunatAggregateComponents-1';
const COMPANY = { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' };
const PERSON = { doc_type: 1, doc_number: '70606878', name: 'ROSA QUISPE MAMANI' };

const payload = (type: '01' | '03', serie: string, issueDate: string, customer: object): InvoicePayloadInput =>
  ({
    type,
    serie,
    issueDate,
    items: [{ description: 'Servicio de envío Lima - Arequipa', unit: 'ZZ', quantity: 1, unitValue: '100', igvType: '10' }],
    customer,
  }) as InvoicePayloadInput;

function numbered(p: InvoicePayloadInput, number: number): BillingDocument {
  const check = checkInvoice(p, { today: p.issueDate as string });
  if (!check.ok) throw new Error(check.problems.join(' / '));
  return { ...check.draft, number, issueTime: '10:42:05' };
}

function parse(xml: string): Document {
  return new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
}
const texts = (doc: Document, ns: string, name: string) => Array.from(doc.getElementsByTagNameNS(ns, name)).map((n) => n.textContent);

/** xmlsec1 verifies `xml` with the sandbox's certificate: true when the signature holds. */
async function xmlsecVerifies(dir: string, xml: string): Promise<boolean> {
  const file = path.join(dir, `signed-${Math.random().toString(36).slice(2)}.xml`);
  await writeFile(file, xml);
  try {
    await run('xmlsec1', ['--verify', '--pubkey-cert-pem', path.join(dir, 'cert.pem'), file]);
    return true;
  } catch {
    return false;
  }
}

describe('RA and RC as signed documents (sandbox provider)', () => {
  let dir: string;
  let provider: BillingProvider;
  const now = new Date('2026-05-15T15:42:05Z');

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tramo-voids-'));
    provider = sandboxBillingProvider({
      issuer: DEMO_ISSUER,
      store: memorySandboxStore(),
      certificateDir: dir,
      clock: () => now,
      boletaDelayMs: 60_000,
      voidDelayMs: 0,
    });
    // The certificate alone (the key file holds the private key too), as xmlsec1 takes it.
    const pem = await readFile(path.join(dir, DEMO_CERTIFICATE_FILE), 'utf8').catch(() => null);
    if (pem === null) await provider.emit(numbered(payload('01', 'FFF9', '2026-05-15', COMPANY), 1));
    const all = await readFile(path.join(dir, DEMO_CERTIFICATE_FILE), 'utf8');
    await writeFile(path.join(dir, 'cert.pem'), /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(all)![0]);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('voids a factura by a signed comunicación de baja (RA) that xmlsec1 verifies, and a tampered one fails', async () => {
    await provider.emit(numbered(payload('01', 'FFF1', '2026-05-14', COMPANY), 12));
    const result = await provider.void({ type: '01', series: 'FFF1', number: 12 }, 'ERROR DEL SISTEMA');
    const ra = result.summary!;
    expect(ra.kind).toBe('RA');
    expect(ra.id).toBe('RA-20260515-1');
    // SUNAT's ticket: digits of its own, not the document's number.
    expect(result.ticket).toMatch(/^\d{15}$/);
    expect(ra.ticket).toBe(result.ticket);
    const doc = parse(ra.xml);
    expect(doc.documentElement.localName).toBe('VoidedDocuments');
    expect(doc.documentElement.namespaceURI).toBe('urn:sunat:names:specification:ubl:peru:schema:xsd:VoidedDocuments-1');
    expect(texts(doc, CBC, 'UBLVersionID')).toEqual(['2.0']);
    expect(texts(doc, CBC, 'CustomizationID')).toEqual(['1.0']);
    expect(texts(doc, CBC, 'ReferenceDate')).toEqual(['2026-05-14']);
    expect(texts(doc, CBC, 'IssueDate')).toEqual(['2026-05-15']);
    expect(texts(doc, CBC, 'CustomerAssignedAccountID')).toEqual([DEMO_ISSUER.ruc]);
    expect(texts(doc, CBC, 'DocumentTypeCode')).toEqual(['01']);
    expect(texts(doc, SAC, 'DocumentSerialID')).toEqual(['FFF1']);
    expect(texts(doc, SAC, 'DocumentNumberID')).toEqual(['12']);
    expect(texts(doc, SAC, 'VoidReasonDescription')).toEqual(['ERROR DEL SISTEMA']);

    expect(await xmlsecVerifies(dir, ra.xml)).toBe(true);
    expect(await xmlsecVerifies(dir, ra.xml.replace('<sac:DocumentNumberID>12<', '<sac:DocumentNumberID>13<'))).toBe(false);

    // The next void of the day takes the next correlative; asking again answers the same RA.
    await provider.emit(numbered(payload('01', 'FFF1', '2026-05-15', COMPANY), 13));
    expect((await provider.void({ type: '01', series: 'FFF1', number: 13 }, 'DUPLICADO')).summary!.id).toBe('RA-20260515-2');
    expect((await provider.voidStatus({ type: '01', series: 'FFF1', number: 12 })).summary!.id).toBe('RA-20260515-1');
  });

  it('voids a boleta in a signed resumen diario (RC) with status 3 that xmlsec1 verifies, and a tampered one fails', async () => {
    await provider.emit(numbered(payload('03', 'BBB1', '2026-05-15', PERSON), 4));
    const result = await provider.void({ type: '03', series: 'BBB1', number: 4 }, 'ERROR DEL SISTEMA');
    const rc = result.summary!;
    expect(rc).toMatchObject({ kind: 'RC', id: 'RC-20260515-1' });
    expect(result.ticket).toMatch(/^\d{15}$/);
    const doc = parse(rc.xml);
    expect(doc.documentElement.localName).toBe('SummaryDocuments');
    expect(texts(doc, CBC, 'CustomizationID')).toEqual(['1.1']);
    expect(texts(doc, CBC, 'ReferenceDate')).toEqual(['2026-05-15']);
    expect(texts(doc, CBC, 'ConditionCode')).toEqual(['3']);
    expect(texts(doc, CBC, 'DocumentTypeCode')).toEqual(['03']);
    expect(texts(doc, CBC, 'ID')).toContain('BBB1-4');
    expect(texts(doc, SAC, 'TotalAmount')).toEqual(['118.00']);
    expect(texts(doc, CBC, 'PaidAmount')).toEqual(['100.00']);
    expect(texts(doc, CBC, 'TaxAmount')).toEqual(['18.00', '18.00']);
    expect(texts(doc, CBC, 'CustomerAssignedAccountID')).toEqual([DEMO_ISSUER.ruc, '70606878']);

    expect(await xmlsecVerifies(dir, rc.xml)).toBe(true);
    expect(await xmlsecVerifies(dir, rc.xml.replace('<cbc:ConditionCode>3<', '<cbc:ConditionCode>1<'))).toBe(false);
  });
});

describe.each(engines)('the register keeps and hands out the void documents (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;
  const today = limaDay(new Date());

  beforeAll(async () => {
    billing = await sandboxBilling('void-summaries');
    t = await startTestApp(engine, { providers: { billing: billing.provider } });
    billing.followClock(t.clock.now);
    admin = await t.login('ADMIN');
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  async function issueAndVoid(type: '01' | '03', serie: string, customer: object) {
    const issued = await t.call('POST', '/api/billing/create-emit', { token: admin, body: payload(type, serie, today, customer) });
    expect(issued.statusCode).toBe(201);
    const id = issued.json().id as number;
    const voided = await t.call('POST', '/api/billing/void', { token: admin, body: { id, motivo: 'ERROR DEL SISTEMA' } });
    expect(voided.statusCode).toBe(200);
    return id;
  }

  it('a voided factura has its RA and a voided boleta its RC, downloadable under SUNAT’s file name', async () => {
    const day = today.replaceAll('-', '');
    for (const [type, serie, customer, kind] of [
      ['01', 'FFF1', COMPANY, 'RA'],
      ['03', 'BBB1', PERSON, 'RC'],
    ] as const) {
      const id = await issueAndVoid(type, serie, customer);
      const detail = (await t.call('GET', `/api/billing/lookup/${id}`, { token: admin })).json();
      expect(detail.voidSummary).toMatchObject({ kind, id: `${kind}-${day}-1` });
      expect(detail.voidSummary.ticket).toMatch(/^\d{15}$/);
      const file = await t.call('GET', `/api/billing/documents/${id}/void-xml`, { token: admin });
      expect(file.statusCode).toBe(200);
      expect(file.headers.get('content-type')).toContain('application/xml');
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${DEMO_ISSUER.ruc}-${kind}-${day}-1.xml"`);
      expect(file.body).toContain(kind === 'RA' ? '<VoidedDocuments' : '<SummaryDocuments');
      expect(file.body).toContain('<ds:SignatureValue>');
    }
  });

  it('a document never voided has no void XML: 404 in Spanish', async () => {
    const issued = await t.call('POST', '/api/billing/create-emit', { token: admin, body: payload('01', 'FFF1', today, COMPANY) });
    const res = await t.call('GET', `/api/billing/documents/${issued.json().id}/void-xml`, { token: admin });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(BILLING_MESSAGES.voidXmlMissing);
    expect((await t.call('GET', `/api/billing/lookup/${issued.json().id}`, { token: admin })).json().voidSummary).toBeNull();
  });
});
