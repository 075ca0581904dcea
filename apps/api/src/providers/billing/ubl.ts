import {
  amountInWords,
  centsToString,
  CREDIT_NOTE_REASON_LABELS,
  divRoundHalfUp,
  GUIDE_REFERENCE_DOCUMENT_TYPE,
  IGV_PERCENT,
  type IgvType,
  type FreightTrip,
  type InvoiceLine,
} from '@tramo/domain';
import type { BillingDocument, BillingIssuer } from './types.ts';
import { leaf, node } from './xml.ts';

/*
 * UBL 2.1 as SUNAT receives it (Invoice for 01/03, CreditNote for 07), following the shape of
 * Greenter's templates: customization 2.0, operation type in InvoiceTypeCode@listID, FormaPago
 * payment terms, detracción means and terms, one TaxSubtotal per IGV treatment and a TaxTotal per
 * line. The empty ext:ExtensionContent is where signature.ts puts the XML-DSig signature.
 */

const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
} as const;

/** The id the cac:Signature block points at and the ds:Signature carries. */
export const SIGNATURE_ID = 'SignatureTramo';

const PEN = { currencyID: 'PEN' };
const amount = (name: string, cents: number) => leaf(name, centsToString(cents), PEN);

/** Catalogue 05 tax scheme of each IGV treatment. */
const TAX_SCHEME: Record<IgvType, { id: string; name: string; code: string }> = {
  '10': { id: '1000', name: 'IGV', code: 'VAT' },
  '20': { id: '9997', name: 'EXO', code: 'VAT' },
  '30': { id: '9998', name: 'INA', code: 'FRE' },
};

const taxScheme = (type: IgvType) => {
  const s = TAX_SCHEME[type];
  return node('cac:TaxScheme', [leaf('cbc:ID', s.id), leaf('cbc:Name', s.name), leaf('cbc:TaxTypeCode', s.code)]);
};

/** `F001-123`: SUNAT's document id (the number unpadded). */
export const ublId = (series: string, number: number) => `${series}-${number}`;

function supplier(issuer: BillingIssuer): string {
  return node('cac:AccountingSupplierParty', [
    node('cac:Party', [
      node('cac:PartyIdentification', [leaf('cbc:ID', issuer.ruc, { schemeID: '6' })]),
      issuer.tradeName && node('cac:PartyName', [leaf('cbc:Name', issuer.tradeName)]),
      node('cac:PartyLegalEntity', [
        leaf('cbc:RegistrationName', issuer.name),
        node('cac:RegistrationAddress', [
          leaf('cbc:ID', issuer.ubigeo),
          leaf('cbc:AddressTypeCode', issuer.establishmentCode),
          leaf('cbc:CityName', issuer.province),
          leaf('cbc:CountrySubentity', issuer.department),
          leaf('cbc:District', issuer.district),
          node('cac:AddressLine', [leaf('cbc:Line', issuer.address)]),
          node('cac:Country', [leaf('cbc:IdentificationCode', 'PE')]),
        ]),
      ]),
    ]),
  ]);
}

function customer(doc: BillingDocument): string {
  const c = doc.customer;
  return node('cac:AccountingCustomerParty', [
    node('cac:Party', [
      node('cac:PartyIdentification', [leaf('cbc:ID', c.docNumber, { schemeID: String(c.docType) })]),
      node('cac:PartyLegalEntity', [
        leaf('cbc:RegistrationName', c.name),
        c.address &&
          node('cac:RegistrationAddress', [
            node('cac:AddressLine', [leaf('cbc:Line', c.address)]),
            node('cac:Country', [leaf('cbc:IdentificationCode', 'PE')]),
          ]),
      ]),
      c.email && node('cac:Contact', [leaf('cbc:ElectronicMail', c.email)]),
    ]),
  ]);
}

export function signatureReference(issuer: BillingIssuer): string {
  return node('cac:Signature', [
    leaf('cbc:ID', SIGNATURE_ID),
    node('cac:SignatoryParty', [
      node('cac:PartyIdentification', [leaf('cbc:ID', issuer.ruc)]),
      node('cac:PartyName', [leaf('cbc:Name', issuer.name)]),
    ]),
    node('cac:DigitalSignatureAttachment', [node('cac:ExternalReference', [leaf('cbc:URI', `#${SIGNATURE_ID}`)])]),
  ]);
}

function paymentTerms(doc: BillingDocument): string[] {
  const terms: string[] = [];
  const d = doc.detraction;
  if (d) {
    terms.push(
      node('cac:PaymentMeans', [
        leaf('cbc:ID', 'Detraccion'),
        leaf('cbc:PaymentMeansCode', String(d.paymentMeans).padStart(3, '0')),
        node('cac:PayeeFinancialAccount', [leaf('cbc:ID', d.bankAccount)]),
      ]),
      node('cac:PaymentTerms', [
        leaf('cbc:ID', 'Detraccion'),
        leaf('cbc:PaymentMeansID', d.serviceCode),
        leaf('cbc:PaymentPercent', String(d.percent)),
        amount('cbc:Amount', d.amountCents),
      ]),
    );
  }
  // A credit note declares its payment form only for reason 13: the modified factura's new instalments.
  if (doc.type === '07' && doc.creditNote?.reason !== '13') return terms;
  if (doc.payment.form === 'contado') {
    terms.push(node('cac:PaymentTerms', [leaf('cbc:ID', 'FormaPago'), leaf('cbc:PaymentMeansID', 'Contado')]));
    return terms;
  }
  const pending = doc.payment.instalments.reduce((a, c) => a + c.importeCents, 0);
  terms.push(node('cac:PaymentTerms', [leaf('cbc:ID', 'FormaPago'), leaf('cbc:PaymentMeansID', 'Credito'), amount('cbc:Amount', pending)]));
  doc.payment.instalments.forEach((c, i) => {
    terms.push(
      node('cac:PaymentTerms', [
        leaf('cbc:ID', 'FormaPago'),
        leaf('cbc:PaymentMeansID', `Cuota${String(i + 1).padStart(3, '0')}`),
        amount('cbc:Amount', c.importeCents),
        leaf('cbc:PaymentDueDate', c.fecha_de_pago),
      ]),
    );
  });
  return terms;
}

function taxTotal(doc: BillingDocument): string {
  const t = doc.totals;
  const subtotals: [IgvType, number, number][] = [
    ['10', t.gravadaCents, t.igvCents],
    ['20', t.exoneradaCents, 0],
    ['30', t.inafectaCents, 0],
  ];
  const present = subtotals.filter(([, base]) => base > 0);
  return node('cac:TaxTotal', [
    amount('cbc:TaxAmount', t.igvCents),
    ...(present.length ? present : subtotals.slice(0, 1)).map(([type, base, tax]) =>
      node('cac:TaxSubtotal', [amount('cbc:TaxableAmount', base), amount('cbc:TaxAmount', tax), node('cac:TaxCategory', [taxScheme(type)])]),
    ),
  ]);
}

function monetaryTotal(doc: BillingDocument): string {
  const t = doc.totals;
  return node('cac:LegalMonetaryTotal', [
    amount('cbc:LineExtensionAmount', t.gravadaCents + t.exoneradaCents + t.inafectaCents),
    amount('cbc:TaxInclusiveAmount', t.totalCents),
    amount('cbc:PayableAmount', t.totalCents),
  ]);
}

/** An INEI ubigeo and its address (an AddressType's children), as SUNAT reads a trip's origin and destination. */
function tripAddressParts(ubigeo: string, address: string): string[] {
  return [
    leaf('cbc:ID', ubigeo, { schemeAgencyName: 'PE:INEI', schemeName: 'Ubigeos' }),
    node('cac:AddressLine', [leaf('cbc:Line', address)]),
    node('cac:Country', [
      leaf('cbc:IdentificationCode', 'PE', { listID: 'ISO 3166-1', listAgencyName: 'United Nations Economic Commission for Europe' }),
    ]),
  ];
}

/**
 * The freight trip of a 1004 factura on its line: destination, origin and trip detail, and the three
 * reference values (01 servicio de transporte, 02 carga efectiva, 03 carga útil nominal). Without
 * them SUNAT answers 3116 and 3124 to 3126.
 */
function tripDelivery(trip: FreightTrip): string {
  const term = (code: string, cents: number) => node('cac:DeliveryTerms', [leaf('cbc:ID', code), amount('cbc:Amount', cents)]);
  return node('cac:Delivery', [
    node('cac:DeliveryLocation', [node('cac:Address', tripAddressParts(trip.destinationUbigeo, trip.destinationAddress))]),
    node('cac:Despatch', [
      leaf('cbc:Instructions', trip.detail),
      node('cac:DespatchAddress', tripAddressParts(trip.originUbigeo, trip.originAddress)),
    ]),
    term('01', trip.serviceReferenceCents),
    term('02', trip.effectiveLoadReferenceCents),
    term('03', trip.nominalLoadReferenceCents),
  ]);
}

function line(l: InvoiceLine, index: number, kind: 'Invoice' | 'CreditNote', trip: FreightTrip | null): string {
  const discount =
    l.discountCents > 0 &&
    node('cac:AllowanceCharge', [
      leaf('cbc:ChargeIndicator', 'false'),
      leaf('cbc:AllowanceChargeReasonCode', '00'),
      // The discount as a fraction of the gross value, 5 decimals as SUNAT asks.
      leaf('cbc:MultiplierFactorNumeric', (divRoundHalfUp(l.discountCents * 100_000, l.grossCents) / 100_000).toFixed(5)),
      amount('cbc:Amount', l.discountCents),
      amount('cbc:BaseAmount', l.grossCents),
    ]);
  return node(`cac:${kind}Line`, [
    leaf('cbc:ID', String(index + 1)),
    leaf(kind === 'Invoice' ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity', l.quantity, { unitCode: l.unit }),
    amount('cbc:LineExtensionAmount', l.subtotalCents),
    node('cac:PricingReference', [
      node('cac:AlternativeConditionPrice', [leaf('cbc:PriceAmount', l.unitPrice, PEN), leaf('cbc:PriceTypeCode', '01')]),
    ]),
    trip && tripDelivery(trip),
    discount,
    node('cac:TaxTotal', [
      amount('cbc:TaxAmount', l.igvCents),
      node('cac:TaxSubtotal', [
        amount('cbc:TaxableAmount', l.subtotalCents),
        amount('cbc:TaxAmount', l.igvCents),
        node('cac:TaxCategory', [
          leaf('cbc:Percent', String(l.igvType === '10' ? IGV_PERCENT : 0)),
          leaf('cbc:TaxExemptionReasonCode', l.igvType),
          taxScheme(l.igvType),
        ]),
      ]),
    ]),
    node('cac:Item', [leaf('cbc:Description', l.description), l.code && node('cac:SellersItemIdentification', [leaf('cbc:ID', l.code)])]),
    node('cac:Price', [leaf('cbc:PriceAmount', l.unitValue, PEN)]),
  ]);
}

/** The unsigned UBL 2.1 document of a factura, boleta or nota de crédito. */
export function buildUbl(doc: BillingDocument, issuer: BillingIssuer): string {
  const kind = doc.type === '07' ? 'CreditNote' : 'Invoice';
  const note = doc.creditNote;
  const notes = [
    leaf('cbc:Note', amountInWords(doc.totals.totalCents).replace(/^SON: /, ''), { languageLocaleID: '1000' }),
    doc.detraction && leaf('cbc:Note', 'Operación sujeta a detracción', { languageLocaleID: '2006' }),
    doc.observations && leaf('cbc:Note', doc.observations),
  ];
  const body = [
    node('ext:UBLExtensions', [node('ext:UBLExtension', [node('ext:ExtensionContent', [])])]),
    leaf('cbc:UBLVersionID', '2.1'),
    leaf('cbc:CustomizationID', '2.0'),
    leaf('cbc:ID', ublId(doc.series, doc.number)),
    leaf('cbc:IssueDate', doc.issueDate),
    leaf('cbc:IssueTime', doc.issueTime),
    kind === 'Invoice' && doc.payment.dueDate && leaf('cbc:DueDate', doc.payment.dueDate),
    kind === 'Invoice' && leaf('cbc:InvoiceTypeCode', doc.type, { listID: doc.operationType }),
    ...notes,
    leaf('cbc:DocumentCurrencyCode', doc.currency),
    note &&
      node('cac:DiscrepancyResponse', [
        leaf('cbc:ReferenceID', ublId(note.modifiedSeries, note.modifiedNumber)),
        leaf('cbc:ResponseCode', note.reason),
        leaf('cbc:Description', CREDIT_NOTE_REASON_LABELS[note.reason]),
      ]),
    note &&
      node('cac:BillingReference', [
        node('cac:InvoiceDocumentReference', [
          leaf('cbc:ID', ublId(note.modifiedSeries, note.modifiedNumber)),
          leaf('cbc:DocumentTypeCode', note.modifiedType),
        ]),
      ]),
    ...doc.guides.map((g) =>
      node('cac:DespatchDocumentReference', [
        leaf('cbc:ID', ublId(g.series, g.number)),
        leaf('cbc:DocumentTypeCode', GUIDE_REFERENCE_DOCUMENT_TYPE[g.type]),
      ]),
    ),
    signatureReference(issuer),
    supplier(issuer),
    customer(doc),
    ...paymentTerms(doc),
    taxTotal(doc),
    monetaryTotal(doc),
    ...doc.lines.map((l, i) => line(l, i, kind, doc.detraction?.trip ?? null)),
  ];
  const root = node(kind, body, { xmlns: NS[kind], 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc, 'xmlns:ds': NS.ds, 'xmlns:ext': NS.ext });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}`;
}
