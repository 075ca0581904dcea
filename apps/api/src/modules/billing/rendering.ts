import {
  amountInWords,
  BILLING_MESSAGES,
  centsToNumber,
  centsToString,
  formatDocumentNumber,
  NUMBERED_PAGE_ROWS,
  routeReferenceValues,
  scopeOf,
  sunatQrText,
  toCents,
  type DocumentDetail,
  type DocumentEventKind,
  type DocumentFilters,
  type DocumentPage,
  type DocumentRow,
  type DocumentStatus,
  type UnbilledShipment,
} from '@tramo/domain';
import { findCompanyLogo } from '../company/index.ts';
import type { KeysetRequest } from '../../lib/keyset.ts';
import { notFound } from '../../lib/errors.ts';
import {
  renderDocumentPdf,
  renderGuidePdf,
  renderVoucherPdf,
  type BillingDocument,
  type GuideDocument,
  type PdfFormat,
  type VoucherDocument,
} from '../../providers/billing/index.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { fullNumber, isGuideType, isInvoiceType, isVoucherType, money, visibleDocument } from './documents.ts';
import { syncDocument } from './lifecycle.ts';
import { billingOf } from './provider.ts';
import * as register from './register.ts';
import * as repo from './repository.ts';
import type { DocumentRecord } from './repository.ts';

/** Reading and rendering: a document's detail, the register's page, its PDF and XML, the shipments left to bill. */

function toRow(doc: DocumentRecord, branchName: string | null): DocumentRow {
  return {
    id: doc.id,
    type: doc.type as DocumentRow['type'],
    series: doc.series,
    number: doc.number,
    fullNumber: fullNumber(doc),
    issueDate: doc.issueDate,
    contingency: doc.contingency,
    status: doc.status as DocumentStatus,
    customerId: doc.customerId,
    customerDocType: doc.customerDocType,
    customerDocNumber: doc.customerDocNumber,
    customerName: doc.customerName,
    currency: 'PEN',
    total: money(doc.total),
    branchId: doc.branchId,
    branchName,
    issuedByName: doc.userName,
    createdAt: doc.createdAt.toISOString(),
    modifies: doc.modifies,
  };
}

/** `GET /billing/lookup/{id}`: the opened document; a pending one is consulted first. */
export async function lookupDocument(ctx: ServiceContext, user: SessionUser, id: number): Promise<DocumentDetail> {
  const doc = await syncDocument(ctx, user, await visibleDocument(ctx, user, id));
  const [branchName, events, billed, ofLivePayment] = await Promise.all([
    repo.branchName(ctx.db, doc.branchId),
    repo.eventsOf(ctx.db, id),
    repo.shipmentsOf(ctx.db, id),
    repo.isReceiptOfLivePayment(ctx.db, id),
  ]);
  const common = {
    voidReason: doc.voidReason,
    ofLivePayment,
    voidSummary: doc.voidSummaryId
      ? { kind: doc.voidSummaryId.startsWith('RC-') ? ('RC' as const) : ('RA' as const), id: doc.voidSummaryId, ticket: doc.voidTicket }
      : null,
    shipmentIds: billed.map((s) => s.id),
    shipmentCodes: billed.map((s) => s.code),
    providerExchanges: events
      .filter((e) => e.operation && (e.request !== null || e.answer !== null))
      .map((e) => ({ at: e.at.toISOString(), operation: e.operation!, request: e.request, answer: e.answer })),
    history: events.map((e) => ({ at: e.at.toISOString(), kind: e.kind as DocumentEventKind, userName: e.userName, note: e.note })),
  };
  if (!isInvoiceType(doc.type)) return { ...otherDetail(doc, branchName), ...common };
  const d = doc.document as BillingDocument;
  const { issuer } = billingOf(ctx);
  return {
    ...toRow(doc, branchName),
    customerAddress: d.customer.address,
    customerEmail: d.customer.email,
    paymentForm: d.payment.form,
    instalments: d.payment.instalments.map((i) => ({ number: i.cuota, dueDate: i.fecha_de_pago, amount: centsToNumber(i.importeCents) })),
    lines: d.lines.map((l) => ({
      description: l.description,
      unit: l.unit,
      quantity: l.quantity,
      unitValue: l.unitValue,
      igvType: l.igvType,
      discount: centsToNumber(l.discountCents),
      taxable: centsToNumber(l.subtotalCents),
      igv: centsToNumber(l.igvCents),
      total: centsToNumber(l.totalCents),
    })),
    totals: {
      gravada: money(doc.gravada),
      exonerada: money(doc.exonerada),
      inafecta: money(doc.inafecta),
      igv: money(doc.igv),
      total: money(doc.total),
    },
    detraction: d.detraction
      ? {
          code: d.detraction.serviceCode,
          percent: d.detraction.percent,
          amount: centsToNumber(d.detraction.amountCents),
          bankAccount: d.detraction.bankAccount,
          paymentMeans: d.detraction.paymentMeans,
        }
      : null,
    creditNote: d.creditNote
      ? {
          reason: d.creditNote.reason,
          modifiedType: d.creditNote.modifiedType,
          modifiedSeries: d.creditNote.modifiedSeries,
          modifiedNumber: d.creditNote.modifiedNumber,
        }
      : null,
    guides: d.guides.map((g) => ({ type: g.type, series: g.series, number: String(g.number) })),
    qrText: doc.qrText ?? qrOf(issuer.ruc, doc, d),
    hash: doc.hash,
    amountInWords: amountInWords(d.totals.totalCents),
    ...common,
  };
}

const zeroTotals = { gravada: 0, exonerada: 0, inafecta: 0, igv: 0, total: 0 };

/** The opened guide or voucher: the invoice fields that do not apply are empty, and `guide` or `voucher` tells the rest. */
function otherDetail(doc: DocumentRecord, branchName: string | null) {
  const base = {
    ...toRow(doc, branchName),
    paymentForm: 'contado' as const,
    instalments: [],
    detraction: null,
    creditNote: null,
    guides: [],
    qrText: doc.qrText ?? '',
    hash: doc.hash,
  };
  if (isGuideType(doc.type)) {
    const g = doc.document as GuideDocument;
    return {
      ...base,
      customerAddress: g.client.address,
      customerEmail: g.client.email,
      lines: g.items.map((i) => ({
        description: i.code ? `${i.code} ${i.description}` : i.description,
        unit: i.unit,
        quantity: i.quantity,
        unitValue: '0',
        igvType: '',
        discount: 0,
        taxable: 0,
        igv: 0,
        total: 0,
      })),
      totals: zeroTotals,
      amountInWords: '',
      guide: {
        mode: g.mode,
        transferDate: g.transferDate,
        transferReason: g.transferReason,
        transportType: g.transportType,
        grossWeight: g.grossWeight,
        grossWeightUnit: g.grossWeightUnit,
        bundles: g.bundles,
        origin: g.origin,
        destination: g.destination,
        plate: g.plate,
        secondaryPlates: g.secondaryPlates,
        driver: g.driver ? { docNumber: g.driver.docNumber, names: g.driver.names, surnames: g.driver.surnames, licence: g.driver.licence } : null,
        carrier: g.carrier ? { docNumber: g.carrier.docNumber, name: g.carrier.name } : null,
        recipient: g.recipient ? { docNumber: g.recipient.docNumber, name: g.recipient.name } : null,
        items: g.items.map((i) => ({ code: i.code, description: i.description, quantity: i.quantity, unit: i.unit, weightKg: i.weightKg })),
      },
    };
  }
  const v = doc.document as VoucherDocument;
  return {
    ...base,
    customerAddress: v.subject.address,
    customerEmail: v.subject.email,
    lines: v.lines.map((l) => ({
      description: `${l.type} ${formatDocumentNumber(l.series, Number(l.number))}`,
      unit: 'ZZ',
      quantity: '1',
      unitValue: centsToString(l.baseCents),
      igvType: '',
      discount: 0,
      taxable: centsToNumber(l.baseCents),
      igv: 0,
      total: centsToNumber(l.amountCents),
    })),
    totals: { ...zeroTotals, total: centsToNumber(v.amountTotalCents) },
    amountInWords: amountInWords(v.amountTotalCents),
    voucher: {
      percent: v.percent,
      baseTotal: centsToNumber(v.baseTotalCents),
      amountTotal: centsToNumber(v.amountTotalCents),
      netTotal: centsToNumber(v.netTotalCents),
      lines: v.lines.map((l) => ({
        type: l.type,
        series: l.series,
        number: l.number,
        issueDate: l.issueDate,
        total: centsToNumber(l.totalCents),
        paymentDate: l.paymentDate,
        base: centsToNumber(l.baseCents),
        amount: centsToNumber(l.amountCents),
        net: centsToNumber(l.netCents),
      })),
    },
  };
}

function qrOf(ruc: string, doc: DocumentRecord, d: BillingDocument): string {
  return sunatQrText({
    issuerRuc: ruc,
    type: d.type,
    series: doc.series,
    number: doc.number,
    igvCents: d.totals.igvCents,
    totalCents: d.totals.totalCents,
    issueDate: doc.issueDate,
    customerDocType: d.customer.docType,
    customerDocNumber: d.customer.docNumber,
    hash: doc.hash ?? '',
  });
}

export async function listDocuments(ctx: ServiceContext, user: SessionUser, filters: DocumentFilters, request: KeysetRequest): Promise<DocumentPage> {
  const { page, pageSize } = request;
  const { rows, next, prev, sums } = await register.listDocuments(ctx.db, filters, scopeOf(user), request);
  return {
    items: rows.map((r) => toRow(r.doc, r.branchName)),
    total: sums.capped ? NUMBERED_PAGE_ROWS : Number(sums.total),
    ...(sums.capped ? { totalCapped: true } : {}),
    page,
    pageSize,
    next,
    prev,
    sums: sums.capped
      ? null
      : {
          gravada: money(sums.gravada),
          exonerada: money(sums.exonerada),
          inafecta: money(sums.inafecta),
          igv: money(sums.igv),
          total: money(sums.amount),
        },
  };
}

export async function documentPdf(ctx: ServiceContext, user: SessionUser, id: number, format: PdfFormat): Promise<{ pdf: Buffer; filename: string }> {
  const doc = await visibleDocument(ctx, user, id);
  const { issuer, provider } = billingOf(ctx);
  const filename = `${issuer.ruc}-${doc.type}-${fullNumber(doc)}.pdf`;
  const printed = { issuer, hash: doc.hash, qrText: doc.qrText, status: doc.status as DocumentStatus, demo: provider.name === 'sandbox' };
  // Guides and vouchers print on A4 only.
  if (isGuideType(doc.type)) {
    // The company's logo heads its guides (issue 36), as it heads the manifests.
    const logo = await findCompanyLogo(ctx.db);
    return { pdf: await renderGuidePdf({ ...printed, logo, document: doc.document as GuideDocument }), filename };
  }
  if (isVoucherType(doc.type)) return { pdf: await renderVoucherPdf({ ...printed, document: doc.document as VoucherDocument }), filename };
  const document = doc.document as BillingDocument;
  const pdf = await renderDocumentPdf(
    {
      document,
      issuer,
      hash: doc.hash,
      qrText: doc.qrText ?? qrOf(issuer.ruc, doc, document),
      status: doc.status as DocumentStatus,
      demo: provider.name === 'sandbox',
    },
    format,
  );
  return { pdf, filename };
}

export async function documentXml(ctx: ServiceContext, user: SessionUser, id: number): Promise<{ xml: string; filename: string }> {
  const doc = await visibleDocument(ctx, user, id);
  if (!doc.xml) throw notFound(BILLING_MESSAGES.xmlMissing);
  // SUNAT names the file RUC-TT-SERIE-NUMERO with the number as in cbc:ID, unpadded (error 1036 otherwise).
  return { xml: doc.xml, filename: `${billingOf(ctx).issuer.ruc}-${doc.type}-${doc.series}-${doc.number}.xml` };
}

/** The signed RA or RC that voided a document, named as SUNAT names it: RUC-RA-YYYYMMDD-n.xml. */
export async function voidSummaryXml(ctx: ServiceContext, user: SessionUser, id: number): Promise<{ xml: string; filename: string }> {
  const doc = await visibleDocument(ctx, user, id);
  if (!doc.voidXml || !doc.voidSummaryId) throw notFound(BILLING_MESSAGES.voidXmlMissing);
  return { xml: doc.voidXml, filename: `${billingOf(ctx).issuer.ruc}-${doc.voidSummaryId}.xml` };
}

export async function unbilledShipments(
  ctx: ServiceContext,
  user: SessionUser,
  customerId: number,
  shipmentIds?: readonly number[],
): Promise<UnbilledShipment[]> {
  if (shipmentIds?.length === 0) return [];
  const rows = await repo.unbilledShipments(ctx.db, customerId, scopeOf(user), shipmentIds);
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    createdAt: r.createdAt.toISOString(),
    originName: r.originName,
    destinationName: r.destinationName,
    status: r.status,
    price: money(r.price),
    originUbigeo: r.originUbigeo,
    originAddress: r.originAddress,
    destinationUbigeo: r.destinationUbigeo,
    destinationAddress: r.destinationAddress,
    reference: referenceOf(r.reference),
  }));
}

/** A route's three reference values (S/) from its configuration, or null (none configured). */
function referenceOf(
  raw: { service_per_tm: string; effective_load_tm: string; nominal_load_tm: string } | string | null,
): UnbilledShipment['reference'] {
  // PGlite and PostgreSQL may hand json back as text or parsed.
  const r = typeof raw === 'string' ? (JSON.parse(raw) as Exclude<typeof raw, string>) : raw;
  if (!r) return null;
  const values = routeReferenceValues({
    servicePerTmCents: toCents(r.service_per_tm),
    effectiveLoadTm: r.effective_load_tm,
    nominalLoadTm: r.nominal_load_tm,
  });
  if (!values) return null;
  return {
    service: centsToNumber(values.serviceCents),
    effectiveLoad: centsToNumber(values.effectiveLoadCents),
    nominalLoad: centsToNumber(values.nominalLoadCents),
  };
}
