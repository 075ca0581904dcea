import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import forge from 'node-forge';
import { SignedXml } from 'xml-crypto';
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

/** Signs a UBL document in its ExtensionContent; returns the signed XML and the reference digest (the hash). */
export function signUbl(xml: string, key: SigningKey): { xml: string; hash: string } {
  const sig = new SignedXml({
    privateKey: key.privateKeyPem,
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
