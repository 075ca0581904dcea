import { sql } from 'drizzle-orm';
import {
  bigserial,
  date,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { branches } from './branches.js';
import { createdAt, tsvector, updatedAt } from './columns.js';
import { customers } from './customers.js';

/** Shipment codes `TMT-000001…`: a sequence, so codes are unique and never reused under concurrency. */
export const shipmentCodeSeq = pgSequence('shipment_code_seq', { startWith: 1 });

export const shipments = pgTable(
  'shipments',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    status: text('status').notNull().default('Creado'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    // No foreign key on purpose: staff can be deleted, their shipments and history must stay;
    // the name is kept as it was when they acted (like audit_log.user_id).
    createdBy: integer('created_by'),
    createdByName: text('created_by_name'),
    originBranchId: integer('origin_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    destinationBranchId: integer('destination_branch_id')
      .notNull()
      .references(() => branches.id, { onDelete: 'restrict' }),
    senderCustomerId: integer('sender_customer_id').references(() => customers.id, { onDelete: 'restrict' }),
    senderName: text('sender_name').notNull(),
    recipientFirstName: text('recipient_first_name').notNull(),
    recipientLastName: text('recipient_last_name').notNull(),
    recipientName: text('recipient_name').notNull(),
    recipientDoc: text('recipient_doc').notNull(),
    productType: text('product_type').notNull(),
    weightKg: numeric('weight_kg', { precision: 10, scale: 2 }).notNull(),
    billableWeightKg: integer('billable_weight_kg').notNull(),
    description: text('description'),
    quotedPrice: numeric('quoted_price', { precision: 12, scale: 2 }).notNull(),
    quotedCurrency: text('quoted_currency').notNull().default('PEN'),
    quotedFactorPerKg: numeric('quoted_factor_per_kg', { precision: 12, scale: 4 }).notNull(),
    usingReverse: boolean('using_reverse').notNull().default(false),
    multiLineDetail: jsonb('multi_line_detail').notNull(),
    /**
     * Issue 34: what the shipment was charged, component by component (freight lines, minimum,
     * surcharges, insurance, discount), stored so a later table change never reprices it. Null on
     * shipments registered before it; their price is their lines.
     */
    priceComponents: jsonb('price_components'),
    /** Soles declared by the sender; null = undeclared. */
    declaredValue: numeric('declared_value', { precision: 12, scale: 2 }),
    insured: boolean('insured').notNull().default(false),
    surcharges: jsonb('surcharges')
      .notNull()
      .default(sql`'[]'::jsonb`),
    secretCodeHash: text('secret_code_hash').notNull(),
    /** Written by the delivery use case (issue #6): receiverName, receiverDoc, deliveredByName, deliveredAt, notes. */
    deliveredInfo: jsonb('delivered_info'),
    /** The return leg (DESIGN.md 5a) points at the shipment it brings back to its origin. */
    returnOfShipmentId: integer('return_of_shipment_id').references((): AnyPgColumn => shipments.id, { onDelete: 'restrict' }),
    /** Where the recipient hears about the shipment (issue 18); both optional. */
    recipientPhone: text('recipient_phone'),
    recipientEmail: text('recipient_email'),
    /**
     * The names' search tokens (migration 0016: filled by a trigger from recipient_name and
     * sender_name, see shipment_search_words()): each accent-folded word whole, and each of its
     * beginnings as its own token ('p:qui', 'p:quis', …), sender tokens marked 's:'. A word being
     * typed is then one exact token too, so the index never scans a range of words, the planner's
     * statistics know how common every token is, and a stored value makes a row cheap to test
     * while walking the newest rows.
     */
    searchWords: tsvector('search_words'),
    /**
     * Who pays the freight and when (issue 33, DESIGN.md 5b). The defaults are what every shipment
     * meant before: the sender pays at the origin counter. A third party is named by its document.
     */
    payer: text('payer').notNull().default('remitente'),
    paymentMoment: text('payment_moment').notNull().default('origen'),
    payerDocType: integer('payer_doc_type'),
    payerDocNumber: text('payer_doc_number'),
    payerName: text('payer_name'),
    payerCustomerId: integer('payer_customer_id').references(() => customers.id, { onDelete: 'restrict' }),
  },
  (t) => [
    uniqueIndex('shipments_code_uq').on(t.code),
    check('shipments_status_ck', sql`${t.status} in ('Creado', 'En tránsito', 'En agencia', 'Entregado', 'Anulado', 'Devuelto')`),
    check('shipments_product_type_ck', sql`${t.productType} in ('liviano', 'medio', 'alto')`),
    check('shipments_declared_value_ck', sql`${t.declaredValue} is null or ${t.declaredValue} >= 0`),
    check('shipments_insured_ck', sql`not ${t.insured} or ${t.declaredValue} > 0`),
    // Scanned backwards for newest first (id breaks ties), so ORDER BY … DESC LIMIT walks the index.
    index('shipments_created_idx').on(t.createdAt, t.id),
    index('shipments_origin_created_idx').on(t.originBranchId, t.createdAt),
    index('shipments_destination_created_idx').on(t.destinationBranchId, t.createdAt),
    index('shipments_status_created_idx').on(t.status, t.createdAt),
    // text_pattern_ops serves both `=` and the prefix LIKE of a document being typed.
    index('shipments_recipient_doc_idx').on(t.recipientDoc.op('text_pattern_ops')),
    index('shipments_sender_customer_idx').on(t.senderCustomerId),
    // Whole words and word beginnings of both names, for the text search (issue 19).
    index('shipments_search_words').using('gin', t.searchWords),
    // A shipment's return leg, looked up by every detail view (without it, a scan of every
    // shipment); unique, because a shipment goes back to its origin once.
    uniqueIndex('shipments_return_of_uq')
      .on(t.returnOfShipmentId)
      .where(sql`${t.returnOfShipmentId} is not null`),
    check('shipments_payer_ck', sql`${t.payer} in ('remitente', 'destinatario', 'tercero')`),
    check('shipments_payment_moment_ck', sql`${t.paymentMoment} in ('origen', 'destino', 'credito')`),
    check('shipments_payer_doc_type_ck', sql`${t.payerDocType} is null or ${t.payerDocType} in (1, 6)`),
    // A third party is somebody only by its document and name.
    check('shipments_third_payer_ck', sql`${t.payer} <> 'tercero' or (${t.payerDocNumber} is not null and ${t.payerName} is not null)`),
    // The sender stands at the origin counter: the destination collects from the recipient or a third party.
    check('shipments_destination_payer_ck', sql`${t.paymentMoment} <> 'destino' or ${t.payer} <> 'remitente'`),
    // 'Por cobrar en destino' per branch reads only the pago en destino shipments.
    index('shipments_destination_collect_idx')
      .on(t.destinationBranchId, t.status)
      .where(sql`${t.paymentMoment} = 'destino'`),
  ],
);

/** The history of a shipment: creation, status changes, manual events, edits, cancellation. */
export const shipmentEvents = pgTable(
  'shipment_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    // 'status' | 'event' | 'cancel' | 'edit' | 'secret' | 'description'; later issues add their own kinds.
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    note: text('note'),
    statusFrom: text('status_from'),
    statusTo: text('status_to'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    // No foreign key, as on shipments.created_by: history outlives staff accounts.
    userId: integer('user_id'),
    userName: text('user_name'),
    // Issue #38: a free-text event staff typed stays internal unless they marked it 'visible para el
    // cliente' when adding it; /seguimiento shows milestones (statuses, delivery) and only these.
    visibleToCustomer: boolean('visible_to_customer').notNull().default(false),
  },
  (t) => [index('shipment_events_shipment_idx').on(t.shipmentId, t.at)],
);

/**
 * Shipments per Lima day, route and status, kept by a trigger on `shipments` (migration 0005) in
 * the same transaction as every insert and status change. The Panel reads its counters and chart
 * here, so they cost the same at a million shipments as at a hundred.
 */
export const shipmentDailyCounts = pgTable(
  'shipment_daily_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    originBranchId: integer('origin_branch_id').notNull(),
    destinationBranchId: integer('destination_branch_id').notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.originBranchId, t.destinationBranchId, t.status] })],
);

/**
 * shipment_daily_counts added up over the routes: a row per (day, status), kept by statement
 * triggers on the counts (migration 0019), so whatever writes the counts (the fold, a recount)
 * keeps it exact. The whole company's Panel and list totals read a few thousand rows a year
 * here instead of a row per route, up to 64 times as many.
 */
export const shipmentDailyStatusCounts = pgTable(
  'shipment_daily_status_counts',
  {
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.status] })],
);

/**
 * shipment_daily_counts added up per branch: a row per (branch, day, status), kept by statement
 * triggers on the counts as migration 0019 keeps the whole company's (migration 0023). `n` counts
 * what leaves or reaches the branch once (an agent's scope), `nOrigin` what leaves it and
 * `nDestination` what reaches it (one side filtered). A branch's list and Panel read its few
 * thousand rows a year here instead of every route's.
 */
export const shipmentDailyBranchCounts = pgTable(
  'shipment_daily_branch_counts',
  {
    branchId: integer('branch_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
    nOrigin: integer('n_origin').notNull(),
    nDestination: integer('n_destination').notNull(),
  },
  (t) => [primaryKey({ columns: [t.branchId, t.day, t.status] })],
);

/**
 * The same counts per calendar month (its first day) instead of per day, one table for each daily
 * one, kept by statement triggers on the daily tables (migration 0092) as the money counters'
 * months are (migration 0024). A count over the whole history, or over a range of months, adds up a
 * dozen rows per key a year here, and only the days of a month the range cuts come from the daily
 * rows (lib/month-span.ts): ten years of history cost about what one does (issue 37). The route
 * table's key leads with the route, so a route and status filter (the list's origin + destination +
 * status) reads its own months only.
 */
export const shipmentMonthlyCounts = pgTable(
  'shipment_monthly_counts',
  {
    month: date('month', { mode: 'string' }).notNull(),
    originBranchId: integer('origin_branch_id').notNull(),
    destinationBranchId: integer('destination_branch_id').notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.originBranchId, t.destinationBranchId, t.status, t.month] })],
);

/** shipment_daily_status_counts per calendar month (migration 0092). */
export const shipmentMonthlyStatusCounts = pgTable(
  'shipment_monthly_status_counts',
  {
    month: date('month', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.status] })],
);

/** shipment_daily_branch_counts per calendar month (migration 0092). */
export const shipmentMonthlyBranchCounts = pgTable(
  'shipment_monthly_branch_counts',
  {
    branchId: integer('branch_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
    nOrigin: integer('n_origin').notNull(),
    nDestination: integer('n_destination').notNull(),
  },
  (t) => [primaryKey({ columns: [t.branchId, t.month, t.status] })],
);

/**
 * Changes to shipment_daily_counts not yet folded into it: the trigger appends ±1 rows here (no
 * row is shared between creations, so none waits on another) and a background fold moves them
 * into the counts. Readers sum both.
 */
export const shipmentDailyCountDeltas = pgTable('shipment_daily_count_deltas', {
  day: date('day', { mode: 'string' }).notNull(),
  originBranchId: integer('origin_branch_id').notNull(),
  destinationBranchId: integer('destination_branch_id').notNull(),
  status: text('status').notNull(),
  n: integer('n').notNull(),
});

/**
 * The names' search tokens of the shipments of the last 400 days (issue 37), kept by triggers and
 * pruned in the background (modules/shipments/recent-search.ts). A search over the last 30 or 365
 * days reads this index, whose lists hold a year of names, instead of shipments_search_words,
 * whose lists hold every year's: so a common name costs the same after ten years as after one.
 */
export const shipmentSearchRecent = pgTable(
  'shipment_search_recent',
  {
    shipmentId: integer('shipment_id').primaryKey(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    searchWords: tsvector('search_words').notNull(),
  },
  (t) => [index('shipment_search_recent_words').using('gin', t.searchWords), index('shipment_search_recent_created_idx').on(t.createdAt)],
);
