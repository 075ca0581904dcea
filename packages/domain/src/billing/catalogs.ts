import { DOC_TYPE_LABELS, DOC_TYPE_SHORT, DOC_TYPES } from '../customers.ts';

/*
 * SUNAT catalogues the billing screens and the provider share. Codes are SUNAT's own (catalogue
 * numbers in each comment); a provider with its own numbering (Nubefact) maps them in its adapter.
 */

/** Catalogue 01: every electronic document Tramo issues (the guides and vouchers arrive with issue 15). */
export const SUNAT_DOCUMENT_TYPES = ['01', '03', '07', '09', '31', '20', '40'] as const;
export type SunatDocumentType = (typeof SUNAT_DOCUMENT_TYPES)[number];

export const SUNAT_DOCUMENT_LABELS: Record<SunatDocumentType, string> = {
  '01': 'Factura',
  '03': 'Boleta de venta',
  '07': 'Nota de crédito',
  '09': 'Guía de remisión remitente',
  '31': 'Guía de remisión transportista',
  '20': 'Comprobante de retención',
  '40': 'Comprobante de percepción',
};

/** The printed title of each document ('FACTURA ELECTRÓNICA', …). */
export const SUNAT_DOCUMENT_TITLES: Record<SunatDocumentType, string> = {
  '01': 'FACTURA ELECTRÓNICA',
  '03': 'BOLETA DE VENTA ELECTRÓNICA',
  '07': 'NOTA DE CRÉDITO ELECTRÓNICA',
  '09': 'GUÍA DE REMISIÓN ELECTRÓNICA REMITENTE',
  '31': 'GUÍA DE REMISIÓN ELECTRÓNICA TRANSPORTISTA',
  '20': 'COMPROBANTE DE RETENCIÓN ELECTRÓNICO',
  '40': 'COMPROBANTE DE PERCEPCIÓN ELECTRÓNICO',
};

/** The documents of the 'Factura / Boleta' tab: what `invoicePayloadSchema` accepts. */
export const INVOICE_DOCUMENT_TYPES = ['01', '03', '07'] as const;
export type InvoiceDocumentType = (typeof INVOICE_DOCUMENT_TYPES)[number];

/** What a credit note may modify. */
export const MODIFIABLE_DOCUMENT_TYPES = ['01', '03'] as const;
export type ModifiableDocumentType = (typeof MODIFIABLE_DOCUMENT_TYPES)[number];

/** Spec section 9: the series each document type starts with. */
export const DEFAULT_SERIES: Record<SunatDocumentType, string> = {
  '01': 'FFF1',
  '03': 'BBB1',
  '07': 'FFF1',
  '09': 'TTT1',
  '31': 'VVV1',
  '20': 'RRR1',
  '40': 'PPP1',
};

/** The letter a (non-contingency) series of each type starts with; a credit note takes its document's. */
export const SERIES_PREFIX: Record<Exclude<SunatDocumentType, '07'>, string> = {
  '01': 'F',
  '03': 'B',
  '09': 'T',
  '31': 'V',
  '20': 'R',
  '40': 'P',
};

/**
 * Catalogue 06 as billing needs it: the customer documents of customers.ts plus 0, "sin documento",
 * which only a boleta up to S/ 700 may carry.
 */
export const BILLING_DOC_TYPES = [0, ...DOC_TYPES] as const;
export type BillingDocType = (typeof BILLING_DOC_TYPES)[number];

export const BILLING_DOC_TYPE_LABELS: Record<BillingDocType, string> = { 0: 'Sin documento', ...DOC_TYPE_LABELS };
export const BILLING_DOC_TYPE_SHORT: Record<BillingDocType, string> = { 0: 'S/D', ...DOC_TYPE_SHORT };

/** Catalogue 07, the three IGV treatments the spec allows. */
export const IGV_TYPES = ['10', '20', '30'] as const;
export type IgvType = (typeof IGV_TYPES)[number];

export const IGV_TYPE_LABELS: Record<IgvType, string> = {
  '10': 'Gravado',
  '20': 'Exonerado',
  '30': 'Inafecto',
};

/** Spec section 9: 18 %. */
export const IGV_PERCENT = 18;

/** Catalogue 03 (UN/ECE rec. 20), the units the invoice form offers. */
export const INVOICE_UNITS = ['NIU', 'KGM', 'TNE', 'CJ', 'PAQ', 'ZZ'] as const;
export type InvoiceUnit = (typeof INVOICE_UNITS)[number];

export const INVOICE_UNIT_LABELS: Record<InvoiceUnit, string> = {
  NIU: 'Unidad (bienes)',
  KGM: 'Kilogramo',
  TNE: 'Tonelada',
  CJ: 'Caja',
  PAQ: 'Paquete',
  ZZ: 'Unidad (servicios)',
};

/** Catalogue 09, the reasons of a credit note. */
export const CREDIT_NOTE_REASONS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '13'] as const;
export type CreditNoteReason = (typeof CREDIT_NOTE_REASONS)[number];

export const CREDIT_NOTE_REASON_LABELS: Record<CreditNoteReason, string> = {
  '01': 'Anulación de la operación',
  '02': 'Anulación por error en el RUC',
  '03': 'Corrección por error en la descripción',
  '04': 'Descuento global',
  '05': 'Descuento por ítem',
  '06': 'Devolución total',
  '07': 'Devolución por ítem',
  '08': 'Bonificación',
  '09': 'Disminución en el valor',
  '10': 'Otros conceptos',
  '13': 'Ajustes – montos y/o fechas de pago',
};

/** Reason 13: the note changes only a credit factura's instalments (amounts and due dates), for S/ 0. */
export const INSTALMENT_ADJUSTMENT_REASON = '13';

/** Catalogue 59 codes the spec allows for paying a detracción. */
export const DETRACTION_PAYMENT_MEANS = [1, 2, 8, 9] as const;
export type DetractionPaymentMeans = (typeof DETRACTION_PAYMENT_MEANS)[number];

export const DETRACTION_PAYMENT_MEANS_LABELS: Record<DetractionPaymentMeans, string> = {
  1: 'Depósito en cuenta',
  2: 'Giro',
  8: 'Efectivo, por operaciones en las que no existe obligación de utilizar medio de pago',
  9: 'Efectivo, en los demás casos',
};

/** Referenced dispatch guides: 1 remitente (09), 2 transportista (31), as the spec and Nubefact number them. */
export const GUIDE_REFERENCE_TYPES = [1, 2] as const;
export type GuideReferenceType = (typeof GUIDE_REFERENCE_TYPES)[number];

export const GUIDE_REFERENCE_LABELS: Record<GuideReferenceType, string> = {
  1: 'Guía de remisión remitente',
  2: 'Guía de remisión transportista',
};

/** The SUNAT document type (catalogue 01) of each referenced guide type. */
export const GUIDE_REFERENCE_DOCUMENT_TYPE: Record<GuideReferenceType, SunatDocumentType> = { 1: '09', 2: '31' };

export const PAYMENT_FORMS = ['contado', 'credito'] as const;
export type PaymentForm = (typeof PAYMENT_FORMS)[number];

export const PAYMENT_FORM_LABELS: Record<PaymentForm, string> = { contado: 'Contado', credito: 'Crédito' };

/** Catalogue 51, the operation types Tramo's invoices use. */
export const OPERATION_TYPES = {
  ventaInterna: '0101',
  detraccionTransporteCarga: '1004',
} as const;
export type OperationType = (typeof OPERATION_TYPES)[keyof typeof OPERATION_TYPES];

/** DESIGN.md section 5a: a document's life. */
export const DOCUMENT_STATUSES = ['pendiente', 'aceptado', 'rechazado', 'anulación pendiente', 'anulado'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const DOCUMENT_STATUS_LABELS: Record<DocumentStatus, string> = {
  pendiente: 'Pendiente',
  aceptado: 'Aceptado',
  rechazado: 'Rechazado',
  'anulación pendiente': 'Anulación pendiente',
  anulado: 'Anulado',
};

/** The tone of each status chip; the web maps each tone to a Mantine colour. */
export type DocumentStatusTone = 'warning' | 'success' | 'danger' | 'neutral';
export const DOCUMENT_STATUS_TONES: Record<DocumentStatus, DocumentStatusTone> = {
  pendiente: 'warning',
  aceptado: 'success',
  rechazado: 'danger',
  'anulación pendiente': 'warning',
  anulado: 'neutral',
};

/** Spec section 9. */
export const DEFAULT_VOID_REASON = 'ERROR DEL SISTEMA';
/** Nubefact's limit for `motivo`, kept here so the form caps its input. */
export const VOID_REASON_MAX_LENGTH = 100;

const includes = <T>(list: readonly T[], value: unknown): value is T => (list as readonly unknown[]).includes(value);

export const isBillingDocType = (v: unknown): v is BillingDocType => includes(BILLING_DOC_TYPES, v);
export const isIgvType = (v: unknown): v is IgvType => includes(IGV_TYPES, v);
export const isInvoiceUnit = (v: unknown): v is InvoiceUnit => includes(INVOICE_UNITS, v);
export const isCreditNoteReason = (v: unknown): v is CreditNoteReason => includes(CREDIT_NOTE_REASONS, v);
export const isDetractionPaymentMeans = (v: unknown): v is DetractionPaymentMeans => includes(DETRACTION_PAYMENT_MEANS, v);
export const isGuideReferenceType = (v: unknown): v is GuideReferenceType => includes(GUIDE_REFERENCE_TYPES, v);

/** Catalogue 20, the transfer reasons the spec allows on a dispatch guide (spec section 9). */
export const TRANSFER_REASONS = ['01', '02', '04', '08', '09', '13'] as const;
export type TransferReason = (typeof TRANSFER_REASONS)[number];

export const TRANSFER_REASON_LABELS: Record<TransferReason, string> = {
  '01': 'Venta',
  '02': 'Compra',
  '04': 'Traslado entre establecimientos de la misma empresa',
  '08': 'Importación',
  '09': 'Exportación',
  '13': 'Otros',
};

/** Catalogue 18, the transport types (spec section 9). */
export const TRANSPORT_TYPES = ['01', '02'] as const;
export type TransportType = (typeof TRANSPORT_TYPES)[number];

export const TRANSPORT_TYPE_LABELS: Record<TransportType, string> = {
  '01': 'Transporte público',
  '02': 'Transporte privado',
};

/** The guide modes: remitente (GRE-R, 09) and transportista (GRE-T, 31). */
export const GUIDE_DOCUMENT_TYPES = ['09', '31'] as const;
export type GuideDocumentType = (typeof GUIDE_DOCUMENT_TYPES)[number];

/** Spec section 9: the units a guide item may carry. */
export const GUIDE_UNITS = ['NIU', 'KG', 'TM', 'ZZ'] as const;
export type GuideUnit = (typeof GUIDE_UNITS)[number];

export const GUIDE_UNIT_LABELS: Record<GuideUnit, string> = {
  NIU: 'Unidad (bienes)',
  KG: 'Kilogramo',
  TM: 'Tonelada métrica',
  ZZ: 'Unidad (servicios)',
};

/** The gross weight's unit on the guide (UN/ECE rec. 20, as SUNAT and Nubefact take it). */
export const GUIDE_WEIGHT_UNITS = ['KGM', 'TNE'] as const;
export type GuideWeightUnit = (typeof GUIDE_WEIGHT_UNITS)[number];

/** The retention and perception vouchers. */
export const VOUCHER_DOCUMENT_TYPES = ['20', '40'] as const;
export type VoucherDocumentType = (typeof VOUCHER_DOCUMENT_TYPES)[number];

/** Spec section 9: retention 3.00 %, perception 2.00 % (as decimal text, the form's default). */
export const RETENTION_PERCENT = '3.00';
export const PERCEPTION_PERCENT = '2.00';

/** The documents a retention or perception voucher may relate (catalogue 01). */
export const VOUCHER_RELATED_TYPES = ['01', '03', '07', '08', '12'] as const;
export type VoucherRelatedType = (typeof VOUCHER_RELATED_TYPES)[number];

export const VOUCHER_RELATED_TYPE_LABELS: Record<VoucherRelatedType, string> = {
  '01': 'Factura',
  '03': 'Boleta de venta',
  '07': 'Nota de crédito',
  '08': 'Nota de débito',
  '12': 'Ticket de máquina registradora',
};

export const isTransferReason = (v: unknown): v is TransferReason => includes(TRANSFER_REASONS, v);
export const isTransportType = (v: unknown): v is TransportType => includes(TRANSPORT_TYPES, v);
export const isGuideUnit = (v: unknown): v is GuideUnit => includes(GUIDE_UNITS, v);
export const isGuideDocumentType = (v: unknown): v is GuideDocumentType => includes(GUIDE_DOCUMENT_TYPES, v);
export const isVoucherRelatedType = (v: unknown): v is VoucherRelatedType => includes(VOUCHER_RELATED_TYPES, v);

/**
 * How a document is undone and what the user is told: SUNAT voids facturas and boletas
 * (comunicación de baja or resumen diario), gives guides de baja, and reverses (revierte)
 * retention and perception vouchers.
 */
export function voidWordsFor(type: SunatDocumentType): { action: 'Anular' | 'Dar de baja' | 'Revertir'; reasonLabel: string; notice: string } {
  if (type === '20' || type === '40') {
    return { action: 'Revertir', reasonLabel: 'Motivo de la reversión', notice: 'La reversión se comunica a SUNAT y no se puede deshacer.' };
  }
  if (type === '09' || type === '31') {
    return { action: 'Dar de baja', reasonLabel: 'Motivo de la baja', notice: 'La baja de la guía se comunica a SUNAT y no se puede deshacer.' };
  }
  return {
    action: 'Anular',
    reasonLabel: 'Motivo de la anulación',
    notice: 'La anulación se comunica a SUNAT (comunicación de baja o resumen diario) y no se puede deshacer.',
  };
}
