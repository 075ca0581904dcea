import Big from 'big.js';
import { z } from 'zod';
import { isIsoDay } from '../dates.ts';
import { centsToString, type Cents } from '../money.ts';
import { decimalPlaces, parseDecimal } from './amounts.ts';
import { isVoucherRelatedType, PERCEPTION_PERCENT, RETENTION_PERCENT, type VoucherDocumentType, type VoucherRelatedType } from './catalogs.ts';
import { isContingency, seriesProblems } from './series.ts';
import { placeProblems, type FormProblems } from './invoice-form.ts';

/*
 * The retention (20) and perception (40) vouchers of spec section 3 and their rules of spec
 * section 5. A retention withholds a percentage (3.00 % by default) of what the company pays a
 * supplier; a perception charges a customer a percentage (2.00 % by default) on top of what it
 * collects. Each related document's amount is rounded half up to the céntimo and the voucher's total
 * is the sum of the rounded lines, as SUNAT adds them.
 */

export const VOUCHER_MESSAGES = {
  heading: 'Corrige:',
  seriesRequired: 'La serie es obligatoria.',
  issueDateRequired: 'La fecha de emisión es obligatoria.',
  issueDateInvalid: 'La fecha de emisión no es válida.',
  issueDateFuture: 'La fecha de emisión no puede ser posterior a hoy.',
  subjectDocument: (who: string) => `${who}: el documento debe tener 11 dígitos (RUC) u 8 dígitos (DNI).`,
  subjectName: (who: string) => `${who}: el nombre o razón social es obligatorio.`,
  percent: 'El porcentaje debe ser un número mayor que 0 y hasta 100, con hasta 2 decimales.',
  currency: 'La moneda debe ser 1 (soles).',
  relatedRequired: 'Agrega al menos un documento relacionado.',
  related: {
    type: (n: number) => `Documento relacionado ${n}: elige el tipo (01, 03, 07, 08 o 12).`,
    series: (n: number) => `Documento relacionado ${n}: la serie debe tener de 1 a 4 letras o números.`,
    number: (n: number) => `Documento relacionado ${n}: el número debe ser numérico.`,
    total: (n: number) => `Documento relacionado ${n}: el total debe ser un importe numérico mayor que 0, con hasta 2 decimales.`,
    date: (n: number) => `Documento relacionado ${n}: la fecha de emisión no es válida.`,
    paymentDate: (n: number) => `Documento relacionado ${n}: la fecha de pago no es válida.`,
    paymentAmount: (n: number) => `Documento relacionado ${n}: el importe del pago debe ser un importe mayor que 0, con hasta 2 decimales.`,
    paymentTooBig: (n: number) => `Documento relacionado ${n}: el importe del pago no puede superar el total del documento.`,
  },
  totalMismatch: (label: string, expected: string) => `El ${label} debe ser S/ ${expected}.`,
} as const;

const text = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .default('');
const decimalField = z.union([z.number(), z.string()]);

const subjectSchema = z.object({
  numero_de_documento: text,
  denominacion: text,
  direccion: z.string().trim().nullish(),
  email: z.string().trim().nullish(),
});

const relatedSchema = z.object({
  tipo: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim().padStart(2, '0'))
    .default(''),
  serie: z.string().trim().toUpperCase().default(''),
  numero: text,
  fecha_de_emision: z.string().trim().nullish(),
  moneda: z.union([z.number(), z.string()]).nullish(),
  total: decimalField.nullish(),
  /** The payment (retention) or collection (perception) the voucher is issued on. */
  pago_fecha: z.string().trim().nullish(),
  pago_numero: z.union([z.number(), z.string()]).nullish(),
  pago_importe: decimalField.nullish(),
});

const voucherSchema = (defaultPercent: string) =>
  z.object({
    serie: z.string().trim().toUpperCase().default(''),
    fecha_de_emision: text,
    observaciones: z.string().trim().max(500).nullish(),
    moneda: z.union([z.number(), z.string()]).default(1),
    /** Retention: the supplier; perception: the customer. Either name is accepted for both. */
    proveedor: subjectSchema.nullish(),
    cliente: subjectSchema.nullish(),
    porcentaje: decimalField.nullish().transform((v) => (v === null || v === undefined ? defaultPercent : v)),
    /** Optional: the total the form shows; when sent it must match the computed one. */
    total: decimalField.nullish(),
    documentos_relacionados: z.array(relatedSchema).default([]),
    codigo_unico: z.string().trim().max(20).nullish(),
  });

export const retentionPayloadSchema = voucherSchema(RETENTION_PERCENT);
export const perceptionPayloadSchema = voucherSchema(PERCEPTION_PERCENT);

export type VoucherPayloadInput = z.input<typeof retentionPayloadSchema>;
export type VoucherPayload = z.output<typeof retentionPayloadSchema>;

export interface VoucherLine {
  type: VoucherRelatedType;
  series: string;
  number: string;
  issueDate: string | null;
  /** The related document's total. */
  totalCents: Cents;
  paymentDate: string | null;
  paymentNumber: number;
  /** What the percentage applies to: the payment, or the document's total when no payment is given. */
  baseCents: Cents;
  /** Withheld (retention) or perceived (perception), rounded half up. */
  amountCents: Cents;
  /** Retention: base − withheld (what the supplier is paid); perception: base + perceived (what is collected). */
  netCents: Cents;
}

export interface VoucherDraft {
  type: VoucherDocumentType;
  series: string;
  issueDate: string;
  contingency: boolean;
  subject: { docType: 1 | 6; docNumber: string; name: string; address: string | null; email: string | null };
  /** Decimal text with 2 decimals ('3.00'). */
  percent: string;
  lines: VoucherLine[];
  /** Sum of the base of every line. */
  baseTotalCents: Cents;
  /** Sum of the rounded withheld/perceived amounts. */
  amountTotalCents: Cents;
  /** Sum of the net of every line. */
  netTotalCents: Cents;
  observations: string | null;
  uniqueCode: string | null;
}

export type VoucherCheck = { ok: true; draft: VoucherDraft } | { ok: false; problems: string[] };

export interface VoucherContext {
  today: string;
}

function centsOf(value: unknown): Cents | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const d = parseDecimal(value);
  if (!d || d.lte(0) || decimalPlaces(d) > 2) return null;
  return Number(d.times(100).toFixed(0));
}

/** The percentage of an amount in céntimos, rounded half up to the céntimo. */
export function percentOfCents(baseCents: Cents, percent: string): Cents {
  return Number(new Big(baseCents).times(percent).div(100).round(0, Big.roundHalfUp).toFixed(0));
}

function subjectDocType(doc: string): 1 | 6 | null {
  if (/^\d{11}$/.test(doc)) return 6;
  if (/^\d{8}$/.test(doc)) return 1;
  return null;
}

function checkVoucher(type: VoucherDocumentType, input: unknown, ctx: VoucherContext): VoucherCheck {
  const schema = type === '20' ? retentionPayloadSchema : perceptionPayloadSchema;
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)) };
  }
  const p = parsed.data;
  const problems: string[] = [];
  const retention = type === '20';
  const who = retention ? 'Proveedor' : 'Cliente';

  let contingency = false;
  if (p.fecha_de_emision === '') problems.push(VOUCHER_MESSAGES.issueDateRequired);
  else if (!isIsoDay(p.fecha_de_emision)) problems.push(VOUCHER_MESSAGES.issueDateInvalid);
  else if (p.fecha_de_emision > ctx.today) problems.push(VOUCHER_MESSAGES.issueDateFuture);
  else contingency = isContingency(p.fecha_de_emision, ctx.today);
  problems.push(...seriesProblems(type, p.serie, { contingency }));

  if (String(p.moneda).trim() !== '1') problems.push(VOUCHER_MESSAGES.currency);

  const s = (retention ? (p.proveedor ?? p.cliente) : (p.cliente ?? p.proveedor)) ?? {
    numero_de_documento: '',
    denominacion: '',
    direccion: null,
    email: null,
  };
  const docType = subjectDocType(s.numero_de_documento);
  if (!docType) problems.push(VOUCHER_MESSAGES.subjectDocument(who));
  if (s.denominacion === '') problems.push(VOUCHER_MESSAGES.subjectName(who));

  const pctText = typeof p.porcentaje === 'number' ? String(p.porcentaje) : p.porcentaje.trim();
  const pct = parseDecimal(pctText);
  const pctOk = pct !== null && pct.gt(0) && pct.lte(100) && decimalPlaces(pct) <= 2;
  if (!pctOk) problems.push(VOUCHER_MESSAGES.percent);
  const percent = pctOk ? pct.toFixed(2) : '0';

  const lines: VoucherLine[] = [];
  if (p.documentos_relacionados.length === 0) problems.push(VOUCHER_MESSAGES.relatedRequired);
  p.documentos_relacionados.forEach((r, i) => {
    const n = i + 1;
    const before = problems.length;
    if (!isVoucherRelatedType(r.tipo)) problems.push(VOUCHER_MESSAGES.related.type(n));
    if (!/^[A-Z0-9]{1,4}$/.test(r.serie)) problems.push(VOUCHER_MESSAGES.related.series(n));
    if (!/^\d{1,8}$/.test(r.numero) || Number(r.numero) < 1) problems.push(VOUCHER_MESSAGES.related.number(n));
    const totalCents = centsOf(r.total);
    if (totalCents === null) problems.push(VOUCHER_MESSAGES.related.total(n));
    const date = r.fecha_de_emision || null;
    if (date !== null && !isIsoDay(date)) problems.push(VOUCHER_MESSAGES.related.date(n));
    const paymentDate = r.pago_fecha || null;
    if (paymentDate !== null && !isIsoDay(paymentDate)) problems.push(VOUCHER_MESSAGES.related.paymentDate(n));
    let paymentCents: Cents | null = null;
    if (r.pago_importe !== null && r.pago_importe !== undefined && r.pago_importe !== '') {
      paymentCents = centsOf(r.pago_importe);
      if (paymentCents === null) problems.push(VOUCHER_MESSAGES.related.paymentAmount(n));
      else if (totalCents !== null && paymentCents > totalCents) problems.push(VOUCHER_MESSAGES.related.paymentTooBig(n));
    }
    if (problems.length > before || totalCents === null || !isVoucherRelatedType(r.tipo)) return;
    const baseCents = paymentCents ?? totalCents;
    const amountCents = pctOk ? percentOfCents(baseCents, percent) : 0;
    lines.push({
      type: r.tipo,
      series: r.serie,
      number: r.numero,
      issueDate: date,
      totalCents,
      paymentDate: paymentDate ?? (isIsoDay(p.fecha_de_emision) ? p.fecha_de_emision : null),
      paymentNumber: Number(r.pago_numero ?? 1) || 1,
      baseCents,
      amountCents,
      netCents: retention ? baseCents - amountCents : baseCents + amountCents,
    });
  });

  const baseTotalCents = lines.reduce((sum, l) => sum + l.baseCents, 0);
  const amountTotalCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  const netTotalCents = lines.reduce((sum, l) => sum + l.netCents, 0);
  if (p.total !== null && p.total !== undefined && p.total !== '' && problems.length === 0) {
    const sent = typeof p.total === 'number' || typeof p.total === 'string' ? parseDecimal(p.total) : null;
    if (!sent || Number(sent.times(100).round(0, Big.roundHalfUp).toFixed(0)) !== amountTotalCents) {
      problems.push(VOUCHER_MESSAGES.totalMismatch(retention ? 'total retenido' : 'total percibido', centsToString(amountTotalCents)));
    }
  }

  if (problems.length > 0 || !docType) return { ok: false, problems };
  return {
    ok: true,
    draft: {
      type,
      series: p.serie,
      issueDate: p.fecha_de_emision,
      contingency,
      subject: { docType, docNumber: s.numero_de_documento, name: s.denominacion, address: s.direccion || null, email: s.email || null },
      percent,
      lines,
      baseTotalCents,
      amountTotalCents,
      netTotalCents,
      observations: p.observaciones || null,
      uniqueCode: p.codigo_unico || null,
    },
  };
}

/** Spec section 5 (retention/perception) for a retention voucher (20, series R…). */
export const checkRetention = (input: unknown, ctx: VoucherContext): VoucherCheck => checkVoucher('20', input, ctx);
/** Spec section 5 (retention/perception) for a perception voucher (40, series P…). */
export const checkPerception = (input: unknown, ctx: VoucherContext): VoucherCheck => checkVoucher('40', input, ctx);

/**
 * The amounts the voucher form shows as the user types: per related document the base (the payment
 * when given, else the document's total), the withheld/perceived amount and the net; lines not yet
 * readable count as zero. Same rounding as `checkRetention` / `checkPerception`.
 */
export function voucherPreview(
  type: VoucherDocumentType,
  lines: readonly { total: string; pago_importe: string }[],
  percent: string,
): { lines: { baseCents: Cents; amountCents: Cents; netCents: Cents }[]; amountTotalCents: Cents; netTotalCents: Cents } {
  const pct = parseDecimal(percent.trim());
  const pctOk = pct !== null && pct.gt(0) && pct.lte(100) && decimalPlaces(pct) <= 2;
  const out = lines.map((l) => {
    const baseCents = centsOf(l.pago_importe.trim()) ?? centsOf(l.total.trim()) ?? 0;
    const amountCents = pctOk ? percentOfCents(baseCents, pct.toFixed(2)) : 0;
    return { baseCents, amountCents, netCents: type === '20' ? baseCents - amountCents : baseCents + amountCents };
  });
  return {
    lines: out,
    amountTotalCents: out.reduce((s, l) => s + l.amountCents, 0),
    netTotalCents: out.reduce((s, l) => s + l.netCents, 0),
  };
}

/** The retención/percepción form's fields a problem can sit on (the web form's names, the payload's words). */
export interface VoucherFormFields {
  serie: string;
  fecha_de_emision: string;
  documentos_relacionados: readonly unknown[];
}

/**
 * Puts each problem of `checkRetention`/`checkPerception` on its field of the form ('sujeto.denominacion',
 * 'documentos_relacionados.0.total'), as `invoiceFormProblems` does for the factura; the rest stay for 'Corrige:'.
 */
export function voucherFormProblems(type: VoucherDocumentType, values: VoucherFormFields, problems: readonly string[], today: string): FormProblems {
  const where = new Map<string, string>();
  const put = (field: string, ...messages: string[]) => messages.forEach((m) => where.has(m) || where.set(m, field));
  const M = VOUCHER_MESSAGES;
  const who = type === '20' ? 'Proveedor' : 'Cliente';
  put('fecha_de_emision', M.issueDateRequired, M.issueDateInvalid, M.issueDateFuture);
  const date = values.fecha_de_emision;
  const contingency = isIsoDay(date) && date <= today && isContingency(date, today);
  put('serie', ...seriesProblems(type, values.serie.trim().toUpperCase(), { contingency }));
  put('sujeto.numero_de_documento', M.subjectDocument(who));
  put('sujeto.denominacion', M.subjectName(who));
  put('porcentaje', M.percent);
  values.documentos_relacionados.forEach((_, i) => {
    const n = i + 1;
    const at = (field: string) => `documentos_relacionados.${i}.${field}`;
    put(at('tipo'), M.related.type(n));
    put(at('serie'), M.related.series(n));
    put(at('numero'), M.related.number(n));
    put(at('total'), M.related.total(n));
    put(at('fecha_de_emision'), M.related.date(n));
    put(at('pago_fecha'), M.related.paymentDate(n));
    put(at('pago_importe'), M.related.paymentAmount(n), M.related.paymentTooBig(n));
  });
  return placeProblems(problems, where);
}
