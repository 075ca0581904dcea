import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import forge from 'node-forge';
import { SignedXml } from 'xml-crypto';
import { canonicalize } from './c14n.ts';
import { SIGNATURE_ID } from './ubl.ts';

/*
 * XML-DSig as SUNAT wants it: an enveloped signature of the whole document (Reference URI=""),
 * exclusive canonicalisation, RSA-SHA256 with SHA-256 digests, the X.509 certificate in KeyInfo,
 * placed inside ext:UBLExtensions/ext:UBLExtension/ext:ExtensionContent. The reference's digest is
 * the document's hash (valor resumen) printed on the comprobante and in its QR.
 */

export interface SigningKey {
  privateKeyPem: string;
  certificatePem: string;
}

const ALGORITHMS = {
  c14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  enveloped: 'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
} as const;
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

/** The sandbox's certificate file in the directory the caller chose (the data dir in the app). */
export const DEMO_CERTIFICATE_FILE = 'billing-sandbox-signing.pem';

function createDemoKey(): SigningKey {
  // Node generates the RSA key (fast, native); forge only writes the self-signed certificate.
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const key = forge.pki.privateKeyFromPem(privateKey);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // A positive serial: the first byte's high bit clear.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  const now = new Date();
  cert.validity.notBefore = new Date(now.getTime() - 24 * 3600 * 1000);
  cert.validity.notAfter = new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000);
  const subject = [
    { name: 'commonName', value: 'TRAMO DEMO' },
    { name: 'organizationName', value: 'TRAMO DEMO' },
    { name: 'countryName', value: 'PE' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return { privateKeyPem: privateKey, certificatePem: forge.pki.certificateToPem(cert) };
}

function parseKeyFile(text: string): SigningKey | null {
  const privateKeyPem = /-----BEGIN RSA PRIVATE KEY-----[\s\S]+?-----END RSA PRIVATE KEY-----\n?/.exec(text)?.[0];
  const certificatePem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(text)?.[0];
  return privateKeyPem && certificatePem ? { privateKeyPem, certificatePem } : null;
}

/**
 * The sandbox's self-signed 'TRAMO DEMO' key and certificate, created at first use and kept in
 * `dir`. Key and certificate live in one file written by an atomic rename, so a reader never sees
 * a key without its certificate even if two processes start at once.
 */
export async function demoSigningKey(dir: string): Promise<SigningKey> {
  const file = path.join(dir, DEMO_CERTIFICATE_FILE);
  const existing = await readFile(file, 'utf8').then(parseKeyFile, (err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (existing) return existing;
  const created = createDemoKey();
  await mkdir(dir, { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, created.privateKeyPem + created.certificatePem, { mode: 0o600 });
  await rename(temp, file);
  return created;
}

/** A signing key as the signer uses it: the private key parsed, the certificate as KeyInfo carries it. */
interface ParsedKey {
  privateKey: KeyObject;
  /** The certificate's DER in base64 on one line (the PEM's body). */
  certificateBase64: string;
}

/**
 * Keys parsed once per key and certificate content, not once per document: parsing the PEM was a
 * good part of a receipt's signing (issue 37). Keyed by content, so a company that installs another
 * certificate gets it parsed on its first document; the few last ones are kept, older ones dropped.
 */
const parsedKeys = new Map<string, ParsedKey>();
const PARSED_KEYS_KEPT = 4;

function parsedKey(key: SigningKey): ParsedKey {
  const id = key.privateKeyPem + key.certificatePem;
  let parsed = parsedKeys.get(id);
  if (!parsed) {
    const body = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(key.certificatePem)?.[1];
    if (!body) throw new Error('the signing certificate is not a PEM certificate');
    parsed = { privateKey: createPrivateKey(key.privateKeyPem), certificateBase64: body.replace(/\s+/g, '') };
    if (parsedKeys.size >= PARSED_KEYS_KEPT) parsedKeys.delete(parsedKeys.keys().next().value!);
    parsedKeys.set(id, parsed);
  }
  return parsed;
}

/** The empty ExtensionContent the builders leave for the signature (the first one, as xml-crypto's location picks). */
const EXTENSION_CONTENT = /<((?:[A-Za-z_][\w.-]*:)?ExtensionContent)(\s[^>]*)?(?:\/>|>(<\/\1>)?)/;

/** SignedInfo as the signature carries it and, with `canonical`, in its exc-c14n form (what is signed). */
function signedInfo(digest: string, canonical: boolean): string {
  const empty = (name: string, algorithm: string) =>
    canonical ? `<ds:${name} Algorithm="${algorithm}"></ds:${name}>` : `<ds:${name} Algorithm="${algorithm}"/>`;
  return (
    `<ds:SignedInfo${canonical ? ` xmlns:ds="${DSIG_NS}"` : ''}>` +
    empty('CanonicalizationMethod', ALGORITHMS.c14n) +
    empty('SignatureMethod', ALGORITHMS.rsaSha256) +
    `<ds:Reference URI=""><ds:Transforms>${empty('Transform', ALGORITHMS.enveloped)}${empty('Transform', ALGORITHMS.c14n)}</ds:Transforms>` +
    `${empty('DigestMethod', ALGORITHMS.sha256)}<ds:DigestValue>${digest}</ds:DigestValue></ds:Reference></ds:SignedInfo>`
  );
}

/**
 * Signs a UBL document in its ExtensionContent; returns the signed XML and the reference digest (the
 * hash). The document is canonicalised from its text (c14n.ts) and the signature written as
 * xml-crypto writes it, byte for byte (the tests compare both); a document the text path does not
 * take (not of xml.ts's shape, or no empty ExtensionContent) is signed through xml-crypto's DOM.
 */
export function signUbl(xml: string, key: SigningKey): { xml: string; hash: string } {
  const slot = EXTENSION_CONTENT.exec(xml);
  const selfClosed = slot !== null && slot[0].endsWith('/>');
  const canonical = slot && (selfClosed || slot[3] !== undefined) ? canonicalize(xml) : null;
  if (!slot || canonical === null) return signUblWithDom(xml, key);
  const { privateKey, certificateBase64 } = parsedKey(key);
  const hash = createHash('sha256').update(canonical).digest('base64');
  const value = sign('sha256', Buffer.from(signedInfo(hash, true)), privateKey).toString('base64');
  const signature =
    `<ds:Signature Id="${SIGNATURE_ID}" xmlns:ds="${DSIG_NS}">${signedInfo(hash, false)}<ds:SignatureValue>${value}</ds:SignatureValue>` +
    `<ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></ds:Signature>`;
  const open = selfClosed ? slot[0].slice(0, -2) + '>' : slot[0].slice(0, slot[0].length - slot[3]!.length);
  const at = slot.index;
  return { xml: `${xml.slice(0, at)}${open}${signature}</${slot[1]}>${xml.slice(at + slot[0].length)}`, hash };
}

/** The DOM path (xml-crypto): any well-formed document, at the cost of parsing it and walking it by xpath. */
export function signUblWithDom(xml: string, key: SigningKey): { xml: string; hash: string } {
  const sig = new SignedXml({
    privateKey: parsedKey(key).privateKey,
    publicCert: key.certificatePem,
    canonicalizationAlgorithm: ALGORITHMS.c14n,
    signatureAlgorithm: ALGORITHMS.rsaSha256,
  });
  sig.addReference({
    xpath: '/*',
    uri: '',
    isEmptyUri: true,
    transforms: [ALGORITHMS.enveloped, ALGORITHMS.c14n],
    digestAlgorithm: ALGORITHMS.sha256,
  });
  sig.computeSignature(xml, {
    prefix: 'ds',
    attrs: { Id: SIGNATURE_ID },
    location: { reference: "//*[local-name(.)='ExtensionContent']", action: 'append' },
    existingPrefixes: { ds: 'http://www.w3.org/2000/09/xmldsig#' },
  });
  const hash = /<ds:DigestValue>([^<]+)<\/ds:DigestValue>/.exec(sig.getSignatureXml())?.[1];
  if (!hash) throw new Error('the signature has no digest');
  return { xml: sig.getSignedXml(), hash };
}
