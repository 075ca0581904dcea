import { z } from 'zod';
import { centsToString, toCents } from '../money.ts';
import { isIsoDay, INVALID_DAY_MESSAGE } from '../dates.ts';
import type { UnbilledShipment } from '../billing/documents.ts';
import { invoiceFromShipments, previewTotals, unitValueOfPrice, type FormCustomerSource, type InvoiceFormValues } from '../billing/invoice-form.ts';
import { dueDateFor } from './periods.ts';

/**
 * 'Facturar periodo' (issue 35): a credit customer's shipments of a period, not yet invoiced, in
 * one factura al crédito — one line per shipment, or one per route — with the freight detracción
 * and its trip pre-filled as 'Facturar envíos' does, and one instalment due after the account's
 * terms for what the customer pays the carrier (the total less the detracción).
 */
export const PERIOD_GROUPINGS = ['envio', 'ruta'] as const;
export type PeriodGrouping = (typeof PERIOD_GROUPINGS)[number];

export const PERIOD_INVOICE_MESSAGES = {
  nothing: 'No hay envíos a crédito por facturar en el periodo.',
  range: 'El periodo es inválido: "desde" es posterior a "hasta".',
  future: 'El periodo aún no termina: factura periodos cerrados.',
  account: 'Detracción: ingresa la cuenta de detracciones del Banco de la Nación (solo dígitos).',
} as const;

const day = z.string({ error: INVALID_DAY_MESSAGE }).refine(isIsoDay, INVALID_DAY_MESSAGE);
export const periodInvoiceSchema = z
  .object({
    from: day,
    to: day,
    grouping: z.enum(PERIOD_GROUPINGS, { error: 'Agrupación inválida: por envío o por ruta.' }).default('envio'),
    /** The carrier's detracciones account (Banco de la Nación), when the factura carries one. */
    detractionAccount: z
      .string()
      .trim()
      .regex(/^[0-9-]{6,30}$/, PERIOD_INVOICE_MESSAGES.account)
      .nullish()
      .transform((v) => v ?? null),
  })
  .refine((p) => p.from <= p.to, { message: PERIOD_INVOICE_MESSAGES.range, path: ['from'] });
export type PeriodInvoiceInput = z.input<typeof periodInvoiceSchema>;
export type PeriodInvoiceRequest = z.output<typeof periodInvoiceSchema>;

/** The factura's form values for these shipments (same builder as 'Facturar envíos'), al crédito. */
export function periodInvoiceForm(
  customer: FormCustomerSource,
  shipments: readonly UnbilledShipment[],
  options: { today: string; termsDays: number; grouping: PeriodGrouping; detractionAccount: string | null },
): InvoiceFormValues {
  const base = invoiceFromShipments(customer, shipments, options.today);
  const items = options.grouping === 'ruta' ? routeItems(shipments) : base.items;
  const totals = previewTotals(items);
  const detraction = base.detraction.enabled
    ? { ...base.detraction, bankAccount: options.detractionAccount ?? '', paymentMeans: base.detraction.paymentMeans || '1' }
    : base.detraction;
  const net = totals.totalCents - (detraction.enabled ? toCents(detraction.amount || '0') : 0);
  return {
    ...base,
    type: '01',
    items,
    detraction,
    paymentType: 'credito',
    instalments: [{ dueDate: dueDateFor(options.today, options.termsDays), amount: centsToString(net) }],
  };
}

/** One line per route: 'Servicio de transporte de carga Lima → Arequipa (3 envíos: TMT-000201, …)'. */
function routeItems(shipments: readonly UnbilledShipment[]): InvoiceFormValues['items'] {
  const routes = new Map<string, UnbilledShipment[]>();
  for (const s of shipments)
    routes.set(`${s.originName} → ${s.destinationName}`, [...(routes.get(`${s.originName} → ${s.destinationName}`) ?? []), s]);
  return [...routes].map(([route, list]) => {
    const codes = list.map((s) => s.code).join(', ');
    const description = `Servicio de transporte de carga ${route} (${list.length === 1 ? '1 envío' : `${list.length} envíos`}: ${codes})`;
    return {
      code: '',
      description: description.length <= 250 ? description : `${description.slice(0, 249)}…`,
      unit: 'ZZ',
      quantity: '1',
      unitValue: unitValueOfPrice(list.reduce((sum, s) => sum + toCents(s.price), 0)),
      igvType: '10' as const,
      discount: '',
    };
  });
}
