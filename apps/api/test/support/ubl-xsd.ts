/**
 * Validates a signed UBL document against the official schema of its kind, with libxml2's `xmllint`
 * (Debian's libxml2-utils, installed by .ci/run): the schemas are the OASIS UBL 2.1 set for
 * Invoice/CreditNote/DebitNote/DespatchAdvice and the UBL 2.0 + SUNAT set for the RA, RC, retención
 * and percepción (test/fixtures/ubl-xsd). The root element's namespace picks the schema.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const XSD_DIR = path.join(import.meta.dirname, '..', 'fixtures', 'ubl-xsd');

const SCHEMAS: Record<string, string> = {
  'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2': '2.1/maindoc/UBL-Invoice-2.1.xsd',
  'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2': '2.1/maindoc/UBL-CreditNote-2.1.xsd',
  'urn:oasis:names:specification:ubl:schema:xsd:DebitNote-2': '2.1/maindoc/UBL-DebitNote-2.1.xsd',
  'urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2': '2.1/maindoc/UBL-DespatchAdvice-2.1.xsd',
  'urn:sunat:names:specification:ubl:peru:schema:xsd:VoidedDocuments-1': '2.0/maindoc/UBL-VoidedDocuments-2.0.xsd',
  'urn:sunat:names:specification:ubl:peru:schema:xsd:SummaryDocuments-1': '2.0/maindoc/UBL-SummaryDocuments-2.0.xsd',
  'urn:sunat:names:specification:ubl:peru:schema:xsd:Retention-1': '2.0/maindoc/UBL-Retention-2.0.xsd',
  'urn:sunat:names:specification:ubl:peru:schema:xsd:Perception-1': '2.0/maindoc/UBL-Perception-2.0.xsd',
};

export interface XsdResult {
  valid: boolean;
  /** The schema file used, relative to test/fixtures/ubl-xsd. */
  schema: string;
  /** xmllint's messages, one per problem (empty when valid). */
  errors: string[];
}

/** The namespace of the document element: the first start tag that is not the XML declaration. */
function rootNamespace(xml: string): string {
  const root = /<(?!\?|!)([\w.-]+:)?[\w.-]+\b[^>]*>/.exec(xml);
  if (!root) throw new Error('No document element in the XML');
  const prefix = root[1] ? root[1].slice(0, -1) : '';
  const attr = prefix ? `xmlns:${prefix}` : 'xmlns';
  const ns = new RegExp(`\\s${attr}="([^"]+)"`).exec(root[0]);
  if (!ns) throw new Error(`The document element declares no ${attr}`);
  return ns[1]!;
}

export function validateUbl(xml: string): XsdResult {
  const ns = rootNamespace(xml);
  const schema = SCHEMAS[ns];
  if (!schema) throw new Error(`No UBL schema for namespace ${ns}`);
  const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', path.join(XSD_DIR, schema), '-'], {
    input: xml,
    encoding: 'utf8',
  });
  if (run.error) throw new Error(`xmllint could not run (apt-get install libxml2-utils): ${run.error.message}`);
  const errors = run.stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/ validates$/.test(line));
  return { valid: run.status === 0, schema, errors };
}
