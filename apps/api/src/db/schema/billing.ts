import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { branches } from './branches.js';
import { createdAt, updatedAt } from './columns.js';
import { customers } from './customers.js';
import { shipments } from './shipments.js';

/**
 * Every SUNAT document (DESIGN.md section 5a). The number is taken from `document_series` in the
 * transaction that inserts the row, before the provider is called: a provider that times out leaves
 * a 'pendiente' document with its number, never a gap and never a second number.
 */
export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    series: text('series').notNull(),
    number: integer('number').notNull(),
    status: text('status').notNull().default('pendiente'),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    contingency: boolean('contingency').notNull().default(false),
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'restrict' }),
    customerDocType: text('customer_doc_type').notNull(),
    customerDocNumber: text('customer_doc_number').notNull(),
    customerName: text('customer_name').notNull(),
    currency: text('currency').notNull().default('PEN'),
    gravada: numeric('gravada', { precision: 12, scale: 2 }).notNull(),
    exonerada: numeric('exonerada', { precision: 12, scale: 2 }).notNull(),
    inafecta: numeric('inafecta', { precision: 12, scale: 2 }).notNull(),
    igv: numeric('igv', { precision: 12, scale: 2 }).notNull(),
    total: numeric('total', { precision: 12, scale: 2 }).notNull(),
    /** The numbered document as sent to the provider (the domain's draft + number + time). */
    document: jsonb('document').notNull(),
    /**
     * The client's idempotency key (extras.codigo_unico), trimmed, null when blank: the same key from
     * the same issuing branch with the same payload answers the same document.
     */
    idempotencyKey: text('idempotency_key'),
    /** SHA-256 of the request the key came with: the key sent again with another payload is refused, not replayed. */
    idempotencyHash: text('idempotency_hash'),
    modifies: text('modifies'),
    branchId: integer('branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    userId: integer('user_id'),
    userName: text('user_name').notNull(),
    hash: text('hash'),
    qrText: text('qr_text'),
    xml: text('xml'),
    pdfUrl: text('pdf_url'),
    providerMessage: text('provider_message'),
    voidReason: text('void_reason'),
    /** The comunicación de baja (RA) or resumen diario (RC) that voided it: its id, SUNAT's ticket and the signed XML. */
    voidSummaryId: text('void_summary_id'),
    voidTicket: text('void_ticket'),
    voidXml: text('void_xml'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('documents_number_uq').on(t.type, t.series, t.number),
    // Keys are per issuing branch: another branch's key is not a replay of its document (an
    // admin without a branch has a scope of their own, branch 0).
    uniqueIndex('documents_branch_idempotency_uq').on(sql`coalesce(${t.branchId}, 0)`, t.idempotencyKey),
    index('documents_issue_date_idx').on(t.issueDate, t.id),
    // An agent's register seeks along (branch, issue day, id): the register's order within their branch.
    index('documents_branch_idx').on(t.branchId, t.issueDate, t.id),
    index('documents_customer_idx').on(t.customerDocNumber),
    // A factura's credit notes, by the label they modify: its open balance is read and kept per factura (issue 37).
    index('documents_modifies_idx')
      .on(t.modifies)
      .where(sql`${t.modifies} is not null`),
    // The register's customer filter matches any part of the name or the document (ILIKE '%…%'):
    // without these it read every document (310 ms for a RUC at 100k documents).
    index('documents_customer_name_trgm').using('gin', sql`${t.customerName} gin_trgm_ops`),
    index('documents_customer_doc_trgm').using('gin', sql`${t.customerDocNumber} gin_trgm_ops`),
    // A whole document number (8 to 15 characters) is one exact entry of this index (migration 0110):
    // its list holds that customer's documents only, where the digits' trigrams above are shared by
    // every number and their lists grow with every year of documents.
    index('documents_customer_doc_fragments').using('gin', sql`document_number_fragments(${t.customerDocNumber})`),
    check('documents_status_ck', sql`${t.status} in ('pendiente', 'aceptado', 'rechazado', 'anulación pendiente', 'anulado')`),
    check('documents_number_ck', sql`${t.number} between 1 and 99999999`),
    check('documents_type_ck', sql`${t.type} in ('01', '03', '07', '09', '31', '20', '40')`),
  ],
);

/**
 * The customers of the documents issued in the last 400 days (issue 37), kept by triggers and
 * pruned in the background (modules/billing/recent-search.ts). The Comprobantes' customer filter
 * reads the last year from these trigram indexes, whose lists hold a year of names, instead of the
 * whole register's: a common name costs the same after ten years as after one.
 */
export const documentSearchRecent = pgTable(
  'document_search_recent',
  {
    documentId: integer('document_id').primaryKey(),
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    customerName: text('customer_name').notNull(),
    customerDocNumber: text('customer_doc_number').notNull(),
  },
  (t) => [
    index('document_search_recent_name_trgm').using('gin', sql`${t.customerName} gin_trgm_ops`),
    index('document_search_recent_doc_trgm').using('gin', sql`${t.customerDocNumber} gin_trgm_ops`),
    index('document_search_recent_issue_idx').on(t.issueDate),
  ],
);

/** The key (but for the day or month) and the sums of the documents' counters, daily and monthly. */
const documentCounterColumns = () => ({
  branchId: integer('branch_id').notNull(),
  type: text('type').notNull(),
  series: text('series').notNull(),
  status: text('status').notNull(),
  currency: text('currency').notNull(),
  n: bigint('n', { mode: 'number' }).notNull(),
  gravada: numeric('gravada').notNull(),
  exonerada: numeric('exonerada').notNull(),
  inafecta: numeric('inafecta').notNull(),
  igv: numeric('igv').notNull(),
  total: numeric('total').notNull(),
});

/**
 * Documents and their amounts per issue day, branch (0: none), type, series, status and currency,
 * kept with the months and all time by one statement trigger on `documents` (migration 0113; 0021
 * made them) in the transaction of every insert, update and delete. The register's count and totals add these up (a few rows per day) instead of
 * every matching document, so they cost the same at a million documents as at a hundred. The sums
 * are unbounded numeric: exact, and a year of totals outgrows a document's numeric(12,2).
 */
export const documentDailyTotals = pgTable(
  'document_daily_totals',
  {
    issueDate: date('issue_date', { mode: 'string' }).notNull(),
    ...documentCounterColumns(),
  },
  (t) => [primaryKey({ columns: [t.issueDate, t.branchId, t.type, t.series, t.status, t.currency] })],
);

/**
 * The same totals per calendar month (its first day) instead of per day, kept with the days
 * (migrations 0024, 0113). A register with no dates, or whose dates span whole
 * months, adds up a dozen rows per key a year here, and only the days of a month it cuts come from
 * the daily rows: the register's totals read the same few rows at a million documents as at a
 * hundred thousand, where the daily rows of a year grew with every key each day filled.
 */
export const documentMonthlyTotals = pgTable(
  'document_monthly_totals',
  {
    month: date('month', { mode: 'string' }).notNull(),
    ...documentCounterColumns(),
  },
  (t) => [primaryKey({ columns: [t.month, t.branchId, t.type, t.series, t.status, t.currency] })],
);

/**
 * The same totals over all time, one row per key, kept with the days (migrations 0109, 0113) in
 * the transaction of every insert, update and delete. A
 * register with no dates adds up these few rows, where the months it read before grew by a dozen
 * rows per key with every year of history.
 */
export const documentAllTimeTotals = pgTable('document_all_time_totals', documentCounterColumns(), (t) => [
  primaryKey({ columns: [t.branchId, t.type, t.series, t.status, t.currency] }),
]);

/** The last number of each series: locked by the upsert that takes the next one (never max()+1). */
export const documentSeries = pgTable(
  'document_series',
  {
    type: text('type').notNull(),
    series: text('series').notNull(),
    lastNumber: integer('last_number').notNull(),
  },
  (t) => [primaryKey({ columns: [t.type, t.series] })],
);

/** The history of a document and every exchange with the provider (request and answer JSON). */
export const documentEvents = pgTable(
  'document_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    userId: integer('user_id'),
    userName: text('user_name'),
    note: text('note'),
    operation: text('operation'),
    request: jsonb('request'),
    answer: jsonb('answer'),
  },
  (t) => [index('document_events_document_idx').on(t.documentId, t.id)],
);

/**
 * Shipments on a document: billed on a comprobante (role 'comprobante'), or carried under a carrier
 * guide (role 'guia', a GRE-T). A shipment is on at most one live (not voided, not rejected)
 * document of each role: billed once, and on one live guide.
 */
export const documentShipments = pgTable(
  'document_shipments',
  {
    documentId: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'restrict' }),
    live: boolean('live').notNull().default(true),
    role: text('role').notNull().default('comprobante'),
  },
  (t) => [
    primaryKey({ columns: [t.documentId, t.shipmentId] }),
    // A shipment's documents, live or not, by the shipment: the guard that refuses cancelling or
    // repricing a charged shipment (migration 0031) asks it on every cancellation and reprice.
    index('document_shipments_shipment_idx').on(t.shipmentId),
    uniqueIndex('document_shipments_live_uq')
      .on(t.shipmentId)
      .where(sql`${t.live} and ${t.role} = 'comprobante'`),
    uniqueIndex('document_shipments_guide_live_uq')
      .on(t.shipmentId)
      .where(sql`${t.live} and ${t.role} = 'guia'`),
    check('document_shipments_role_ck', sql`${t.role} in ('comprobante', 'guia')`),
  ],
);

/** What the offline sandbox provider remembers of the documents it 'sent to SUNAT'. */
export const sandboxDocuments = pgTable('sandbox_documents', {
  key: text('key').primaryKey(),
  record: jsonb('record').notNull(),
});
