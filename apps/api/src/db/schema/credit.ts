import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, numeric, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { documents } from './billing.js';
import { createdAt, updatedAt } from './columns.js';
import { customers } from './customers.js';

/**
 * Credit accounts (issue 35): a RUC customer that ships now and pays its facturas later. One
 * account per customer; the balance is not stored here but computed from its shipments, invoices
 * and collections, so nothing can drift from what it sums (the ledger check recomputes it too).
 */
export const creditAccounts = pgTable(
  'credit_accounts',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    creditLimit: numeric('credit_limit', { precision: 12, scale: 2 }).notNull(),
    termsDays: integer('terms_days').notNull(),
    period: text('period').notNull(),
    status: text('status').notNull().default('activa'),
    contactName: text('contact_name').notNull(),
    contactEmail: text('contact_email'),
    contactPhone: text('contact_phone'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // No foreign key, as on shipments.created_by: the record outlives staff accounts.
    updatedBy: integer('updated_by'),
  },
  (t) => [
    uniqueIndex('credit_accounts_customer_uq').on(t.customerId),
    check('credit_accounts_limit_ck', sql`${t.creditLimit} > 0`),
    check('credit_accounts_terms_ck', sql`${t.termsDays} between 1 and 180`),
    check('credit_accounts_period_ck', sql`${t.period} in ('semanal', 'quincenal', 'mensual')`),
    check('credit_accounts_status_ck', sql`${t.status} in ('activa', 'suspendida')`),
  ],
);

/**
 * A customer's payment (cobranza): the money as the bank or the cashier received it. What it pays
 * is in credit_allocations; amount − live allocations is the customer's credit balance. A void
 * keeps the row (status 'anulado', reason, who, when) and ends its allocations.
 */
export const creditCollections = pgTable(
  'credit_collections',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'restrict' }),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    method: text('method').notNull(),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    bank: text('bank'),
    operationNumber: text('operation_number'),
    note: text('note'),
    status: text('status').notNull().default('vigente'),
    voidReason: text('void_reason'),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    voidedBy: integer('voided_by'),
    /** The client's key: the same request sent again answers the same collection. */
    clientKey: text('client_key'),
    createdBy: integer('created_by'),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('credit_collections_customer_idx').on(t.customerId, t.receivedOn),
    uniqueIndex('credit_collections_client_key_uq').on(t.clientKey),
    check('credit_collections_amount_ck', sql`${t.amount} > 0`),
    check('credit_collections_method_ck', sql`${t.method} in ('transferencia', 'deposito', 'cheque', 'efectivo')`),
    check('credit_collections_status_ck', sql`${t.status} in ('vigente', 'anulado')`),
    check('credit_collections_void_ck', sql`(${t.status} = 'anulado') = (${t.voidReason} is not null)`),
  ],
);

/** What a collection pays of each factura. `live` turns false when the collection is voided. */
export const creditAllocations = pgTable(
  'credit_allocations',
  {
    id: serial('id').primaryKey(),
    collectionId: integer('collection_id')
      .notNull()
      .references(() => creditCollections.id, { onDelete: 'restrict' }),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'restrict' }),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    live: boolean('live').notNull().default(true),
  },
  (t) => [
    index('credit_allocations_document_idx').on(t.documentId),
    index('credit_allocations_collection_idx').on(t.collectionId),
    uniqueIndex('credit_allocations_pair_uq').on(t.collectionId, t.documentId),
    check('credit_allocations_amount_ck', sql`${t.amount} > 0`),
  ],
);

/**
 * The customer's deposit of a factura's detracción in the Banco de la Nación: its constancia. One
 * per factura; from it on, the detracción no longer counts in what the customer owes the carrier.
 */
export const detractionDeposits = pgTable(
  'detraction_deposits',
  {
    documentId: integer('document_id')
      .primaryKey()
      .references(() => documents.id, { onDelete: 'restrict' }),
    constancia: text('constancia').notNull(),
    depositedOn: date('deposited_on', { mode: 'string' }).notNull(),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    createdBy: integer('created_by'),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('detraction_deposits_amount_ck', sql`${t.amount} > 0`)],
);

/*
 * What credit accounts owe now, kept in the transactions that change it (issue 37, migration 0101):
 * the credit shipments no live comprobante carries yet, the credit facturas with an open balance,
 * the collections with money not applied. The list of accounts and the ageing read these instead of
 * every shipment, factura and collection of an account's years. Each is defined once by a view
 * (credit_open_*_source), which the triggers and the ledger check (credit_open_items) read; rows are
 * only inserted and deleted by the triggers' sync functions.
 */
export const creditOpenShipments = pgTable(
  'credit_open_shipments',
  {
    shipmentId: integer('shipment_id').primaryKey(),
    customerId: integer('customer_id').notNull(),
  },
  (t) => [index('credit_open_shipments_customer_idx').on(t.customerId)],
);

export const creditOpenInvoices = pgTable(
  'credit_open_invoices',
  {
    documentId: integer('document_id').primaryKey(),
    customerDocNumber: text('customer_doc_number').notNull(),
  },
  (t) => [index('credit_open_invoices_customer_idx').on(t.customerDocNumber)],
);

export const creditOpenCollections = pgTable(
  'credit_open_collections',
  {
    collectionId: integer('collection_id').primaryKey(),
    customerId: integer('customer_id').notNull(),
  },
  (t) => [index('credit_open_collections_customer_idx').on(t.customerId)],
);
