import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMParser } from '@xmldom/xmldom';
import { ExclusiveCanonicalization, SignedXml } from 'xml-crypto';
import { checkInvoice, type InvoicePayloadInput } from '@tramo/domain';
import { DEMO_ISSUER, type BillingDocument } from '../src/providers/billing/index.ts';
import { canonicalize } from '../src/providers/billing/c14n.ts';
import { demoSigningKey, signUbl, signUblWithDom, type SigningKey } from '../src/providers/billing/signature.ts';
import { buildSummaryDocuments, buildVoidedDocuments } from '../src/providers/billing/summary-ubl.ts';
import { buildUbl } from '../src/providers/billing/ubl.ts';
import { validateUbl } from './support/ubl-xsd.ts';

/*
 * Issue 37: documents are signed from their text (c14n.ts) instead of through a DOM. The signature
 * is deterministic (RSA PKCS#1 v1.5), so the text path must write exactly what xml-crypto writes for
 * every document the builders make; xml-crypto and Debian's xmlsec1 verify it, the schema still
 * validates, and what the text path does not take falls back to the DOM.
 */

const run = promisify(execFile);
const TODAY = '2026-05-15';

function numbered(payload: InvoicePayloadInput, number: number): BillingDocument {
  const check = checkInvoice(payload, { today: TODAY });
  if (!check.ok) throw new Error(check.problems.join(' / '));
  return { ...check.draft, number, issueTime: '10:42:05' };
}

const item = (description: string, unitValue: string, extra: Record<string, unknown> = {}) => ({
  description,
  unit: 'ZZ',
  quantity: 1,
  unitValue,
  igvType: '10',
  ...extra,
});
// What a counter types: quotes, ampersands, angle brackets, accents, an apostrophe.
const awkward = 'Envío "urgente" de Ñuñoa & Cía. <frágil> a l\'Oréal > 2 kg';
const factura = numbered(
  {
    type: '01',
    serie: 'FFF1',
    issueDate: TODAY,
    items: [item(awkward, '254.24', { code: 'TMT-0001' }), item('Embalaje', '5.50', { quantity: 3, unit: 'NIU' })],
    customer: { doc_type: 6, doc_number: '20100070970', name: 'Supermercados "Peruanos" & Asociados S.A.', address: 'Av. Morro Solar 1086 <Lima>' },
  } as InvoicePayloadInput,
  12,
);
const boleta = numbered(
  {
    type: '03',
    serie: 'BBB1',
    issueDate: TODAY,
    items: [item('Servicio de envío TMT-000123', '31.37')],
    customer: { doc_type: 1, doc_number: '70606878', name: "ROSA O'HIGGINS MAMANI" },
  } as InvoicePayloadInput,
  4,
);
const note = numbered(
  {
    type: '07',
    serie: 'FFF1',
    issueDate: TODAY,
    items: [item('Devolución parcial', '100')],
    customer: { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' },
    extras: {
      documento_que_se_modifica_tipo: '01',
      documento_que_se_modifica_serie: 'FFF1',
      documento_que_se_modifica_numero: 12,
      tipo_de_nota_de_credito: '01',
    },
  } as InvoicePayloadInput,
  1,
);
const header = { id: 'RA-20260515-1', referenceDate: TODAY, issueDate: TODAY };
const documents: [string, string][] = [
  ['factura', buildUbl(factura, DEMO_ISSUER)],
  ['boleta', buildUbl(boleta, DEMO_ISSUER)],
  ['nota de crédito', buildUbl(note, DEMO_ISSUER)],
  [
    'comunicación de baja (RA)',
    buildVoidedDocuments(header, [{ type: '01', series: 'FFF1', number: 12, reason: 'Error en el "RUC" & <monto>' }], DEMO_ISSUER),
  ],
  [
    'resumen diario (RC)',
    buildSummaryDocuments(
      { ...header, id: 'RC-20260515-1' },
      [
        {
          type: '03',
          series: 'BBB1',
          number: 4,
          status: '3',
          customerDocType: '1',
          customerDocNumber: '70606878',
          modified: null,
          totalCents: 3702,
          gravadaCents: 3137,
          exoneradaCents: 0,
          inafectaCents: 0,
          igvCents: 565,
        },
      ],
      DEMO_ISSUER,
    ),
  ],
];

const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
/** xml-crypto's exc-c14n of the document element, as the DOM path computes it. */
const domCanonical = (xml: string) => new ExclusiveCanonicalization().process(parse(xml).documentElement as unknown as Element, {}) as string;

function xmlCryptoVerifies(xml: string): boolean {
  const signature = parse(xml).getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0]!;
  const sig = new SignedXml({ getCertFromKeyInfo: SignedXml.getCertFromKeyInfo });
  sig.loadSignature(signature as unknown as Node);
  return sig.checkSignature(xml);
}

describe('signing from the text (c14n.ts)', () => {
  let dir: string;
  let key: SigningKey;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'tramo-sign-'));
    key = await demoSigningKey(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(documents)('signs the %s exactly as xml-crypto does, and xml-crypto verifies it', (_, xml) => {
    expect(canonicalize(xml)).toBe(domCanonical(xml));
    const fast = signUbl(xml, key);
    expect(fast).toEqual(signUblWithDom(xml, key));
    expect(xmlCryptoVerifies(fast.xml)).toBe(true);
    expect(validateUbl(fast.xml)).toMatchObject({ valid: true, errors: [] });
  });

  it('is refused by xml-crypto once the document is altered', () => {
    const { xml } = signUbl(documents[0]![1], key);
    expect(xmlCryptoVerifies(xml.replace('254.24', '254.25'))).toBe(false);
  });

  it('xmlsec1 verifies the signed factura with the certificate, and refuses it tampered', async () => {
    const { xml } = signUbl(documents[0]![1], key);
    await writeFile(path.join(dir, 'cert.pem'), key.certificatePem);
    const verifies = async (text: string) => {
      const file = path.join(dir, `signed-${Math.random().toString(36).slice(2)}.xml`);
      await writeFile(file, text);
      return run('xmlsec1', ['--verify', '--pubkey-cert-pem', path.join(dir, 'cert.pem'), file]).then(
        () => true,
        () => false,
      );
    };
    expect(await verifies(xml)).toBe(true);
    expect(await verifies(xml.replace('Supermercados', 'Hipermercados'))).toBe(false);
  });

  it('canonicalises namespaces, attribute order, empty elements and references as exc-c14n does', () => {
    const cases = [
      // Prefixes rendered where first used, again on siblings, never for an unused one; attributes sorted, namespaced ones last.
      `<?xml version="1.0"?>\n<r xmlns="urn:d" xmlns:a="urn:a" xmlns:b="urn:b" xmlns:unused="urn:u"><a:x z="1" b:y="2" a="3"/><a:x><b:y>t</b:y><a:z/></a:x></r>\n`,
      // A prefix redeclared below with another URI; the default namespace undone with xmlns="".
      `<a:r xmlns:a="urn:a" xmlns="urn:d"><a:s xmlns:a="urn:a2"><t xmlns=""><u/></t><a:v/></a:s></a:r>`,
      // References and characters c14n writes its own way.
      `<r k="a&#9;b &#10;c &gt; &apos;d&apos; &quot;e&quot;">x &#13; &#x41; &quot;y&quot; &apos;z&apos; &gt; &lt; &amp;</r>`,
      `<r>\r\nline\rnext</r>`,
    ];
    for (const xml of cases) expect(canonicalize(xml), xml).toBe(domCanonical(xml));
  });

  it('leaves to the DOM what it does not read: a comment, CDATA, a non-empty ExtensionContent', () => {
    const base = documents[1]![1];
    expect(canonicalize(base.replace('<cbc:UBLVersionID>', '<!-- x --><cbc:UBLVersionID>'))).toBeNull();
    expect(canonicalize(base.replace('>2.1<', '><![CDATA[2.1]]><'))).toBeNull();
    expect(canonicalize('<r><s></r>')).toBeNull();
    for (const xml of [
      base.replace('<cbc:UBLVersionID>', '<!-- x --><cbc:UBLVersionID>'),
      base.replace('<ext:ExtensionContent></ext:ExtensionContent>', '<ext:ExtensionContent><x xmlns="urn:x"/></ext:ExtensionContent>'),
    ]) {
      const signed = signUbl(xml, key);
      expect(signed).toEqual(signUblWithDom(xml, key));
      expect(xmlCryptoVerifies(signed.xml)).toBe(true);
    }
  });

  it('takes a new certificate at once: the key is cached by its content, not for good', () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const xml = documents[1]![1];
    const first = signUbl(xml, key);
    const other = signUbl(xml, { ...key, privateKeyPem: privateKey });
    // Same digest, another key: another signature value.
    expect(other.hash).toBe(first.hash);
    const value = (x: string) => /<ds:SignatureValue>([^<]+)/.exec(x)![1];
    expect(value(other.xml)).not.toBe(value(first.xml));
    expect(signUbl(xml, key)).toEqual(first);
  });
});
