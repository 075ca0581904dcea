import { centsToString, type SunatDocumentType } from '@tramo/domain';
import type { BillingIssuer } from './types.ts';
import { signatureReference, ublId } from './ubl.ts';
import { leaf, node } from './xml.ts';

/*
 * The void documents SUNAT receives as UBL 2.0 (Greenter's voided.xml.twig and summary.xml.twig):
 * the comunicación de baja (RA, VoidedDocuments) for facturas and their notes, and the resumen
 * diario (RC, SummaryDocuments) that reports a boleta or one of its notes with status 3 (anulado).
 * Their id is `RA-YYYYMMDD-n` / `RC-YYYYMMDD-n`: the day they are generated and a correlative of
 * that day, never the voided document's number. ReferenceDate is the voided documents' issue date.
 * The empty ext:ExtensionContent is where signature.ts puts the XML-DSig signature, as for invoices.
 */

const NS = {
  VoidedDocuments: 'urn:sunat:names:specification:ubl:peru:schema:xsd:VoidedDocuments-1',
  SummaryDocuments: 'urn:sunat:names:specification:ubl:peru:schema:xsd:SummaryDocuments-1',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  sac: 'urn:sunat:names:specification:ubl:peru:schema:xsd:SunatAggregateComponents-1',
} as const;

export type VoidSummaryKind = 'RA' | 'RC';

/** `RA-20261126-3`: the summary's kind, the Lima day it is generated (YYYY-MM-DD) and that day's correlative. */
export const voidSummaryId = (kind: VoidSummaryKind, day: string, correlative: number) => `${kind}-${day.replaceAll('-', '')}-${correlative}`;

export interface VoidedLine {
  type: SunatDocumentType;
  series: string;
  number: number;
  /** Motivo de baja (SUNAT allows 100 characters). */
  reason: string;
}

/** What a resumen diario line says of a boleta (or a note of one): its customer and amounts, in céntimos. */
export interface SummaryLine {
  type: SunatDocumentType;
  series: string;
  number: number;
  customerDocType: string;
  customerDocNumber: string;
  gravadaCents: number;
  exoneradaCents: number;
  inafectaCents: number;
  igvCents: number;
  totalCents: number;
  /** The boleta a credit note modifies. */
  modified: { type: string; series: string; number: number } | null;
  /** Catalogue 19: 1 adicionar, 2 modificar, 3 anulado. */
  status: '1' | '2' | '3';
}

interface SummaryHeader {
  id: string;
  /** The issue date of the documents it reports (YYYY-MM-DD). */
  referenceDate: string;
  /** The day it is generated (YYYY-MM-DD). */
  issueDate: string;
}

function supplier(issuer: BillingIssuer): string {
  return node('cac:AccountingSupplierParty', [
    leaf('cbc:CustomerAssignedAccountID', issuer.ruc),
    leaf('cbc:AdditionalAccountID', '6'),
    node('cac:Party', [node('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', issuer.name)])]),
  ]);
}

function envelope(
  root: 'VoidedDocuments' | 'SummaryDocuments',
  customization: string,
  header: SummaryHeader,
  issuer: BillingIssuer,
  lines: string[],
) {
  const body = [
    node('ext:UBLExtensions', [node('ext:UBLExtension', [node('ext:ExtensionContent', [])])]),
    leaf('cbc:UBLVersionID', '2.0'),
    leaf('cbc:CustomizationID', customization),
    leaf('cbc:ID', header.id),
    leaf('cbc:ReferenceDate', header.referenceDate),
    leaf('cbc:IssueDate', header.issueDate),
    signatureReference(issuer),
    supplier(issuer),
    ...lines,
  ];
  const xml = node(root, body, {
    xmlns: NS[root],
    'xmlns:cac': NS.cac,
    'xmlns:cbc': NS.cbc,
    'xmlns:ds': NS.ds,
    'xmlns:ext': NS.ext,
    'xmlns:sac': NS.sac,
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
}

/** The unsigned comunicación de baja (RA) of facturas and their notes. */
export function buildVoidedDocuments(header: SummaryHeader, lines: VoidedLine[], issuer: BillingIssuer): string {
  return envelope(
    'VoidedDocuments',
    '1.0',
    header,
    issuer,
    lines.map((l, i) =>
      node('sac:VoidedDocumentsLine', [
        leaf('cbc:LineID', String(i + 1)),
        leaf('cbc:DocumentTypeCode', l.type),
        leaf('sac:DocumentSerialID', l.series),
        leaf('sac:DocumentNumberID', String(l.number)),
        leaf('sac:VoidReasonDescription', l.reason.slice(0, 100)),
      ]),
    ),
  );
}

/** The unsigned resumen diario (RC) of boletas and their notes, each with its status (3: anulado). */
export function buildSummaryDocuments(header: SummaryHeader, lines: SummaryLine[], issuer: BillingIssuer): string {
  const PEN = { currencyID: 'PEN' };
  const amount = (name: string, cents: number) => leaf(name, centsToString(cents), PEN);
  const payment = (cents: number, instruction: string) =>
    node('sac:BillingPayment', [amount('cbc:PaidAmount', cents), leaf('cbc:InstructionID', instruction)]);
  return envelope(
    'SummaryDocuments',
    '1.1',
    header,
    issuer,
    lines.map((l, i) =>
      node('sac:SummaryDocumentsLine', [
        leaf('cbc:LineID', String(i + 1)),
        leaf('cbc:DocumentTypeCode', l.type),
        leaf('cbc:ID', ublId(l.series, l.number)),
        node('cac:AccountingCustomerParty', [
          leaf('cbc:CustomerAssignedAccountID', l.customerDocNumber),
          leaf('cbc:AdditionalAccountID', l.customerDocType),
        ]),
        l.modified &&
          node('cac:BillingReference', [
            node('cac:InvoiceDocumentReference', [
              leaf('cbc:ID', ublId(l.modified.series, l.modified.number)),
              leaf('cbc:DocumentTypeCode', l.modified.type),
            ]),
          ]),
        node('cac:Status', [leaf('cbc:ConditionCode', l.status)]),
        amount('sac:TotalAmount', l.totalCents),
        payment(l.gravadaCents, '01'),
        l.exoneradaCents > 0 && payment(l.exoneradaCents, '02'),
        l.inafectaCents > 0 && payment(l.inafectaCents, '03'),
        node('cac:TaxTotal', [
          amount('cbc:TaxAmount', l.igvCents),
          node('cac:TaxSubtotal', [
            amount('cbc:TaxAmount', l.igvCents),
            node('cac:TaxCategory', [node('cac:TaxScheme', [leaf('cbc:ID', '1000'), leaf('cbc:Name', 'IGV'), leaf('cbc:TaxTypeCode', 'VAT')])]),
          ]),
        ]),
      ]),
    ),
  );
}
