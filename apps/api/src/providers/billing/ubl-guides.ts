import { centsToString, TRANSFER_REASON_LABELS, type GuideDriver, type GuidePoint, type GuideUnit } from '@tramo/domain';
import type { BillingIssuer, GuideDocument, VoucherDocument } from './types.ts';
import { signatureReference, ublId } from './ubl.ts';
import { leaf, node } from './xml.ts';

/*
 * UBL for the documents of issue 15, following the shape of Greenter's templates:
 * - DespatchAdvice 2.1 (GRE remitente 09 and GRE transportista 31, SUNAT's 2022 model): supplier,
 *   delivery customer, Shipment with reason, gross weight, bundles, the stage (transport mode, start
 *   date, carrier or vehicle and drivers), delivery and despatch addresses (ubigeo + address +
 *   establishment code), and one DespatchLine per item;
 * - Retention-1 and Perception-1 (SUNAT's own UBL 2.0 schemas for comprobantes de retención and
 *   percepción): agent, receiver, regime and percentage, totals, one document reference per related
 *   document with its payment (or collection) and the amount withheld (or perceived).
 * The empty ext:ExtensionContent is where signature.ts puts the XML-DSig signature, as for invoices.
 */

const NS = {
  DespatchAdvice: 'urn:oasis:names:specification:ubl:schema:xsd:DespatchAdvice-2',
  Retention: 'urn:sunat:names:specification:ubl:peru:schema:xsd:Retention-1',
  Perception: 'urn:sunat:names:specification:ubl:peru:schema:xsd:Perception-1',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  ds: 'http://www.w3.org/2000/09/xmldsig#',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  sac: 'urn:sunat:names:specification:ubl:peru:schema:xsd:SunatAggregateComponents-1',
} as const;

const PEN = { currencyID: 'PEN' };
const amount = (name: string, cents: number) => leaf(name, centsToString(cents), PEN);

/** '86.5' → '86.500': decimal text (at most 3 decimals, as the domain guarantees) as SUNAT prints weights. */
const threeDecimals = (value: string) => {
  const [int, frac = ''] = value.split('.');
  return `${int}.${frac.padEnd(3, '0')}`;
};

/** The UN/ECE code SUNAT takes for each guide unit (KG → KGM, TM → TNE). */
export const GUIDE_UNIT_UNECE: Record<GuideUnit, string> = { NIU: 'NIU', KG: 'KGM', TM: 'TNE', ZZ: 'ZZ' };

const EXTENSIONS = node('ext:UBLExtensions', [node('ext:UBLExtension', [leaf('ext:ExtensionContent', '')])]);

const party = (docType: number, docNumber: string, name: string) =>
  node('cac:Party', [
    node('cac:PartyIdentification', [leaf('cbc:ID', docNumber, { schemeID: String(docType) })]),
    node('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', name)]),
  ]);

const issuerParty = (issuer: BillingIssuer) => party(6, issuer.ruc, issuer.name);

const address = (name: string, p: GuidePoint, ruc: string) =>
  node(name, [
    leaf('cbc:ID', p.ubigeo, { schemeAgencyName: 'PE:INEI', schemeName: 'Ubigeos' }),
    p.establishmentCode &&
      leaf('cbc:AddressTypeCode', p.establishmentCode, { listID: ruc, listAgencyName: 'PE:SUNAT', listName: 'Establecimientos anexos' }),
    node('cac:AddressLine', [leaf('cbc:Line', p.address)]),
  ]);

const driverPerson = (d: GuideDriver, role: 'Principal' | 'Secundario') =>
  node('cac:DriverPerson', [
    leaf('cbc:ID', d.docNumber, { schemeID: String(d.docType), schemeName: 'Documento de Identidad', schemeAgencyName: 'PE:SUNAT' }),
    leaf('cbc:FirstName', d.names),
    leaf('cbc:FamilyName', d.surnames),
    leaf('cbc:JobTitle', role),
    node('cac:IdentityDocumentReference', [leaf('cbc:ID', d.licence)]),
  ]);

/** Catalogue 61's names of the documents a guide most often relates to (cbc:DocumentType). */
const RELATED_DOCUMENT_NAMES: Record<string, string> = {
  '01': 'Factura',
  '03': 'Boleta de Venta',
  '09': 'Guía de Remisión Remitente',
  '31': 'Guía de Remisión Transportista',
};

/** A vehicle's TUC / Certificado de Habilitación Vehicular (SUNAT 4399 on the main vehicle without it). */
const tucOf = (tuc: string | null) => tuc && node('cac:ApplicableTransportMeans', [leaf('cbc:RegistrationNationalityID', tuc)]);

/** The DespatchAdvice of a guide: GRE-R (09) issued by the sender, GRE-T (31) issued by the carrier. */
export function buildDespatchAdvice(g: GuideDocument, issuer: BillingIssuer): string {
  const carrierMode = g.type === '31';
  // GRE-R: the client is who receives the goods. GRE-T: the client is the sender and `recipient` receives them.
  const deliveryCustomer = carrierMode && g.recipient ? g.recipient : g.client;
  // GRE-T: the issuer is the carrier; its MTC registration goes on the stage's CarrierParty (SUNAT 4391).
  const carrierParty = carrierMode
    ? node('cac:CarrierParty', [
        node('cac:PartyIdentification', [leaf('cbc:ID', issuer.ruc, { schemeID: '6' })]),
        node('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', issuer.name), g.mtcRegistration && leaf('cbc:CompanyID', g.mtcRegistration)]),
      ])
    : g.carrier &&
      node('cac:CarrierParty', [
        node('cac:PartyIdentification', [leaf('cbc:ID', g.carrier.docNumber, { schemeID: '6' })]),
        node('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', g.carrier.name)]),
      ]);
  const stage = node('cac:ShipmentStage', [
    leaf('cbc:TransportModeCode', g.transportType, {
      listName: 'Modalidad de traslado',
      listAgencyName: 'PE:SUNAT',
      listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo18',
    }),
    node('cac:TransitPeriod', [leaf('cbc:StartDate', g.transferDate)]),
    carrierParty,
    // The day the goods were handed to the carrier (SUNAT 3617, GRE-T since 1 June 2026).
    carrierMode && g.goodsDeliveredOn && node('cac:LoadingTransportEvent', [leaf('cbc:OccurrenceDate', g.goodsDeliveredOn)]),
    g.driver && driverPerson(g.driver, 'Principal'),
    ...g.secondaryDrivers.map((d) => driverPerson(d, 'Secundario')),
  ]);
  const delivery = node('cac:Delivery', [
    address('cac:DeliveryAddress', g.destination, issuer.ruc),
    node('cac:Despatch', [
      address('cac:DespatchAddress', g.origin, issuer.ruc),
      carrierMode &&
        node('cac:DespatchParty', [
          node('cac:PartyIdentification', [leaf('cbc:ID', g.client.docNumber, { schemeID: String(g.client.docType) })]),
          node('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', g.client.name)]),
        ]),
    ]),
  ]);
  const equipment =
    g.plate &&
    node('cac:TransportHandlingUnit', [
      node('cac:TransportEquipment', [
        leaf('cbc:ID', g.plate),
        tucOf(g.vehicleTuc),
        ...g.secondaryPlates.map((p, i) => node('cac:AttachedTransportEquipment', [leaf('cbc:ID', p), tucOf(g.secondaryTucs[i] ?? null)])),
      ]),
    ]);
  const shipment = node('cac:Shipment', [
    leaf('cbc:ID', 'SUNAT_Envio'),
    leaf('cbc:HandlingCode', g.transferReason, {
      listAgencyName: 'PE:SUNAT',
      listName: 'Motivo de traslado',
      listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo20',
    }),
    leaf('cbc:HandlingInstructions', TRANSFER_REASON_LABELS[g.transferReason]),
    leaf('cbc:GrossWeightMeasure', threeDecimals(g.grossWeight), { unitCode: g.grossWeightUnit }),
    g.bundles !== null && leaf('cbc:TotalTransportHandlingUnitQuantity', String(g.bundles)),
    stage,
    delivery,
    equipment,
  ]);
  const lines = g.items.map((item, i) =>
    node('cac:DespatchLine', [
      leaf('cbc:ID', String(i + 1)),
      leaf('cbc:DeliveredQuantity', item.quantity, { unitCode: GUIDE_UNIT_UNECE[item.unit] }),
      node('cac:OrderLineReference', [leaf('cbc:LineID', String(i + 1))]),
      node('cac:Item', [leaf('cbc:Description', item.description), item.code && node('cac:SellersItemIdentification', [leaf('cbc:ID', item.code)])]),
    ]),
  );
  const body = node(
    'DespatchAdvice',
    [
      EXTENSIONS,
      leaf('cbc:UBLVersionID', '2.1'),
      leaf('cbc:CustomizationID', '2.0'),
      leaf('cbc:ID', ublId(g.series, g.number)),
      leaf('cbc:IssueDate', g.issueDate),
      leaf('cbc:IssueTime', g.issueTime),
      leaf('cbc:DespatchAdviceTypeCode', g.type, {
        listAgencyName: 'PE:SUNAT',
        listName: 'Tipo de Documento',
        listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo01',
      }),
      g.observations && leaf('cbc:Note', g.observations),
      ...g.relatedDocuments.map((r) =>
        node('cac:AdditionalDocumentReference', [
          leaf('cbc:ID', `${r.series}-${r.number}`),
          leaf('cbc:DocumentTypeCode', r.type, {
            listAgencyName: 'PE:SUNAT',
            listName: 'Documento relacionado al transporte',
            listURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo61',
          }),
          leaf('cbc:DocumentType', RELATED_DOCUMENT_NAMES[r.type] ?? 'Documento relacionado al transporte'),
          // A GRE remitente on a GRE-T was issued by the sender, the guide's client (SUNAT 4371/IssuerParty).
          carrierMode &&
            r.type === '09' &&
            g.client.docType === 6 &&
            node('cac:IssuerParty', [
              node('cac:PartyIdentification', [
                leaf('cbc:ID', g.client.docNumber, {
                  schemeID: '6',
                  schemeName: 'Documento de Identidad',
                  schemeAgencyName: 'PE:SUNAT',
                  schemeURI: 'urn:pe:gob:sunat:cpe:see:gem:catalogos:catalogo06',
                }),
              ]),
            ]),
        ]),
      ),
      signatureReference(issuer),
      node('cac:DespatchSupplierParty', [issuerParty(issuer)]),
      node('cac:DeliveryCustomerParty', [party(deliveryCustomer.docType, deliveryCustomer.docNumber, deliveryCustomer.name)]),
      shipment,
      ...lines,
    ],
    { xmlns: NS.DespatchAdvice, 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc, 'xmlns:ds': NS.ds, 'xmlns:ext': NS.ext },
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}

/** SUNAT's regime code of each rate: retention 01 = 3 %, 02 = 6 %; perception 01 = 2 %, 02 = 1 %, 03 = 0.5 %. */
export const RETENTION_REGIMES: Record<string, string> = { '3.00': '01', '6.00': '02' };
export const PERCEPTION_REGIMES: Record<string, string> = { '2.00': '01', '1.00': '02', '0.50': '03' };

const fullParty = (name: string, docType: number, docNumber: string, legalName: string, addressLine: string | null) =>
  node(name, [
    node('cac:PartyIdentification', [leaf('cbc:ID', docNumber, { schemeID: String(docType) })]),
    addressLine && node('cac:PostalAddress', [leaf('cbc:StreetName', addressLine), node('cac:Country', [leaf('cbc:IdentificationCode', 'PE')])]),
    node('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', legalName)]),
  ]);

/** A Retention-1 (comprobante de retención, 20) or Perception-1 (comprobante de percepción, 40). */
export function buildVoucherUbl(v: VoucherDocument, issuer: BillingIssuer): string {
  const retention = v.type === '20';
  const root = retention ? 'Retention' : 'Perception';
  const word = retention ? 'Retention' : 'Perception';
  const regimes = retention ? RETENTION_REGIMES : PERCEPTION_REGIMES;
  const refs = v.lines.map((l) =>
    node(`sac:SUNAT${word}DocumentReference`, [
      leaf('cbc:ID', `${l.series}-${l.number}`, { schemeID: l.type }),
      l.issueDate && leaf('cbc:IssueDate', l.issueDate),
      amount('cbc:TotalInvoiceAmount', l.totalCents),
      node('cac:Payment', [
        leaf('cbc:ID', String(l.paymentNumber)),
        amount('cbc:PaidAmount', l.baseCents),
        l.paymentDate && leaf('cbc:PaidDate', l.paymentDate),
      ]),
      node(`sac:SUNAT${word}Information`, [
        amount(`sac:SUNAT${word}Amount`, l.amountCents),
        leaf(`sac:SUNAT${word}Date`, l.paymentDate ?? v.issueDate),
        amount(retention ? 'sac:SUNATNetTotalPaid' : 'sac:SUNATNetTotalCashed', l.netCents),
      ]),
    ]),
  );
  const body = node(
    root,
    [
      EXTENSIONS,
      leaf('cbc:UBLVersionID', '2.0'),
      leaf('cbc:CustomizationID', '1.0'),
      signatureReference(issuer),
      leaf('cbc:ID', ublId(v.series, v.number)),
      leaf('cbc:IssueDate', v.issueDate),
      fullParty('cac:AgentParty', 6, issuer.ruc, issuer.name, issuer.address),
      fullParty('cac:ReceiverParty', v.subject.docType, v.subject.docNumber, v.subject.name, v.subject.address),
      leaf(`sac:SUNAT${word}SystemCode`, regimes[v.percent] ?? '01'),
      leaf(`sac:SUNAT${word}Percent`, v.percent),
      v.observations && leaf('cbc:Note', v.observations),
      amount('cbc:TotalInvoiceAmount', v.amountTotalCents),
      amount(retention ? 'sac:SUNATTotalPaid' : 'sac:SUNATTotalCashed', v.netTotalCents),
      ...refs,
    ],
    {
      xmlns: retention ? NS.Retention : NS.Perception,
      'xmlns:cac': NS.cac,
      'xmlns:cbc': NS.cbc,
      'xmlns:ds': NS.ds,
      'xmlns:ext': NS.ext,
      'xmlns:sac': NS.sac,
    },
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}
