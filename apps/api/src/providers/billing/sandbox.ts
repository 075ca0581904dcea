import {
  carrierGuideSunatProblems,
  centsToString,
  DAY_MS,
  documentKey,
  formatDocumentNumber,
  limaDay,
  SUNAT_DOCUMENT_LABELS,
  sunatQrText,
  type SunatDocumentType,
} from '@tramo/domain';
import { fingerprint } from '../../lib/fingerprint.ts';
import { buildVoidSummary, summarySourceOf, sunatTicket, type SummarySource } from './sandbox-voids.ts';
import { demoSigningKey, signUbl, type SigningKey } from './signature.ts';
import {
  BillingProviderError,
  type BillingDocument,
  type BillingIssuer,
  type BillingProvider,
  type ConsultResult,
  type DocumentRef,
  type GuideDocument,
  type Json,
  type ProviderStatus,
  type VoidResult,
  type VoidSummary,
  type VoucherDocument,
} from './types.ts';
import { modifiedKey, rejectionOf, sunatRejection, type ModifiedState } from './sandbox-rules.ts';
import { buildUbl } from './ubl.ts';
import { buildDespatchAdvice, buildVoucherUbl } from './ubl-guides.ts';

/*
 * The offline provider: it plays SUNAT (and an OSE) so the product can be demonstrated and tested
 * without network. It builds and signs the UBL XML, keeps what SUNAT would keep, and accepts
 * asynchronously as SUNAT does: a factura (and its notes) is accepted on receipt; a boleta (and its
 * notes) travels in the resumen diario and stays 'pendiente' for a while; a void (comunicación de
 * baja / resumen) stays 'anulación pendiente' for a while. A dispatch guide (GRE) is accepted only
 * after `guideDelayMs`, and only then carries its QR (SUNAT's link), so the polling path is real;
 * a retention or perception voucher is accepted on receipt and reversed at once. Every status is computed from stored
 * timestamps and the injected clock, so any process answers the same and tests move time freely.
 */

/** What the sandbox keeps of one document (the caller backs it with a table). */
export interface SandboxRecord {
  key: string;
  type: SunatDocumentType;
  series: string;
  number: number;
  issueDate: string;
  /** A boleta or one of its notes: sent in SUNAT's daily summary, voided by summary (RC), no 7-day window. */
  viaDailySummary: boolean;
  /** SHA-256 of the document's content: a retry must carry the same document. */
  fingerprint: string;
  hash: string;
  qrText: string;
  xml: string;
  /** ISO instants. */
  receivedAt: string;
  acceptedAt: string;
  /** Set when the sandbox was told to reject this document. */
  rejection: { code: string; description: string } | null;
  voidRequestedAt: string | null;
  voidedAt: string | null;
  voidReason: string | null;
  voidTicket: string | null;
  /** The signed RA or RC of the void; absent on older records. */
  voidSummary?: VoidSummary | null;
  /** A boleta's or note's customer and amounts, for the resumen diario that may void it; absent on older records. */
  summarySource?: SummarySource;
  /** '3' when a boleta was voided before its daily summary, which then reports it voided; absent on older records. */
  summaryStatus?: '3' | null;
}

/** Storage for what the sandbox keeps, by `type-series-number` (documentKey). */
export interface SandboxStore {
  get(key: string): Promise<SandboxRecord | null>;
  put(record: SandboxRecord): Promise<void>;
  /** Keeps `record` unless its key already holds one, in one write: null when kept, else the record the key holds. */
  add(record: SandboxRecord): Promise<SandboxRecord | null>;
  /** Takes `key` if nobody holds it (insert if absent): false when it was taken. The RA/RC correlatives. */
  claim(key: string): Promise<boolean>;
}

/** For tests and throwaway runs; the app backs the store with a table. */
export function memorySandboxStore(): SandboxStore {
  const records = new Map<string, SandboxRecord>();
  const claimed = new Set<string>();
  return {
    claim: async (key) => !claimed.has(key) && Boolean(claimed.add(key)),
    get: async (key) => {
      const record = records.get(key);
      return record ? structuredClone(record) : null;
    },
    put: async (record) => {
      records.set(record.key, structuredClone(record));
    },
    add: async (record) => {
      const held = records.get(record.key);
      if (held) return structuredClone(held);
      records.set(record.key, structuredClone(record));
      return null;
    },
  };
}

/**
 * Failures to inject, consumed one per call in order (tests only; nothing else sets them):
 * - `timeout`: the call times out before the sandbox did anything;
 * - `lost-answer`: the sandbox keeps the document, then the answer is lost (a timeout): the retry
 *   or a consult must find it, with the same number;
 * - `network`, `internal`: like a refused connection or a provider's 5xx;
 * - `sunat-rejects` (emit only): SUNAT rejects the document (status 'rechazado').
 */
export type SandboxFailure = 'timeout' | 'lost-answer' | 'network' | 'internal' | 'sunat-rejects';

export interface SandboxFailures {
  emit?: SandboxFailure[];
  consult?: SandboxFailure[];
  /** emitGuide, emitRetention and emitPerception consume these, as `emit` for invoices. */
  emitOther?: SandboxFailure[];
  void?: SandboxFailure[];
  voidStatus?: SandboxFailure[];
}

export interface SandboxOptions {
  issuer: BillingIssuer;
  store: SandboxStore;
  /** Where the demo certificate is created at first use and kept (the data dir in the app). */
  certificateDir: string;
  clock?: () => Date;
  /** How long a boleta (and its notes) stays 'pendiente' before SUNAT accepts it. */
  boletaDelayMs?: number;
  /** How long a void stays 'anulación pendiente'. */
  voidDelayMs?: number;
  /** How long a dispatch guide stays 'pendiente' before SUNAT accepts it (BILLING_SANDBOX_GUIDE_DELAY_MS). */
  guideDelayMs?: number;
  failures?: SandboxFailures;
}

export const SANDBOX_DEFAULTS = { boletaDelayMs: 20_000, voidDelayMs: 30_000, guideDelayMs: 5_000 } as const;

/** SUNAT allows a comunicación de baja within 7 calendar days of the issue date. */
const VOID_WINDOW_DAYS = 7;

export const SANDBOX_MESSAGES = {
  timeout: 'El proveedor de facturación no respondió a tiempo; el comprobante queda pendiente hasta consultarlo.',
  network: 'No se pudo conectar con el proveedor de facturación.',
  internal: 'El proveedor de facturación tuvo un error interno; vuelve a intentar más tarde.',
  exists: (id: string) => `El número ${id} ya fue usado por otro comprobante.`,
  notFound: (id: string) => `El comprobante ${id} no existe en el proveedor.`,
  voidRejected: 'Un comprobante rechazado por SUNAT no se anula.',
  voidNotAccepted: 'SUNAT aún no acepta el comprobante; consúltalo y vuelve a intentar la anulación.',
  voidTooLate: 'Pasaron más de 7 días desde la emisión: anula la factura con una nota de crédito (motivo 01).',
  reasonRequired: 'El motivo de la anulación es obligatorio.',
  noVoidRequested: (id: string) => `No hay una anulación solicitada para ${id}.`,
  notAGuide: (id: string) => `${id} no es una guía de remisión.`,
  notAVoucher: (id: string) => `${id} no es un comprobante de retención ni de percepción.`,
  reversalNotAccepted: 'SUNAT no aceptó el comprobante; no hay nada que revertir.',
} as const;

const isGuide = (type: SunatDocumentType) => type === '09' || type === '31';
const isVoucher = (type: SunatDocumentType) => type === '20' || type === '40';
/** Where SUNAT's GRE QR points (the guide's public consultation). */
export const GRE_QR_BASE = 'https://e-factura.sunat.gob.pe/v1/contribuyente/gre/comprobantes/descargaqr';

/** The rejection `sunat-rejects` injects: SUNAT's words and, after them, how to fix it (sunat-hints.ts). */
const REJECTION = rejectionOf('2800');

/** Facturas and their notes are sent one by one and answered at once; boletas and theirs go in the daily summary. */
function viaDailySummary(doc: BillingDocument): boolean {
  return doc.type === '03' || (doc.type === '07' && doc.creditNote?.modifiedType === '03');
}

function fail(failure: SandboxFailure): never {
  if (failure === 'network') throw new BillingProviderError('network', SANDBOX_MESSAGES.network);
  if (failure === 'internal') throw new BillingProviderError('internal', SANDBOX_MESSAGES.internal, 500);
  throw new BillingProviderError('timeout', SANDBOX_MESSAGES.timeout);
}

export function sandboxBillingProvider(options: SandboxOptions): BillingProvider {
  const clock = options.clock ?? (() => new Date());
  const boletaDelayMs = options.boletaDelayMs ?? SANDBOX_DEFAULTS.boletaDelayMs;
  const voidDelayMs = options.voidDelayMs ?? SANDBOX_DEFAULTS.voidDelayMs;
  const guideDelayMs = options.guideDelayMs ?? SANDBOX_DEFAULTS.guideDelayMs;
  const { store, issuer } = options;
  let signingKey: Promise<SigningKey> | null = null;
  const key = () => (signingKey ??= demoSigningKey(options.certificateDir));

  const nextFailure = (call: keyof SandboxFailures) => options.failures?.[call]?.shift();

  const displayId = (r: { series: string; number: number }) => formatDocumentNumber(r.series, r.number);

  async function find(ref: DocumentRef): Promise<SandboxRecord> {
    const record = await store.get(documentKey(ref.type, ref.series, ref.number));
    if (!record) throw new BillingProviderError('not_found', SANDBOX_MESSAGES.notFound(displayId(ref)), 404);
    return record;
  }

  /** What the sandbox holds of the document a credit note modifies (null: not a note). */
  async function modifiedState(doc: BillingDocument): Promise<ModifiedState | null> {
    const key = modifiedKey(doc);
    if (!key) return null;
    const modified = await store.get(key);
    if (!modified) return 'missing';
    if (modified.rejection) return 'rejected';
    // A comunicación de baja already sent counts: SUNAT refuses notes to a document being voided.
    if (modified.voidRequestedAt !== null) return 'voided';
    return 'ok';
  }

  function statusOf(r: SandboxRecord, now: Date): ProviderStatus {
    if (r.rejection) return 'rechazado';
    return now >= new Date(r.acceptedAt) ? 'aceptado' : 'pendiente';
  }

  function answer(r: SandboxRecord): ConsultResult {
    const now = clock();
    const status = statusOf(r, now);
    const label = SUNAT_DOCUMENT_LABELS[r.type];
    const sunatCode = status === 'aceptado' ? '0' : status === 'rechazado' ? r.rejection!.code : null;
    const guide = isGuide(r.type);
    const sunatDescription =
      status === 'aceptado'
        ? `La ${label} número ${r.series}-${r.number}, ha sido aceptada`
        : status === 'rechazado'
          ? r.rejection!.description
          : guide
            ? `${label} ${r.series}-${r.number} recibida; SUNAT aún no la acepta.`
            : `${label} ${r.series}-${r.number} recibida; se envía a SUNAT en el resumen diario.`;
    // A guide's QR is SUNAT's link to it, which exists only once SUNAT accepted it.
    const qrText = guide && status !== 'aceptado' ? null : r.qrText;
    const voided = r.voidedAt !== null && now >= new Date(r.voidedAt);
    const raw: Json = {
      proveedor: 'sandbox',
      tipo: r.type,
      serie: r.series,
      numero: r.number,
      estado: status,
      aceptada_por_sunat: status === 'aceptado',
      sunat_responsecode: sunatCode,
      sunat_description: sunatDescription,
      codigo_hash: r.hash,
      cadena_para_codigo_qr: qrText,
      recibido_en: r.receivedAt,
      anulado: voided,
    };
    return { status, hash: r.hash, qrText, sunatCode, sunatDescription, links: null, xml: r.xml, raw, voided };
  }

  function voidAnswer(r: SandboxRecord): VoidResult {
    const voided = clock() >= new Date(r.voidedAt!);
    const status = voided ? 'anulado' : 'anulación pendiente';
    // As SUNAT's CDR words it: the summary by its id, else (an older record) by its ticket.
    const sent = r.voidSummary?.kind === 'RC' ? 'El resumen diario' : 'La comunicación de baja';
    const name = r.voidSummary?.id ?? r.voidTicket;
    const sunatDescription = isVoucher(r.type)
      ? `La reversión ${r.voidTicket} ha sido aceptada`
      : voided
        ? `${sent} ${name} ha sido ${r.voidSummary?.kind === 'RC' ? 'aceptado' : 'aceptada'}`
        : `${sent} ${name} (ticket ${r.voidTicket}) está en proceso en SUNAT.`;
    const raw: Json = {
      proveedor: 'sandbox',
      tipo: r.type,
      serie: r.series,
      numero: r.number,
      sunat_ticket_numero: r.voidTicket,
      aceptada_por_sunat: voided,
      sunat_responsecode: voided ? '0' : null,
      sunat_description: sunatDescription,
      motivo: r.voidReason,
      ...(r.summaryStatus ? { estado_en_resumen: r.summaryStatus } : {}),
      ...(r.voidSummary ? { resumen: r.voidSummary.id } : {}),
    };
    return { status, ticket: r.voidTicket, sunatCode: voided ? '0' : null, sunatDescription, raw, summary: r.voidSummary ?? null };
  }

  /** Stores and answers a guide or voucher the way `emit` does an invoice (idempotent by series-number). */
  async function emitOther(
    doc: GuideDocument | VoucherDocument,
    xml: string,
    qrOf: (hash: string) => string,
    delayMs: number,
    sunatRejection: { code: string; description: string } | null = null,
  ) {
    const failure = nextFailure('emitOther');
    if (failure === 'timeout' || failure === 'network' || failure === 'internal') fail(failure);
    const docKey = documentKey(doc.type, doc.series, doc.number);
    const print = fingerprint(doc);
    const signed = signUbl(xml, await key());
    const now = clock();
    const record: SandboxRecord = {
      key: docKey,
      type: doc.type,
      series: doc.series,
      number: doc.number,
      issueDate: doc.issueDate,
      viaDailySummary: false,
      fingerprint: print,
      hash: signed.hash,
      qrText: qrOf(signed.hash),
      xml: signed.xml,
      receivedAt: now.toISOString(),
      acceptedAt: new Date(now.getTime() + delayMs).toISOString(),
      rejection: failure === 'sunat-rejects' ? REJECTION : sunatRejection,
      voidRequestedAt: null,
      voidedAt: null,
      voidReason: null,
      voidTicket: null,
    };
    return keep(record, failure);
  }

  /**
   * Keeps a received document under its series-number, in one write: a retry of the same document
   * answers what the first attempt got (and is not received again); another document may not take
   * its number. The record is built before this, so a retry signs again; it is a retry's only cost.
   */
  async function keep(record: SandboxRecord, failure: SandboxFailure | undefined) {
    const held = await store.add(record);
    if (held) {
      if (held.fingerprint !== record.fingerprint) throw new BillingProviderError('exists', SANDBOX_MESSAGES.exists(displayId(record)), 409);
      return answer(held);
    }
    if (failure === 'lost-answer') fail('timeout');
    return answer(record);
  }

  async function emitVoucher(v: VoucherDocument) {
    const [y, m, d] = v.issueDate.split('-');
    const qrOf = (hash: string) =>
      [
        issuer.ruc,
        v.type,
        v.series,
        String(v.number).padStart(6, '0'),
        centsToString(v.amountTotalCents),
        centsToString(v.netTotalCents),
        `${d}/${m}/${y}`,
        String(v.subject.docType),
        v.subject.docNumber,
        hash,
        '',
      ].join('|');
    return emitOther(v, buildVoucherUbl(v, issuer), qrOf, 0);
  }

  async function findOf(ref: DocumentRef, accept: (type: SunatDocumentType) => boolean, message: (id: string) => string) {
    if (!accept(ref.type)) throw new BillingProviderError('rejected', message(displayId(ref)), 400);
    return find(ref);
  }

  return {
    name: 'sandbox',

    async emitGuide(g) {
      if (!isGuide(g.type)) throw new BillingProviderError('rejected', SANDBOX_MESSAGES.notAGuide(displayId(g)), 400);
      // SUNAT's GRE QR is a link to the guide on its site, keyed by the guide's hash.
      const qrOf = (hash: string) =>
        `${GRE_QR_BASE}?hashqr=${encodeURIComponent(Buffer.from(`${issuer.ruc}-${g.type}-${g.series}-${g.number}|${hash}`).toString('base64url'))}`;
      // SUNAT refuses a GRE-T without what its validation asks (issue 36): the first objection, code and hint.
      const objection = g.type === '31' ? carrierGuideSunatProblems(g)[0] : undefined;
      const rejection = objection ? { code: objection.code, description: `${objection.code}: ${objection.hint}` } : null;
      return emitOther(g, buildDespatchAdvice(g, issuer), qrOf, guideDelayMs, rejection);
    },

    async consultGuide(ref) {
      const failure = nextFailure('consult');
      if (failure) fail(failure);
      return answer(await findOf(ref, isGuide, SANDBOX_MESSAGES.notAGuide));
    },

    async emitRetention(v) {
      if (v.type !== '20') throw new BillingProviderError('rejected', SANDBOX_MESSAGES.notAVoucher(displayId(v)), 400);
      return emitVoucher(v);
    },

    async emitPerception(v) {
      if (v.type !== '40') throw new BillingProviderError('rejected', SANDBOX_MESSAGES.notAVoucher(displayId(v)), 400);
      return emitVoucher(v);
    },

    async consultVoucher(ref) {
      const failure = nextFailure('consult');
      if (failure) fail(failure);
      return answer(await findOf(ref, isVoucher, SANDBOX_MESSAGES.notAVoucher));
    },

    async reverseVoucher(ref, reason) {
      const failure = nextFailure('void');
      if (failure && failure !== 'lost-answer') fail(failure);
      if (reason.trim() === '') throw new BillingProviderError('rejected', SANDBOX_MESSAGES.reasonRequired, 400);
      const record = await findOf(ref, isVoucher, SANDBOX_MESSAGES.notAVoucher);
      if (record.voidRequestedAt) return voidAnswer(record);
      const now = clock();
      if (statusOf(record, now) !== 'aceptado') throw new BillingProviderError('rejected', SANDBOX_MESSAGES.reversalNotAccepted, 422);
      // A reversión is answered at once (no ticket to wait for).
      record.voidRequestedAt = now.toISOString();
      record.voidedAt = now.toISOString();
      record.voidReason = reason.trim();
      record.voidTicket = sunatTicket(now);
      await store.put(record);
      if (failure === 'lost-answer') fail('timeout');
      return voidAnswer(record);
    },

    async emit(doc) {
      const failure = nextFailure('emit');
      if (failure === 'timeout' || failure === 'network' || failure === 'internal') fail(failure);
      const docKey = documentKey(doc.type, doc.series, doc.number);
      const print = fingerprint(doc);
      const signed = signUbl(buildUbl(doc, issuer), await key());
      const now = clock();
      // SUNAT checks the document against what it holds (a note's modified document) and its rules.
      const refusal = sunatRejection(doc, await modifiedState(doc));
      const record: SandboxRecord = {
        key: docKey,
        type: doc.type,
        series: doc.series,
        number: doc.number,
        issueDate: doc.issueDate,
        viaDailySummary: viaDailySummary(doc),
        fingerprint: print,
        hash: signed.hash,
        qrText: sunatQrText({
          issuerRuc: issuer.ruc,
          type: doc.type,
          series: doc.series,
          number: doc.number,
          igvCents: doc.totals.igvCents,
          totalCents: doc.totals.totalCents,
          issueDate: doc.issueDate,
          customerDocType: doc.customer.docType,
          customerDocNumber: doc.customer.docNumber,
          hash: signed.hash,
        }),
        xml: signed.xml,
        summarySource: summarySourceOf(doc),
        receivedAt: now.toISOString(),
        acceptedAt: new Date(now.getTime() + (viaDailySummary(doc) ? boletaDelayMs : 0)).toISOString(),
        rejection: failure === 'sunat-rejects' ? REJECTION : refusal,
        voidRequestedAt: null,
        voidedAt: null,
        voidReason: null,
        voidTicket: null,
      };
      return keep(record, failure);
    },

    async consult(ref) {
      const failure = nextFailure('consult');
      if (failure) fail(failure);
      return answer(await find(ref));
    },

    async void(ref, reason) {
      const failure = nextFailure('void');
      if (failure && failure !== 'lost-answer') fail(failure);
      if (reason.trim() === '') throw new BillingProviderError('rejected', SANDBOX_MESSAGES.reasonRequired, 400);
      const record = await find(ref);
      // Asking again answers the request already made (a retry after a lost answer).
      if (record.voidRequestedAt) return voidAnswer(record);
      const now = clock();
      const status = statusOf(record, now);
      if (status === 'rechazado') throw new BillingProviderError('rejected', SANDBOX_MESSAGES.voidRejected, 422);
      // A boleta not yet in a daily summary goes in it voided (estado 3), answered with that summary.
      const inSummary = status === 'pendiente' && record.type === '03';
      if (status === 'pendiente' && !inSummary) throw new BillingProviderError('rejected', SANDBOX_MESSAGES.voidNotAccepted, 422);
      const daysSinceIssue = (Date.parse(limaDay(now)) - Date.parse(record.issueDate)) / DAY_MS;
      if (!record.viaDailySummary && daysSinceIssue > VOID_WINDOW_DAYS) throw new BillingProviderError('rejected', SANDBOX_MESSAGES.voidTooLate, 422);
      // The RA or RC goes to SUNAT signed, and SUNAT answers it with a ticket of its own.
      const summary = await buildVoidSummary(record, reason.trim(), now, issuer, await key(), store.claim);
      record.voidRequestedAt = now.toISOString();
      record.voidedAt = new Date((inSummary ? Date.parse(record.acceptedAt) : now.getTime()) + voidDelayMs).toISOString();
      record.summaryStatus = inSummary ? '3' : null;
      record.voidReason = reason.trim();
      record.voidTicket = summary?.ticket ?? sunatTicket(now);
      record.voidSummary = summary;
      await store.put(record);
      if (failure === 'lost-answer') fail('timeout');
      return voidAnswer(record);
    },

    async voidStatus(ref) {
      const failure = nextFailure('voidStatus');
      if (failure) fail(failure);
      const record = await find(ref);
      if (!record.voidRequestedAt) throw new BillingProviderError('not_found', SANDBOX_MESSAGES.noVoidRequested(displayId(ref)), 404);
      return voidAnswer(record);
    },
  };
}
