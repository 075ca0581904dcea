import { z } from 'zod';
import { recordId } from '../primitives.ts';
import type { CreditPeriod } from './accounts.ts';
import { periodContaining, type InvoicingPeriod } from './periods.ts';
import { PERIOD_GROUPINGS, PERIOD_INVOICE_MESSAGES, periodInvoiceSchema } from './period-invoice.ts';

/**
 * 'Facturar periodos vencidos' (issue 35): every active account's ended invoicing periods that
 * still hold credit shipments no live comprobante carries, previewed, then issued one period
 * factura each through 'Facturar periodo'. One account's failure never stops the others.
 */

/** The ended periods (last day before `today`) of `kind` that contain these Lima days, oldest first. */
export function endedPeriodsOf(kind: CreditPeriod, days: readonly string[], today: string): InvoicingPeriod[] {
  const periods = new Map<string, InvoicingPeriod>();
  for (const day of days) {
    const period = periodContaining(kind, day);
    if (period.to < today) periods.set(period.from, period);
  }
  return [...periods.values()].sort((a, b) => a.from.localeCompare(b.from));
}

export const PERIOD_BATCH_MESSAGES = {
  empty: 'Elige al menos un periodo por facturar.',
  tooMany: 'A lo más 500 periodos por corrida.',
  repeated: 'Un periodo aparece dos veces en la corrida.',
  failed: 'No se pudo emitir la factura de este periodo.',
} as const;

const { from, to, detractionAccount } = periodInvoiceSchema.shape;

/** POST /credit/period-invoices: the previewed periods, and what the batch form asks once. */
export const periodBatchSchema = z
  .object({
    periods: z
      .array(
        z
          .object({ customerId: recordId('Cliente inválido'), from, to })
          .refine((p) => p.from <= p.to, { message: PERIOD_INVOICE_MESSAGES.range, path: ['from'] }),
      )
      .min(1, PERIOD_BATCH_MESSAGES.empty)
      .max(500, PERIOD_BATCH_MESSAGES.tooMany),
    grouping: z.enum(PERIOD_GROUPINGS, { error: 'Agrupación inválida: por envío o por ruta.' }).default('envio'),
    detractionAccount,
  })
  .refine((b) => new Set(b.periods.map((p) => `${p.customerId}|${p.from}|${p.to}`)).size === b.periods.length, {
    message: PERIOD_BATCH_MESSAGES.repeated,
    path: ['periods'],
  });
export type PeriodBatchInput = z.input<typeof periodBatchSchema>;
export type PeriodBatchRequest = z.output<typeof periodBatchSchema>;

/** One account's ended period in the preview. */
export const duePeriodSchema = z.object({
  customerId: z.number(),
  customerName: z.string(),
  docNumber: z.string(),
  from: z.string(),
  to: z.string(),
  shipments: z.number(),
  total: z.number(),
  detraction: z.number().nullable(),
  /** What the preview could not build (e.g. a trip without reference values); the run would refuse it too. */
  problem: z.string().nullable(),
});
export type DuePeriod = z.infer<typeof duePeriodSchema>;

export const duePeriodsAnswerSchema = z.object({
  items: z.array(duePeriodSchema),
  total: z.number(),
  /** Some factura carries a detracción: the form asks once for the carrier's detracciones account. */
  needsDetractionAccount: z.boolean(),
});
export type DuePeriodsAnswer = z.infer<typeof duePeriodsAnswerSchema>;

export const PERIOD_BATCH_OUTCOMES = ['emitida', 'ya emitida', 'rechazada'] as const;
export type PeriodBatchOutcome = (typeof PERIOD_BATCH_OUTCOMES)[number];

export const periodBatchResultSchema = z.object({
  customerId: z.number(),
  customerName: z.string(),
  from: z.string(),
  to: z.string(),
  outcome: z.enum(PERIOD_BATCH_OUTCOMES),
  documentId: z.number().nullable(),
  /** 'F001-123' once numbered. */
  number: z.string().nullable(),
  status: z.string().nullable(),
  message: z.string().nullable(),
});
export type PeriodBatchResult = z.infer<typeof periodBatchResultSchema>;

export const periodBatchAnswerSchema = z.object({
  items: z.array(periodBatchResultSchema),
  issued: z.number(),
  already: z.number(),
  refused: z.number(),
});
export type PeriodBatchAnswer = z.infer<typeof periodBatchAnswerSchema>;

/** The answer's counts, from its rows. */
export function periodBatchAnswer(items: PeriodBatchResult[]): PeriodBatchAnswer {
  const count = (outcome: PeriodBatchOutcome) => items.filter((i) => i.outcome === outcome).length;
  return { items, issued: count('emitida'), already: count('ya emitida'), refused: count('rechazada') };
}
