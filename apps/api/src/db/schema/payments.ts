import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { documents } from './billing.js';
import { branches } from './branches.js';
import { createdAt, updatedAt } from './columns.js';
import { customers } from './customers.js';
import { shipments } from './shipments.js';

/**
 * A collector's cash drawer (DESIGN.md section 5a): opened with a float, closed with the counted
 * cash; one open session per user (a partial unique index). A closed session is immutable.
 */
export const cashSessions = pgTable(
  'cash_sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull(),
    userName: text('user_name').notNull(),
    branchId: integer('branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    floatCents: integer('float_cents').notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    countedCashCents: integer('counted_cash_cents'),
    /** The closing as computed when it closed: per method expected, counted, difference (céntimos). */
    closing: jsonb('closing'),
    closedBy: integer('closed_by'),
  },
  (t) => [
    uniqueIndex('cash_sessions_one_open_uq')
      .on(t.userId)
      .where(sql`${t.closedAt} is null`),
    index('cash_sessions_opened_idx').on(t.openedAt),
    index('cash_sessions_branch_idx').on(t.branchId, t.openedAt),
    check('cash_sessions_float_ck', sql`${t.floatCents} >= 0`),
  ],
);

/**
 * A manual payment taken at the counter (DESIGN.md section 5). Amounts in integer céntimos. At most
 * one pending-or-paid payment per shipment: a partial unique index, not a prior read.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('pending'),
    method: text('method').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** An admin's discount on what the shipment owes, taken before collecting (amount = owed − discount). */
    discountCents: integer('discount_cents').notNull().default(0),
    discountReason: text('discount_reason'),
    currency: text('currency').notNull().default('PEN'),
    providerTxId: text('provider_tx_id'),
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'restrict' }),
    customerDocType: smallint('customer_doc_type').notNull(),
    customerDocNumber: text('customer_doc_number').notNull(),
    customerName: text('customer_name').notNull(),
    /** A factura's address as the counter typed it or the RUC lookup answered it (null on a boleta). */
    customerAddress: text('customer_address'),
    branchId: integer('branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    // No foreign key, as on shipments.created_by: the record outlives staff accounts.
    userId: integer('user_id').notNull(),
    userName: text('user_name').notNull(),
    cashSessionId: integer('cash_session_id')
      .notNull()
      .references(() => cashSessions.id, { onDelete: 'restrict' }),
    documentId: integer('document_id').references(() => documents.id, { onDelete: 'restrict' }),
    /** How many receipts were tried after a rejection (the next key is PAGO-{id}-{attempts}). */
    receiptAttempts: integer('receipt_attempts').notNull().default(0),
    lastError: text('last_error'),
    cancelReason: text('cancel_reason'),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_one_live_per_shipment_uq')
      .on(t.shipmentId)
      .where(sql`${t.status} in ('pending', 'paid')`),
    index('payments_created_idx').on(t.createdAt, t.id),
    // The movements report's keyset order (newest first, id breaking ties) within a branch and for a user.
    index('payments_branch_created_idx').on(t.branchId, t.createdAt, t.id),
    index('payments_user_created_idx').on(t.userId, t.createdAt, t.id),
    // The report filtered to 'Pendiente' or 'Anulado': a few payments among years of paid ones, which
    // the created order would walk past one by one (issue 37: 5 ms at 100k, 47 ms at ten years).
    index('payments_unpaid_created_idx')
      .on(t.status, t.createdAt, t.id)
      .where(sql`${t.status} in ('pending', 'canceled')`),
    index('payments_session_idx').on(t.cashSessionId),
    check('payments_status_ck', sql`${t.status} in ('pending', 'paid', 'canceled')`),
    check('payments_method_ck', sql`${t.method} in ('cash', 'card_pos', 'bank_transfer', 'yape_qr', 'plin_qr', 'card_online')`),
    check('payments_amount_ck', sql`${t.amountCents} > 0`),
    check('payments_discount_ck', sql`${t.discountCents} >= 0`),
    // A discount is always explained: the audit and the receipt print its reason.
    check('payments_discount_reason_ck', sql`${t.discountCents} = 0 or ${t.discountReason} is not null`),
    check('payments_currency_ck', sql`${t.currency} = 'PEN'`),
  ],
);

/** The key (but for the day or month) and the sums of the payments' counters, daily and monthly. */
const paymentCounterColumns = () => ({
  branchId: integer('branch_id').notNull(),
  userId: integer('user_id').notNull(),
  method: text('method').notNull(),
  status: text('status').notNull(),
  n: bigint('n', { mode: 'number' }).notNull(),
  cents: bigint('cents', { mode: 'number' }).notNull(),
});

/**
 * Payments and their céntimos per Lima day of creation, branch (0: none), collecting user, method
 * and status: the movements report's filters and the groups of its totals. Kept with the months and
 * all time by one statement trigger on `payments` (migration 0113; 0021 made them) in the
 * transaction of every insert, update and delete; the report adds these up instead of every
 * matching payment.
 */
export const paymentDailyTotals = pgTable(
  'payment_daily_totals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    ...paymentCounterColumns(),
  },
  (t) => [primaryKey({ columns: [t.day, t.branchId, t.userId, t.method, t.status] })],
);

/** payment_daily_totals per calendar month (its first day), as document_monthly_totals (migrations 0024, 0113). */
export const paymentMonthlyTotals = pgTable(
  'payment_monthly_totals',
  {
    month: date('month', { mode: 'string' }).notNull(),
    ...paymentCounterColumns(),
  },
  (t) => [primaryKey({ columns: [t.month, t.branchId, t.userId, t.method, t.status] })],
);

/**
 * The payments' counters over all time, one row per key (migrations 0111, 0113), as document_all_time_totals:
 * Movimientos with no dates adds up these few rows, the same after ten years as after one.
 */
export const paymentAllTimeTotals = pgTable('payment_all_time_totals', paymentCounterColumns(), (t) => [
  primaryKey({ columns: [t.branchId, t.userId, t.method, t.status] }),
]);

/**
 * The cash ledger: a payment's charge when it is paid, its reversal when a paid one is voided, each in
 * the acting collector's open session (a void after closing lands in the next one as an adjustment).
 */
export const paymentMovements = pgTable(
  'payment_movements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    method: text('method').notNull(),
    amountCents: integer('amount_cents').notNull(),
    cashSessionId: integer('cash_session_id')
      .notNull()
      .references(() => cashSessions.id, { onDelete: 'restrict' }),
    userId: integer('user_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One charge and at most one reversal per payment.
    uniqueIndex('payment_movements_kind_uq').on(t.paymentId, t.kind),
    index('payment_movements_session_idx').on(t.cashSessionId, t.id),
    check('payment_movements_kind_ck', sql`${t.kind} in ('cobro', 'anulacion')`),
  ],
);

/**
 * Receivables kept as they change (issue 37): one row per shipment still owed, made and unmade by
 * triggers on `shipments` and `payments` (migration 0089) from the view `receivable_items_source`,
 * the one definition of "owed": at origin (its sender's account, 'origen' and 'credito') every
 * shipment not Anulado without a paid payment; pago en destino while Creado, En tránsito or En
 * agencia without one. The balances below are summed from these rows by their own triggers, so a
 * read costs what is owed now, not the whole history.
 */
export const receivableItems = pgTable(
  'receivable_items',
  {
    shipmentId: integer('shipment_id').primaryKey(),
    side: text('side').notNull(),
    /** 'c' || customer id, else 'n:' || the lowercased sender name (Cuentas por cobrar's grouping). */
    customerKey: text('customer_key').notNull(),
    customerId: integer('customer_id'),
    senderName: text('sender_name').notNull(),
    /** The origin branch (side 'origen') or the destination branch (side 'destino'). */
    branchId: integer('branch_id').notNull(),
    /** The shipment's status on the 'destino' side (where it splits the balance); null at origin, where it does not. */
    status: text('status'),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    // A balance's last shipment, found again when the newest one leaves it.
    index('receivable_items_last_idx')
      .on(t.customerKey, t.branchId, t.senderName, t.createdAt)
      .where(sql`${t.side} = 'origen'`),
    check('receivable_items_side_ck', sql`${t.side} in ('origen', 'destino')`),
  ],
);

/**
 * Cuentas por cobrar per customer key, origin branch (agents see their branch) and sender name as
 * typed (the list shows the smallest of a key's names, as it did when it scanned the shipments).
 * A row lives while it has shipments owed.
 */
export const receivableCustomerBalances = pgTable(
  'receivable_customer_balances',
  {
    customerKey: text('customer_key').notNull(),
    originBranchId: integer('origin_branch_id').notNull(),
    senderName: text('sender_name').notNull(),
    customerId: integer('customer_id'),
    n: integer('n').notNull(),
    amount: numeric('amount').notNull(),
    lastShipmentAt: timestamp('last_shipment_at', { withTimezone: true }).notNull(),
  },
  // No CHECK (n >= 0): a decrement is an upsert whose proposed row is negative; the trigger refuses a negative balance instead.
  (t) => [primaryKey({ columns: [t.customerKey, t.originBranchId, t.senderName] })],
);

/** 'Por cobrar en destino' per destination branch and the shipments' status there. */
export const receivableDestinationBalances = pgTable(
  'receivable_destination_balances',
  {
    destinationBranchId: integer('destination_branch_id').notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
    amount: numeric('amount').notNull(),
  },
  (t) => [primaryKey({ columns: [t.destinationBranchId, t.status] })],
);
