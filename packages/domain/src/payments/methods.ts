/**
 * Payment methods and statuses (spec sections 3, 4 and 9): the codes the API stores and filters by,
 * with the Spanish names the screens show.
 */

export const PAYMENT_METHODS = ['cash', 'card_pos', 'bank_transfer', 'yape_qr', 'plin_qr', 'card_online'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_METHOD_NAMES: Readonly<Record<PaymentMethod, string>> = {
  cash: 'Efectivo',
  card_pos: 'Tarjeta (POS)',
  bank_transfer: 'Transferencia bancaria',
  yape_qr: 'Yape (QR)',
  plin_qr: 'Plin (QR)',
  card_online: 'Tarjeta en línea',
};

/** The movements report's method filter (spec section 9): cash, card_pos, the two QR wallets, the online card. */
export const MOVEMENT_FILTER_METHODS = ['cash', 'card_pos', 'yape_qr', 'plin_qr', 'card_online'] as const satisfies readonly PaymentMethod[];

export const isPaymentMethod = (value: unknown): value is PaymentMethod => (PAYMENT_METHODS as readonly unknown[]).includes(value);

/** Methods that need the voucher / operation id (every one but cash). */
export const needsVoucher = (method: PaymentMethod): boolean => method !== 'cash';

export const PAYMENT_STATUSES = ['pending', 'paid', 'canceled'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_STATUS_LABELS: Readonly<Record<PaymentStatus, string>> = {
  pending: 'Pendiente',
  paid: 'Pagado',
  canceled: 'Anulado',
};

/** The pill of a shipment on /pagos. */
export const paidPill = (paid: boolean): string => (paid ? 'Pagado' : 'No pagado');

/** Ledger entries of a payment: the charge when it is paid, its reversal when a paid one is voided. */
export const MOVEMENT_KINDS = ['cobro', 'anulacion'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

export const PAYMENT_CURRENCY = 'PEN';
export const VOID_DEFAULT_REASON = 'ERROR DEL SISTEMA';
export const MOVEMENT_PAGE_SIZES = [20, 50, 100] as const;
export const MOVEMENTS_CSV_FILENAME = 'movimientos_filtrados.csv';
