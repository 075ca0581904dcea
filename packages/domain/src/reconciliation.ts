import { z } from 'zod';

/**
 * The ledger check ('Conciliación', DESIGN.md 5b): the money invariants checked over a whole
 * database. `npm run check:ledger` and `GET /api/reconciliation` answer the same checks.
 */
export const LEDGER_CHECKS = [
  'one_live_payment',
  'paid_equals_price',
  'paid_has_receipt',
  'cash_session_balance',
  'document_series',
  'document_totals',
  'payment_totals',
  'receivables',
  'notification_once',
  'credit_invoice_balance',
  'credit_collection_applied',
  'shipment_billed_once',
  'credited_shipments_released',
  'receivable_balances',
  'destination_receivable_balances',
  'credit_open_items',
] as const;
export type LedgerCheck = (typeof LEDGER_CHECKS)[number];

export const LEDGER_CHECK_TEXTS: Record<LedgerCheck, { name: string; description: string }> = {
  one_live_payment: {
    name: 'Un pago vigente por envío',
    description: 'Cada envío tiene a lo sumo un pago pendiente o pagado.',
  },
  paid_equals_price: {
    name: 'Pago igual al precio',
    description: 'El monto de cada pago pagado más su descuento es igual al precio de su envío.',
  },
  paid_has_receipt: {
    name: 'Pago con comprobante',
    description: 'Cada pago pagado tiene su comprobante, que no está anulado, en anulación ni rechazado.',
  },
  cash_session_balance: {
    name: 'Cajas cuadradas',
    description: 'El total esperado de cada caja (fondo más sus movimientos) es igual al que dan sus pagos cobrados y anulados.',
  },
  document_series: {
    name: 'Series correlativas',
    description: 'Los números de cada serie van de 1 a su último correlativo, sin saltos ni duplicados.',
  },
  document_totals: {
    name: 'Totales de comprobantes',
    description:
      'Los totales que Comprobantes suma por día, por mes y de todo el registro (cantidad y montos por sucursal, tipo, serie, estado y moneda) son iguales a los que dan sus comprobantes.',
  },
  payment_totals: {
    name: 'Totales de movimientos',
    description:
      'Los totales que Movimientos suma por día, por mes y de todo el registro (cantidad y céntimos por sucursal, cajero, método y estado) son iguales a los que dan sus pagos.',
  },
  receivables: {
    name: 'Cuentas por cobrar',
    description: 'Lo que Cuentas por cobrar muestra por cliente es igual al precio de sus envíos no anulados menos lo que pagó.',
  },
  notification_once: {
    name: 'Notificaciones enviadas una vez',
    description: 'Ningún aviso (evento, destinatario y canal) de la bandeja de salida se envió más de una vez.',
  },
  credit_invoice_balance: {
    name: 'Saldo de facturas al crédito',
    description:
      'El saldo de cada factura (total menos notas de crédito, cobros aplicados y detracción depositada) no es negativo, y ninguna factura anulada o rechazada conserva cobros aplicados.',
  },
  credit_collection_applied: {
    name: 'Cobros aplicados',
    description: 'Ningún cobro aplica a facturas más de lo que se recibió, y ningún cobro anulado conserva aplicaciones.',
  },
  shipment_billed_once: {
    name: 'Envío facturado una vez',
    description: 'Ningún envío figura en más de un comprobante vigente.',
  },
  credited_shipments_released: {
    name: 'Envíos liberados por notas de crédito',
    description:
      'Ningún comprobante vigente deja de facturar sus envíos sin que sus notas de crédito aceptadas por SUNAT cubran su total: si no, se cobrarían dos veces (en él y en el que los tomó) o quedarían sin facturar.',
  },
  receivable_balances: {
    name: 'Saldos por cobrar por cliente',
    description:
      'El saldo guardado de cada cliente y sucursal de origen (envíos, monto y último envío) es igual al que dan sus envíos no anulados sin pago pagado.',
  },
  destination_receivable_balances: {
    name: 'Saldos por cobrar en destino',
    description: 'El saldo guardado de cada sucursal de destino y estado es igual al que dan sus envíos con pago en destino sin pago pagado.',
  },
  credit_open_items: {
    name: 'Pendientes de las cuentas de crédito',
    description:
      'Los envíos a crédito por facturar, las facturas al crédito con saldo y los cobros sin aplicar que se guardan son exactamente los que dan sus envíos, facturas y cobros.',
  },
};

/** The most violations a check lists (its `count` is always the full number). */
export const LEDGER_VIOLATIONS_SHOWN = 100;

/** A record that breaks a check: its table, id and code, and the values that disagree (money in céntimos). */
export const ledgerViolationSchema = z.object({
  table: z.string(),
  id: z.string(),
  code: z.string().nullable(),
  values: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type LedgerViolation = z.infer<typeof ledgerViolationSchema>;

export const ledgerCheckResultSchema = z.object({
  check: z.enum(LEDGER_CHECKS),
  name: z.string(),
  description: z.string(),
  count: z.number(),
  violations: z.array(ledgerViolationSchema),
});
export type LedgerCheckResult = z.infer<typeof ledgerCheckResultSchema>;

/** `GET /api/reconciliation`. */
export const reconciliationSchema = z.object({
  checkedAt: z.string(),
  ok: z.boolean(),
  violations: z.number(),
  checks: z.array(ledgerCheckResultSchema),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;

/** How the 'Conciliación' page names a violation's table and values (keys ending in `Cents` are money). */
export const LEDGER_TABLE_LABELS: Record<string, string> = {
  shipments: 'Envío',
  payments: 'Pago',
  cash_sessions: 'Caja',
  document_series: 'Serie',
  customers: 'Cliente',
  notification_outbox: 'Notificación',
  documents: 'Factura',
  credit_collections: 'Cobro',
  document_totals: 'Totales de comprobantes',
};
export const LEDGER_VALUE_LABELS: Record<string, string> = {
  livePayments: 'Pagos vigentes',
  paymentIds: 'Pagos',
  shipmentId: 'Envío',
  amountCents: 'Monto',
  discountCents: 'Descuento',
  priceCents: 'Precio',
  documentId: 'Id del comprobante',
  document: 'Comprobante',
  documentStatus: 'Estado del comprobante',
  floatCents: 'Fondo',
  expectedCents: 'Esperado (movimientos)',
  fromPaymentsCents: 'Según los pagos',
  closed: 'Cerrada',
  type: 'Tipo',
  lastNumber: 'Último correlativo',
  documents: 'Documentos',
  keptDocuments: 'Documentos en los totales',
  keptTotalCents: 'Total en los totales',
  duplicates: 'Duplicados',
  lowestNumber: 'Menor número',
  highestNumber: 'Mayor número',
  receivableCents: 'Cuentas por cobrar',
  priceLessPaidCents: 'Precio menos pagado',
  eventId: 'Evento',
  party: 'Destinatario',
  channel: 'Canal',
  sent: 'Enviados',
  status: 'Estado',
  totalCents: 'Total',
  creditedCents: 'Notas de crédito',
  acceptedCreditCents: 'Notas de crédito aceptadas',
  shipmentIds: 'Envíos liberados',
  collectedCents: 'Cobrado',
  depositedCents: 'Detracción depositada',
  appliedCents: 'Aplicado',
  documentIds: 'Comprobantes',
  messageIds: 'Mensajes',
};
