import type { DocumentStatus, GuideDraft, InvoiceDraft, SunatDocumentType, VoucherDraft } from '@tramo/domain';

/*
 * The billing provider (DESIGN.md section 1): where a numbered SUNAT document goes to become legal.
 * Two adapters: `sandbox` (offline default) and `nubefact` (the real JSON API).
 *
 * The provider never numbers. The caller takes the next number of the series in its own
 * transaction (a counter row per type and series), stores the document, and only then calls
 * `emit`. A retry after a timeout sends the very same series-number, so whatever happened to the
 * first attempt, one document can never get a second number.
 *
 * Guides and vouchers (issue 15) add emitGuide / consultGuide / emitRetention / emitPerception /
 * consultVoucher / reverseVoucher next to these four, taking their own documents and answering the
 * same results. A guide (GRE) is accepted by SUNAT asynchronously: the first answer is 'pendiente'
 * with no links and no QR; consultGuide completes it.
 */

/** The company that issues (RUC, legal name, fiscal address): the sandbox prints and signs with it. */
export interface BillingIssuer {
  ruc: string;
  /** Razón social. */
  name: string;
  /** Nombre comercial, printed above the legal name when given. */
  tradeName?: string | null;
  address: string;
  ubigeo: string;
  district: string;
  province: string;
  department: string;
  /** SUNAT establishment code of the fiscal address ('0000' for the main one). */
  establishmentCode: string;
  phone?: string | null;
  email?: string | null;
}

/** How a document is known to SUNAT and to a provider: type, series and number. */
export interface DocumentRef {
  type: SunatDocumentType;
  series: string;
  number: number;
}

/** A document ready to issue: the domain's checked draft, numbered and timed by the caller. */
export interface BillingDocument extends InvoiceDraft {
  number: number;
  /** Lima wall-clock time of issue, HH:MM:SS (UBL IssueTime). */
  issueTime: string;
}

/** A dispatch guide ready to issue (GRE-R 09 or GRE-T 31): the domain's checked draft, numbered and timed. */
export interface GuideDocument extends GuideDraft {
  number: number;
  /** Lima wall-clock time of issue, HH:MM:SS. */
  issueTime: string;
}

/** A retention (20) or perception (40) voucher ready to issue. */
export interface VoucherDocument extends VoucherDraft {
  number: number;
  issueTime: string;
}

/** What SUNAT said about a document, as far as the provider knows. */
export type ProviderStatus = Extract<DocumentStatus, 'aceptado' | 'pendiente' | 'rechazado'>;

/** What SUNAT said about a void request. */
export type VoidStatus = Extract<DocumentStatus, 'anulación pendiente' | 'anulado' | 'rechazado'>;

/** JSON as stored: every provider answer is kept as it came (DESIGN.md section 5). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface DocumentLinks {
  pdf: string | null;
  xml: string | null;
  cdr: string | null;
}

export interface EmitResult {
  status: ProviderStatus;
  /** Base64 digest of the signed XML (the document's hash, printed and in the QR). */
  hash: string | null;
  /** The SUNAT QR text: RUC|TIPO|SERIE|NUMERO|IGV|TOTAL|FECHA|TIPO_DOC|NUM_DOC|HASH| */
  qrText: string | null;
  /** SUNAT's answer code ('0' accepted; 2000–3999 rejected; 4000+ accepted with observations). */
  sunatCode: string | null;
  sunatDescription: string | null;
  /** Where the provider keeps the files (Nubefact); null when the files come as bytes. */
  links: DocumentLinks | null;
  /** The signed UBL XML when the provider hands the bytes (sandbox); the PDF is rendered by pdf.ts. */
  xml: string | null;
  /** The provider's answer exactly as received, for the document's history. */
  raw: Json;
}

export interface ConsultResult extends EmitResult {
  /** The provider already counts the document as voided. */
  voided: boolean;
}

/** The signed document that asked SUNAT to void: a comunicación de baja (RA) or a resumen diario (RC). */
export interface VoidSummary {
  kind: 'RA' | 'RC';
  /** `RA-20261126-1`: its kind, the day it was generated and that day's correlative. */
  id: string;
  /** SUNAT's ticket for it. */
  ticket: string;
  /** The signed UBL 2.0 XML (VoidedDocuments or SummaryDocuments). */
  xml: string;
  hash: string;
}

export interface VoidResult {
  status: VoidStatus;
  /** SUNAT's ticket for the comunicación de baja / resumen diario, when there is one. */
  ticket: string | null;
  sunatCode: string | null;
  sunatDescription: string | null;
  raw: Json;
  /** The RA or RC as sent, when the provider hands its bytes (sandbox). */
  summary?: VoidSummary | null;
}

export interface BillingProvider {
  readonly name: 'sandbox' | 'nubefact';
  /** Issues a numbered document; idempotent by series-number (a retry answers the first result). */
  emit(document: BillingDocument): Promise<EmitResult>;
  /** What SUNAT says now about an issued document (completes a 'pendiente' one). */
  consult(ref: DocumentRef): Promise<ConsultResult>;
  /** Asks SUNAT to void an issued document (comunicación de baja or resumen diario). */
  void(ref: DocumentRef, reason: string): Promise<VoidResult>;
  /** Where a void request stands. */
  voidStatus(ref: DocumentRef): Promise<VoidResult>;
  /** Issues a numbered dispatch guide; idempotent by series-number. Usually answers 'pendiente' first. */
  emitGuide(guide: GuideDocument): Promise<EmitResult>;
  /** What SUNAT says now about a guide: once 'aceptado' it carries the QR (and Nubefact's links). */
  consultGuide(ref: DocumentRef): Promise<ConsultResult>;
  /** Issues a numbered retention voucher (type 20); idempotent by series-number. */
  emitRetention(voucher: VoucherDocument): Promise<EmitResult>;
  /** Issues a numbered perception voucher (type 40); idempotent by series-number. */
  emitPerception(voucher: VoucherDocument): Promise<EmitResult>;
  /** What SUNAT says now about a retention or perception voucher (`voided` once reversed). */
  consultVoucher(ref: DocumentRef): Promise<ConsultResult>;
  /** Reverses (revierte) a retention or perception voucher: SUNAT's void for them. */
  reverseVoucher(ref: DocumentRef, reason: string): Promise<VoidResult>;
}

/**
 * Why a provider call failed. `timeout`, `network`, `malformed` and `internal` leave the document
 * 'pendiente': the request may or may not have taken effect, and a consult or a retry with the same
 * number settles it.
 */
export const BILLING_ERROR_KINDS = ['timeout', 'network', 'malformed', 'rejected', 'exists', 'not_found', 'auth', 'suspended', 'internal'] as const;
export type BillingErrorKind = (typeof BILLING_ERROR_KINDS)[number];

export class BillingProviderError extends Error {
  override readonly name = 'BillingProviderError';

  constructor(
    readonly kind: BillingErrorKind,
    /** Spanish, shown to the user; never carries a token. */
    message: string,
    /** The provider's HTTP status, null when no answer came (timeout, network). */
    readonly httpStatus: number | null = null,
    /** The provider's own error code (Nubefact `codigo`). */
    readonly providerCode: string | null = null,
    /** The provider's answer, when there was one. */
    readonly raw: Json = null,
  ) {
    super(message);
  }

  /** The outcome is unknown: keep the document 'pendiente' and consult or retry with the same number. */
  get uncertain(): boolean {
    return this.kind === 'timeout' || this.kind === 'network' || this.kind === 'malformed' || this.kind === 'internal';
  }
}
