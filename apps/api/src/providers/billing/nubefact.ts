import { z } from 'zod';
import {
  centsToNumber,
  documentKey,
  explainProviderError,
  explainSunatAnswer,
  formatDocumentNumber,
  type FreightTrip,
  type IgvType,
  type InvoiceDocumentType,
} from '@tramo/domain';
import {
  BillingProviderError,
  type BillingDocument,
  type BillingErrorKind,
  type BillingProvider,
  type ConsultResult,
  type DocumentRef,
  type Json,
  type ProviderStatus,
  type VoidResult,
} from './types.ts';
import { ddmmyyyy, guideRequest, NUBEFACT_GUIDE_TYPE, voucherRequest } from './nubefact-guides.ts';

/** Shown when a guide is voided through Nubefact, which cannot do it. */
export const GUIDE_VOID_REFUSAL = 'Nubefact no anula guías de remisión: dala de baja en SUNAT Operaciones en Línea (SOL).';

/*
 * Nubefact's JSON API (SUNAT.md "Nubefact JSON API"): one URL per account, a token in
 * `Authorization: Token token="…"`, every operation a POST of JSON naming its `operacion`.
 * Nubefact numbers nothing for us: we send the series-number our counter row gave, and
 * `codigo_unico` = type-series-number, so a retry can only ever meet the first attempt.
 * The token travels only in that header; it is scrubbed from anything the provider echoes.
 */

export interface NubefactOptions {
  /** The account's route, e.g. https://api.nubefact.com/api/v1/<uuid>. */
  url: string;
  token: string;
  /** How long to wait for an answer before leaving the document 'pendiente'. */
  timeoutMs?: number;
}

export const NUBEFACT_DEFAULT_TIMEOUT_MS = 15_000;

/** Nubefact's own numbering of the documents (tipo_de_comprobante). */
export const NUBEFACT_DOCUMENT_TYPE: Record<InvoiceDocumentType, 1 | 2 | 3> = { '01': 1, '03': 2, '07': 3 };

/** Nubefact's own numbering of the IGV treatments (tipo_de_igv): 1 gravado, 8 exonerado, 9 inafecto. */
export const NUBEFACT_IGV_TYPE: Record<IgvType, 1 | 8 | 9> = { '10': 1, '20': 8, '30': 9 };

/** sunat_transaction: 1 venta interna, 33 operación sujeta a detracción – servicio de transporte de carga. */
export const NUBEFACT_TRANSACTION = { ventaInterna: 1, detraccionTransporteCarga: 33 } as const;

/**
 * detraccion_tipo is Nubefact's own table, not SPOT's code: SPOT 027 (servicio de transporte de
 * carga) is row 25 there (SUNAT.md; integrations' mapping tables agree: "027": 25).
 */
export const NUBEFACT_DETRACTION_FREIGHT = 25;

/** Nubefact error codes (`{errors, codigo}`) and what each means for the caller. */
export const NUBEFACT_ERRORS: Record<number, { kind: BillingErrorKind; message: string }> = {
  10: { kind: 'auth', message: 'Nubefact no aceptó el token de acceso (código 10). Revisa NUBEFACT_TOKEN.' },
  11: { kind: 'auth', message: 'La ruta de Nubefact no es válida (código 11). Revisa NUBEFACT_URL.' },
  12: { kind: 'internal', message: 'Nubefact no aceptó el formato de la solicitud (código 12).' },
  20: { kind: 'rejected', message: 'Nubefact rechazó el documento por un dato inválido (código 20)' },
  21: { kind: 'rejected', message: 'Nubefact no pudo completar la operación (código 21)' },
  22: { kind: 'rejected', message: 'La fecha del documento está fuera del plazo que SUNAT permite (código 22)' },
  23: { kind: 'exists', message: 'El documento ya existe en Nubefact (código 23).' },
  24: { kind: 'not_found', message: 'El documento no existe en Nubefact (código 24).' },
  40: { kind: 'internal', message: 'Nubefact tuvo un error interno (código 40); vuelve a intentar más tarde.' },
  50: { kind: 'suspended', message: 'La cuenta de Nubefact está suspendida (código 50).' },
  51: { kind: 'suspended', message: 'La cuenta de Nubefact está suspendida por falta de pago (código 51).' },
};

export const NUBEFACT_MESSAGES = {
  timeout: 'Nubefact no respondió a tiempo; el comprobante queda pendiente y se completa al consultarlo.',
  network: 'No se pudo conectar con Nubefact.',
  malformed: 'Nubefact respondió algo que no se pudo leer; el comprobante queda pendiente hasta consultarlo.',
  unknownCode: (code: number) => `Nubefact respondió con el código ${code}`,
  bareStatus: (status: number) => `HTTP ${status}: Nubefact respondió sin detalle del error.`,
} as const;

const soles = centsToNumber;

/**
 * Nubefact's eight fields of a freight detracción ("condicional, solo en tipo detracción de
 * transporte de carga"): one trip per document. Its manual types the ubigeos as 6-digit integers,
 * but 040101 (Arequipa) as a JSON number loses its leading zero, so they go as 6-digit text.
 */
function freightTripFields(trip: FreightTrip): Record<string, unknown> {
  return {
    ubigeo_origen: trip.originUbigeo,
    direccion_origen: trip.originAddress,
    ubigeo_destino: trip.destinationUbigeo,
    direccion_destino: trip.destinationAddress,
    detalle_viaje: trip.detail,
    val_ref_serv_trans: soles(trip.serviceReferenceCents),
    val_ref_carga_efec: soles(trip.effectiveLoadReferenceCents),
    val_ref_carga_util: soles(trip.nominalLoadReferenceCents),
  };
}

function invoiceRequest(doc: BillingDocument): Record<string, unknown> {
  const t = doc.totals;
  const note = doc.creditNote;
  const detraction = doc.detraction;
  const credit = doc.payment.form === 'credito';
  return {
    operacion: 'generar_comprobante',
    tipo_de_comprobante: NUBEFACT_DOCUMENT_TYPE[doc.type],
    serie: doc.series,
    numero: doc.number,
    sunat_transaction: detraction ? NUBEFACT_TRANSACTION.detraccionTransporteCarga : NUBEFACT_TRANSACTION.ventaInterna,
    // Catalogue 06 as text; a customer without a document is '-' ("varios") for Nubefact.
    cliente_tipo_de_documento: doc.customer.docType === 0 ? '-' : String(doc.customer.docType),
    cliente_numero_de_documento: doc.customer.docNumber,
    cliente_denominacion: doc.customer.name,
    cliente_direccion: doc.customer.address ?? '',
    cliente_email: doc.customer.email ?? '',
    fecha_de_emision: ddmmyyyy(doc.issueDate),
    fecha_de_vencimiento: doc.payment.dueDate ? ddmmyyyy(doc.payment.dueDate) : '',
    moneda: 1,
    porcentaje_de_igv: 18,
    descuento_global: '',
    total_descuento: t.discountCents ? soles(t.discountCents) : '',
    total_anticipo: '',
    total_gravada: soles(t.gravadaCents),
    total_inafecta: soles(t.inafectaCents),
    total_exonerada: soles(t.exoneradaCents),
    total_igv: soles(t.igvCents),
    total: soles(t.totalCents),
    // Nubefact takes the Banco de la Nación account from the account's settings, not from the request.
    detraccion: detraction !== null,
    ...(detraction && {
      detraccion_tipo: NUBEFACT_DETRACTION_FREIGHT,
      detraccion_total: soles(detraction.amountCents),
      detraccion_porcentaje: detraction.percent,
      medio_de_pago_detraccion: detraction.paymentMeans,
      ...(detraction.trip && freightTripFields(detraction.trip)),
    }),
    observaciones: doc.observations ?? '',
    documento_que_se_modifica_tipo: note ? NUBEFACT_DOCUMENT_TYPE[note.modifiedType] : '',
    documento_que_se_modifica_serie: note ? note.modifiedSeries : '',
    documento_que_se_modifica_numero: note ? note.modifiedNumber : '',
    tipo_de_nota_de_credito: note ? Number(note.reason) : '',
    enviar_automaticamente_a_la_sunat: true,
    enviar_automaticamente_al_cliente: false,
    codigo_unico: documentKey(doc.type, doc.series, doc.number),
    condiciones_de_pago: doc.payment.conditions ?? (credit ? 'Crédito' : 'Contado'),
    // Nubefact's credit-sale example marks the payment means so and lists the instalments below.
    medio_de_pago: credit ? 'venta_al_credito' : '',
    formato_de_pdf: 'A4',
    generado_por_contingencia: doc.contingency,
    items: doc.lines.map((l) => ({
      unidad_de_medida: l.unit,
      codigo: l.code ?? '',
      descripcion: l.description,
      cantidad: Number(l.quantity),
      valor_unitario: Number(l.unitValue),
      precio_unitario: Number(l.unitPrice),
      descuento: l.discountCents ? soles(l.discountCents) : '',
      subtotal: soles(l.subtotalCents),
      tipo_de_igv: NUBEFACT_IGV_TYPE[l.igvType],
      igv: soles(l.igvCents),
      total: soles(l.totalCents),
      anticipo_regularizacion: false,
    })),
    guias: doc.guides.map((g) => ({ guia_tipo: g.type, guia_serie_numero: `${g.series}-${g.number}` })),
    venta_al_credito: doc.payment.instalments.map((c, i) => ({
      cuota: i + 1,
      fecha_de_pago: ddmmyyyy(c.fecha_de_pago),
      importe: soles(c.importeCents),
    })),
  };
}

const text = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined || v === '' ? null : String(v)));

const documentAnswer = z.object({
  serie: z.string(),
  numero: z.union([z.number(), z.string()]).transform(Number),
  enlace: text,
  enlace_del_pdf: text,
  enlace_del_xml: text,
  enlace_del_cdr: text,
  aceptada_por_sunat: z.boolean(),
  sunat_description: text,
  sunat_note: text,
  sunat_responsecode: text,
  sunat_soap_error: text,
  cadena_para_codigo_qr: text,
  codigo_hash: text,
  anulado: z.boolean().optional(),
});

const voidAnswer = z.object({
  sunat_ticket_numero: text,
  aceptada_por_sunat: z.boolean(),
  sunat_description: text,
  sunat_responsecode: text,
  sunat_soap_error: text,
});

const errorAnswer = z.object({ errors: z.unknown(), codigo: z.union([z.number(), z.string()]).transform(Number) });

/** SUNAT's answer codes 2000–3999 are rejections; 0 and 4000+ (observations) are acceptances; the rest are still to be settled. */
function isRejection(code: string | null): boolean {
  const n = Number(code);
  return code !== null && Number.isInteger(n) && n >= 2000 && n < 4000;
}

export function nubefactBillingProvider(options: NubefactOptions): BillingProvider {
  const timeoutMs = options.timeoutMs ?? NUBEFACT_DEFAULT_TIMEOUT_MS;
  const scrub = (value: string) => (options.token ? value.split(options.token).join('***') : value);

  function providerError(status: number, body: unknown): BillingProviderError {
    const parsed = errorAnswer.safeParse(body);
    if (!parsed.success) {
      const kind: BillingErrorKind = status === 401 || status === 403 ? 'auth' : status >= 500 || status === 429 ? 'internal' : 'rejected';
      return new BillingProviderError(kind, NUBEFACT_MESSAGES.bareStatus(status), status, null, (body ?? null) as Json);
    }
    const { codigo, errors } = parsed.data;
    const detail = scrub(typeof errors === 'string' ? errors : JSON.stringify(errors ?? ''));
    const known = NUBEFACT_ERRORS[codigo];
    const base = known?.message ?? NUBEFACT_MESSAGES.unknownCode(codigo);
    // Rejections carry Nubefact's explanation (which field, which rule); the user needs it.
    // The rule it points at (a SUNAT code in the text, or the field its error 20 names) comes with
    // the same explanation of how to fix it as the sandbox gives (sunat-hints.ts).
    const message = !known || known.kind === 'rejected' ? explainProviderError(`${base}: ${detail}`) : base;
    return new BillingProviderError(known?.kind ?? 'internal', message, status, String(codigo), { errors: detail, codigo });
  }

  async function post(body: Record<string, unknown>): Promise<unknown> {
    let res: Response;
    let raw: string;
    try {
      res = await fetch(options.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Token token="${options.token}"` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      raw = await res.text();
    } catch (err) {
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
        throw new BillingProviderError('timeout', NUBEFACT_MESSAGES.timeout);
      throw new BillingProviderError('network', NUBEFACT_MESSAGES.network);
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      if (!res.ok) throw providerError(res.status, null);
      throw new BillingProviderError('malformed', NUBEFACT_MESSAGES.malformed, res.status, null, scrub(raw.slice(0, 2000)));
    }
    if (!res.ok || errorAnswer.safeParse(json).success) throw providerError(res.status, json);
    return json;
  }

  function readDocument(body: unknown, ref: DocumentRef): ConsultResult {
    const parsed = documentAnswer.safeParse(body);
    // An answer about another document is as unreadable as a broken one.
    if (!parsed.success || parsed.data.serie !== ref.series || parsed.data.numero !== ref.number) {
      throw new BillingProviderError('malformed', NUBEFACT_MESSAGES.malformed, 200, null, body as Json);
    }
    const a = parsed.data;
    const sunatCode = a.sunat_responsecode;
    const status: ProviderStatus = a.aceptada_por_sunat ? 'aceptado' : isRejection(sunatCode) ? 'rechazado' : 'pendiente';
    return {
      status,
      hash: a.codigo_hash,
      qrText: a.cadena_para_codigo_qr,
      sunatCode,
      sunatDescription:
        status === 'rechazado'
          ? explainSunatAnswer(sunatCode, a.sunat_description ?? a.sunat_soap_error ?? a.sunat_note)
          : (a.sunat_description ?? a.sunat_soap_error ?? a.sunat_note),
      links: { pdf: a.enlace_del_pdf ?? (a.enlace ? `${a.enlace}.pdf` : null), xml: a.enlace_del_xml, cdr: a.enlace_del_cdr },
      xml: null,
      raw: body as Json,
      voided: a.anulado ?? false,
    };
  }

  function readVoid(body: unknown): VoidResult {
    const parsed = voidAnswer.safeParse(body);
    if (!parsed.success) throw new BillingProviderError('malformed', NUBEFACT_MESSAGES.malformed, 200, null, body as Json);
    const a = parsed.data;
    const status = a.aceptada_por_sunat ? 'anulado' : isRejection(a.sunat_responsecode) ? 'rechazado' : 'anulación pendiente';
    return {
      status,
      ticket: a.sunat_ticket_numero,
      sunatCode: a.sunat_responsecode,
      sunatDescription: a.sunat_description ?? a.sunat_soap_error,
      raw: body as Json,
    };
  }

  const refBody = (operacion: string, ref: DocumentRef) => {
    if (ref.type !== '01' && ref.type !== '03' && ref.type !== '07') {
      throw new BillingProviderError('rejected', `Nubefact no emite ${formatDocumentNumber(ref.series, ref.number)} por esta vía.`);
    }
    return { operacion, tipo_de_comprobante: NUBEFACT_DOCUMENT_TYPE[ref.type], serie: ref.series, numero: ref.number };
  };

  const consult = async (ref: DocumentRef) => readDocument(await post(refBody('consultar_comprobante', ref)), ref);

  const guideRef = (ref: DocumentRef) => {
    if (ref.type !== '09' && ref.type !== '31') {
      throw new BillingProviderError('rejected', `${formatDocumentNumber(ref.series, ref.number)} no es una guía de remisión.`);
    }
    return { operacion: 'consultar_guia', tipo_de_comprobante: NUBEFACT_GUIDE_TYPE[ref.type], serie: ref.series, numero: ref.number };
  };
  const voucherKind = (ref: DocumentRef) => {
    if (ref.type === '20') return 'retencion';
    if (ref.type === '40') return 'percepcion';
    throw new BillingProviderError('rejected', `${formatDocumentNumber(ref.series, ref.number)} no es un comprobante de retención ni de percepción.`);
  };
  const consultGuide = async (ref: DocumentRef) => readDocument(await post(guideRef(ref)), ref);
  const consultVoucher = async (ref: DocumentRef) =>
    readDocument(await post({ operacion: `consultar_${voucherKind(ref)}`, serie: ref.series, numero: ref.number }), ref);

  /** Emits, and on code 23 (an earlier attempt got through) answers that attempt, as `emit` does. */
  async function emitThen(body: Record<string, unknown>, ref: DocumentRef, again: (ref: DocumentRef) => Promise<ConsultResult>) {
    try {
      return readDocument(await post(body), ref);
    } catch (err) {
      if (err instanceof BillingProviderError && err.kind === 'exists') return again(ref);
      throw err;
    }
  }
  const voidStatus = async (ref: DocumentRef) => readVoid(await post(refBody('consultar_anulacion', ref)));

  return {
    name: 'nubefact',

    async emit(doc) {
      const ref = { type: doc.type, series: doc.series, number: doc.number };
      try {
        return readDocument(await post(invoiceRequest(doc)), ref);
      } catch (err) {
        // Code 23 on our own series-number: the counter row gives each number to one stored
        // document only, so Nubefact holding it means an earlier attempt of this very document
        // got through and its answer was lost (a timeout). Consulting returns that attempt's
        // result; nothing is issued twice and no new number is taken.
        if (err instanceof BillingProviderError && err.kind === 'exists') return consult(ref);
        throw err;
      }
    },

    consult,

    async void(ref, reason) {
      // Nubefact's API has no operation that voids a guide (SUNAT.md lists none): a GRE is given
      // de baja in SUNAT's own portal. Say so instead of sending an anulación it would refuse.
      if (ref.type === '09' || ref.type === '31') throw new BillingProviderError('rejected', GUIDE_VOID_REFUSAL);
      try {
        return readVoid(
          await post({
            ...refBody('generar_anulacion', ref),
            motivo: reason.slice(0, 100),
            codigo_unico: documentKey(ref.type, ref.series, ref.number),
          }),
        );
      } catch (err) {
        // The same recovery as emit: a void already requested is answered by its status.
        if (err instanceof BillingProviderError && err.kind === 'exists') return voidStatus(ref);
        throw err;
      }
    },

    voidStatus,

    emitGuide: async (g) => emitThen(guideRequest(g), { type: g.type, series: g.series, number: g.number }, consultGuide),
    consultGuide,
    emitRetention: async (v) => emitThen(voucherRequest(v), { type: v.type, series: v.series, number: v.number }, consultVoucher),
    emitPerception: async (v) => emitThen(voucherRequest(v), { type: v.type, series: v.series, number: v.number }, consultVoucher),
    consultVoucher,

    async reverseVoucher(ref, reason) {
      const kind = voucherKind(ref);
      return readVoid(await post({ operacion: `generar_reversion_${kind}`, serie: ref.series, numero: ref.number, motivo: reason.slice(0, 100) }));
    },
  };
}
