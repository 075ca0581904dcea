import { and, asc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { formatDocumentNumber, type Scope } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import {
  auditLog,
  branches,
  creditAllocations,
  customers,
  documentEvents,
  documents,
  documentSeries,
  documentShipments,
  payments,
  shipments,
} from '../../db/schema.ts';
import { branchScopeCondition } from '../../lib/branch-scope.ts';
import { preparedSelect } from '../../lib/statements.ts';

export type DocumentRecord = typeof documents.$inferSelect;
export type DocumentEventRecord = typeof documentEvents.$inferSelect;

/**
 * The next number of a series, taken by an upsert that holds the counter row's lock until the
 * emitting transaction ends: concurrent emissions queue on it, and a rolled-back emission gives its
 * number back, so the series has no gaps and no duplicates (never max()+1).
 */
export async function takeNumber(tx: Tx, type: string, series: string): Promise<number> {
  const [row] = await tx
    .insert(documentSeries)
    .values({ type, series, lastNumber: 1 })
    .onConflictDoUpdate({ target: [documentSeries.type, documentSeries.series], set: { lastNumber: sql`${documentSeries.lastNumber} + 1` } })
    .returning({ n: documentSeries.lastNumber });
  return row!.n;
}

/** The register's columns a numbered document is stored with (everything but its id). */
export type NewDocument = Omit<typeof documents.$inferInsert, 'id'>;

/** Stores a numbered document and links the shipments it bills or carries, in the numbering transaction. */
export async function insertDocument(tx: Tx, values: NewDocument, links: { shipmentId: number; role?: 'guia' }[]): Promise<DocumentRecord> {
  const [row] = await tx.insert(documents).values(values).returning();
  if (links.length > 0) await tx.insert(documentShipments).values(links.map((link) => ({ ...link, documentId: row!.id })));
  return row!;
}

/**
 * Where a status change may start from. The conditional update is the lock: of two changes at once,
 * one finds the document still there. A void starts from an accepted document, or a boleta still
 * pending at SUNAT (not yet in a daily summary: SUNAT lets the summary report it voided, estado 3,
 * and the void is tracked as any other).
 */
const FROM_STATUS = {
  pendiente: eq(documents.status, 'pendiente'),
  'anulación pendiente': eq(documents.status, 'anulación pendiente'),
  voidable: or(eq(documents.status, 'aceptado'), and(eq(documents.type, '03'), eq(documents.status, 'pendiente'))),
};

/** What a document is numbered and stored with: its register columns and its document, both without the number. */
export type UnnumberedDocument = Omit<NewDocument, 'number' | 'document'> & { document: Record<string, unknown> };

/** The register columns `numberAndInsert` writes, each from a placeholder of its name (undefined ones as null). */
const numberedColumns = [
  'type',
  'series',
  'issueDate',
  'contingency',
  'customerId',
  'customerDocType',
  'customerDocNumber',
  'customerName',
  'gravada',
  'exonerada',
  'inafecta',
  'igv',
  'total',
  'modifies',
  'idempotencyKey',
  'idempotencyHash',
  'branchId',
  'userId',
  'userName',
] as const satisfies readonly (keyof NewDocument)[];

/**
 * The number taken, the document stored with it (in its columns and in its JSON), its first event
 * ('emitido', its request the numbered document) and its audit row, in ONE statement prepared once
 * (issue 37). The series' counter row is locked by the first of its parts, so the lock is held for
 * this one round trip and the commit, not for four round trips on a busy event loop; drizzle builds
 * it once instead of four queries per emission.
 */
const numberAndInsertStatement = preparedSelect<DocumentRecord>('number_and_insert_document', (db) => {
  const numbered = db.$with('numbered', { n: sql<number>`n`.as('n') }).as(
    sql`insert into ${documentSeries} (type, series, last_number) values (${sql.placeholder('type')}, ${sql.placeholder('series')}, 1)
        on conflict (type, series) do update set last_number = ${documentSeries}.last_number + 1 returning last_number as n`,
  );
  const inserted = db.$with('inserted').as(
    db
      .insert(documents)
      .values({
        ...Object.fromEntries(numberedColumns.map((k) => [k, sql.placeholder(k)])),
        number: sql`(select n from numbered)`,
        document: sql`${sql.placeholder('document')}::jsonb || jsonb_build_object('number', (select n from numbered))`,
      } as never)
      .returning(),
  );
  const event = db.$with('event', { eventId: sql<number>`event_id`.as('event_id') }).as(
    sql`insert into ${documentEvents} (document_id, kind, user_id, user_name, operation, request)
        select id, 'emitido', user_id, user_name, 'emit', document from inserted returning id as event_id`,
  );
  const audited = db.$with('audited', { auditId: sql<number>`audit_id`.as('audit_id') }).as(
    sql`insert into ${auditLog} (user_id, entity, entity_id, action, after)
        select user_id, 'document', id::text, 'emit', jsonb_build_object('type', type, 'series', series, 'number', number)
        from inserted returning id as audit_id`,
  );
  return db.with(numbered, inserted, event, audited).select().from(inserted);
});

/**
 * Numbers and stores a document (see `numberAndInsertStatement`) and links the shipments it bills or
 * carries (in the caller's transaction when there are links: they land with the document);
 * `values.document` gets its `number` from the statement.
 */
export async function numberAndInsert(
  db: Db | Tx,
  values: UnnumberedDocument,
  links: { shipmentId: number; role?: 'guia' }[],
): Promise<DocumentRecord> {
  const given: Record<string, unknown> = Object.fromEntries(numberedColumns.map((k) => [k, values[k] ?? null]));
  const [row] = await numberAndInsertStatement(db, { ...given, document: JSON.stringify(values.document) });
  if (links.length > 0) await db.insert(documentShipments).values(links.map((link) => ({ ...link, documentId: row!.id })));
  return row!;
}

/** Changes a document's row, only from `from` when given; null when it no longer stood there. */
export async function updateDocument(
  db: Db | Tx,
  id: number,
  changes: Partial<NewDocument>,
  from?: keyof typeof FROM_STATUS,
): Promise<DocumentRecord | null> {
  const [row] = await db
    .update(documents)
    .set(changes)
    .where(and(eq(documents.id, id), from ? FROM_STATUS[from] : undefined))
    .returning();
  return row ?? null;
}

/** What a provider's answer to a pending document writes: the row's new values, its event and its audit. */
export interface PendingAnswer {
  id: number;
  status: string;
  hash: string | null;
  qrText: string | null;
  xml: string | null;
  pdfUrl: string | null;
  providerMessage: string | null;
  updatedAt: Date;
  eventKind: string;
  userId: number | null;
  userName: string | null;
  note: string | null;
  operation: string;
  answer: unknown;
}

/**
 * A pending document's answer in ONE statement prepared once (issue 37): the row changed only if
 * still 'pendiente' (the conditional update is the lock, as `updateDocument`'s), its event and its
 * audit row; three round trips and three drizzle builds per emission before. Answers the row, or
 * nothing when it no longer was pending (the event and audit are written either way, as before).
 */
const answerPendingStatement = preparedSelect<DocumentRecord>('answer_pending_document', (db) => {
  const p = (name: string) => sql.placeholder(name);
  const updated = db.$with('updated').as(
    db
      .update(documents)
      .set({
        status: p('status'),
        hash: p('hash'),
        qrText: p('qrText'),
        xml: p('xml'),
        pdfUrl: p('pdfUrl'),
        providerMessage: p('providerMessage'),
        updatedAt: p('updatedAt'),
      } as never)
      .where(and(eq(documents.id, p('id') as never), FROM_STATUS.pendiente))
      .returning(),
  );
  const event = db.$with('event', { eventId: sql<number>`event_id`.as('event_id') }).as(
    sql`insert into ${documentEvents} (document_id, kind, user_id, user_name, note, operation, answer)
        values (${p('id')}, ${p('eventKind')}, ${p('userId')}, ${p('userName')}, ${p('note')}, ${p('operation')}, ${p('answer')}::jsonb)
        returning id as event_id`,
  );
  const audited = db.$with('audited', { auditId: sql<number>`audit_id`.as('audit_id') }).as(
    sql`insert into ${auditLog} (user_id, entity, entity_id, action, after)
        values (${p('userId')}, 'document', ${p('id')}::text, ${p('operation')}, jsonb_build_object('status', ${p('status')}::text))
        returning id as audit_id`,
  );
  return db.with(updated, event, audited).select().from(updated);
});

export async function answerPending(db: Db | Tx, a: PendingAnswer): Promise<DocumentRecord | null> {
  const [row] = await answerPendingStatement(db, { ...a, answer: a.answer === undefined ? null : JSON.stringify(a.answer) });
  return row ?? null;
}

/** A rejected or voided document lets its shipments go: they may be billed or carried again. */
export async function freeShipments(db: Db | Tx, documentId: number): Promise<void> {
  await db.update(documentShipments).set({ live: false }).where(eq(documentShipments.documentId, documentId));
}

/** A registered customer as a document names it. */
export async function customerById(db: Db, id: number) {
  const [row] = await db.select().from(customers).where(eq(customers.id, id));
  return row ?? null;
}

export async function findDocument(db: Db | Tx, id: number): Promise<DocumentRecord | null> {
  const [row] = await db.select().from(documents).where(eq(documents.id, id));
  return row ?? null;
}

export async function findByNumber(db: Db, type: string, series: string, number: number): Promise<DocumentRecord | null> {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.type, type), eq(documents.series, series), eq(documents.number, number)));
  return row ?? null;
}

/** A client's idempotency key as stored: trimmed, and a blank one is no key at all (null). */
export const idempotencyKeyOf = (key: string | null | undefined): string | null => key?.trim() || null;

/** The document a branch issued under an idempotency key; keys are per issuing branch (documents_branch_idempotency_uq). */
export async function findByIdempotencyKey(db: Db, branchId: number | null, key: string | null | undefined): Promise<DocumentRecord | null> {
  const stored = idempotencyKeyOf(key);
  if (!stored) return null;
  const [row] = await db
    .select()
    .from(documents)
    .where(and(sql`coalesce(${documents.branchId}, 0) = ${branchId ?? 0}`, eq(documents.idempotencyKey, stored)));
  return row ?? null;
}

/**
 * Whether a document is the receipt of a payment still pending or paid: it is voided with its
 * payment, never on its own (the trigger of migration 0029 holds the same rule in the database).
 */
export async function isReceiptOfLivePayment(db: Db, documentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.documentId, documentId), inArray(payments.status, ['pending', 'paid'])))
    .limit(1);
  return row !== undefined;
}

export interface EventInput {
  kind: string;
  userId?: number | null;
  userName?: string | null;
  note?: string | null;
  operation?: string | null;
  request?: unknown;
  answer?: unknown;
}

export async function addEvent(db: Db | Tx, documentId: number, e: EventInput): Promise<void> {
  await db.insert(documentEvents).values({
    documentId,
    kind: e.kind,
    userId: e.userId ?? null,
    userName: e.userName ?? null,
    note: e.note ?? null,
    operation: e.operation ?? null,
    request: e.request ?? null,
    answer: e.answer ?? null,
  });
}

/** Whether SUNAT accepted the document at some point (its history holds the acceptance). */
export async function wasAccepted(db: Db | Tx, documentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: documentEvents.id })
    .from(documentEvents)
    .where(and(eq(documentEvents.documentId, documentId), eq(documentEvents.kind, 'aceptado')))
    .limit(1);
  return row !== undefined;
}

export async function eventsOf(db: Db, documentId: number): Promise<DocumentEventRecord[]> {
  return db.select().from(documentEvents).where(eq(documentEvents.documentId, documentId)).orderBy(asc(documentEvents.id));
}

export async function branchName(db: Db, id: number | null): Promise<string | null> {
  if (id === null) return null;
  const [row] = await db.select({ name: branches.name }).from(branches).where(eq(branches.id, id));
  return row?.name ?? null;
}

export async function shipmentsOf(db: Db, documentId: number): Promise<{ id: number; code: string }[]> {
  return db
    .select({ id: shipments.id, code: shipments.code })
    .from(documentShipments)
    .innerJoin(shipments, eq(shipments.id, documentShipments.shipmentId))
    .where(eq(documentShipments.documentId, documentId))
    .orderBy(asc(shipments.id));
}

/** A shipment's origin and destination branch names, as the billing form lists them. */
const branchNames = {
  originName: sql<string>`(select name from branches b where b.id = ${shipments.originBranchId})`,
  destinationName: sql<string>`(select name from branches b where b.id = ${shipments.destinationBranchId})`,
};

/**
 * What a freight detracción factura's trip takes from a shipment: its branches' ubigeo and address
 * and its route's reference values (the pricing module's table), null where not configured. The
 * route's columns are named with their table: drizzle writes them bare, which inside the subquery
 * would be the reference table's own.
 */
const tripOfShipment = {
  originUbigeo: sql<string | null>`(select ubigeo from branches b where b.id = ${shipments.originBranchId})`,
  originAddress: sql<string | null>`(select address from branches b where b.id = ${shipments.originBranchId})`,
  destinationUbigeo: sql<string | null>`(select ubigeo from branches b where b.id = ${shipments.destinationBranchId})`,
  destinationAddress: sql<string | null>`(select address from branches b where b.id = ${shipments.destinationBranchId})`,
  reference: sql<{
    service_per_tm: string;
    effective_load_tm: string;
    nominal_load_tm: string;
  } | null>`(select json_build_object('service_per_tm', r.service_per_tm::text, 'effective_load_tm', r.effective_load_tm::text, 'nominal_load_tm', r.nominal_load_tm::text) from route_reference_values r where r.origin_branch_id = shipments.origin_branch_id and r.destination_branch_id = shipments.destination_branch_id)`,
};

/**
 * A sender's shipments that may be billed: not Anulado and on no live document. Given ids, those
 * shipments instead, whoever sent them (a credit account bills what its customer pays for, issue 35).
 */
export async function unbilledShipments(db: Db, customerId: number, scope: Scope, shipmentIds?: readonly number[]) {
  return db
    .select({
      id: shipments.id,
      code: shipments.code,
      createdAt: shipments.createdAt,
      status: shipments.status,
      price: shipments.quotedPrice,
      ...branchNames,
      ...tripOfShipment,
    })
    .from(shipments)
    .where(
      and(
        shipmentIds ? inArray(shipments.id, [...shipmentIds]) : eq(shipments.senderCustomerId, customerId),
        ne(shipments.status, 'Anulado'),
        branchScopeCondition(scope, shipments.originBranchId, shipments.destinationBranchId),
        sql`not exists (select 1 from document_shipments ds where ds.shipment_id = ${shipments.id} and ds.live and ds.role = 'comprobante')`,
      ),
    )
    .orderBy(asc(shipments.id))
    .limit(shipmentIds ? Math.max(shipmentIds.length, 1) : 500);
}

export async function shipmentsByIds(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: shipments.id,
      code: shipments.code,
      status: shipments.status,
      originBranchId: shipments.originBranchId,
      destinationBranchId: shipments.destinationBranchId,
      ...branchNames,
    })
    .from(shipments)
    .where(inArray(shipments.id, ids));
}

/** The live document a shipment is on (for the refusal message), if any: billed on a comprobante, or carried under a guide. */
export async function liveDocumentOfShipment(
  db: Db,
  shipmentId: number,
  role: ShipmentRole = 'comprobante',
): Promise<{ type: string; series: string; number: number } | null> {
  const [row] = await db
    .select({ type: documents.type, series: documents.series, number: documents.number })
    .from(documentShipments)
    .innerJoin(documents, eq(documents.id, documentShipments.documentId))
    .where(and(eq(documentShipments.shipmentId, shipmentId), eq(documentShipments.live, true), eq(documentShipments.role, role)));
  return row ?? null;
}

/** A credit note against this comprobante that SUNAT has not answered yet ('pendiente'), the oldest; null when none. */
export async function pendingCreditNoteAgainst(
  db: Db,
  modified: { type: string; series: string; number: number },
): Promise<{ series: string; number: number } | null> {
  const [row] = await db
    .select({ series: documents.series, number: documents.number })
    .from(documents)
    .where(and(notesAgainst(modified.type, formatDocumentNumber(modified.series, modified.number)), eq(documents.status, 'pendiente')))
    .orderBy(documents.id)
    .limit(1);
  return row ?? null;
}

/** How a shipment is on a document: billed on it, or carried under it (a GRE-T). */
export type ShipmentRole = 'comprobante' | 'guia';

/** The live carrier guide of each of these shipments ('VVV1-00000003'), for the load listing. */
export async function liveGuidesOf(
  db: Db | Tx,
  shipmentIds: number[],
): Promise<Map<number, { id: number; series: string; number: number; status: string }>> {
  if (shipmentIds.length === 0) return new Map();
  const rows = await db
    .select({
      shipmentId: documentShipments.shipmentId,
      id: documents.id,
      series: documents.series,
      number: documents.number,
      status: documents.status,
    })
    .from(documentShipments)
    .innerJoin(documents, eq(documents.id, documentShipments.documentId))
    .where(and(inArray(documentShipments.shipmentId, shipmentIds), eq(documentShipments.live, true), eq(documentShipments.role, 'guia')));
  return new Map(rows.map((r) => [r.shipmentId, { id: r.id, series: r.series, number: r.number, status: r.status }]));
}

/**
 * The document a credit note modifies, locked until the note's transaction ends when `lock` says so:
 * two notes against one document then queue, and the second sees the first's credit.
 */
export async function modifiedDocument(db: Db | Tx, type: string, series: string, number: number, lock = false): Promise<DocumentRecord | null> {
  const query = db
    .select()
    .from(documents)
    .where(and(eq(documents.type, type), eq(documents.series, series), eq(documents.number, number)));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

/** The credit notes against the document of `modifiedType` numbered `modifies` ('F001-00000012'), whatever their status. */
const notesAgainst = (modifiedType: string, modifies: string) =>
  and(eq(documents.type, '07'), eq(documents.modifies, modifies), sql`${documents.document} -> 'creditNote' ->> 'modifiedType' = ${modifiedType}`);

/**
 * What the credit notes against a document credit: the live ones (voided and rejected notes credit
 * nothing), or only those SUNAT accepted, which free its shipments (migration 0115).
 */
export async function creditedCents(db: Db | Tx, modifiedType: string, modifies: string, notes: 'live' | 'accepted' = 'live'): Promise<number> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(round(${documents.total} * 100)), 0)::text` })
    .from(documents)
    .where(
      and(
        notesAgainst(modifiedType, modifies),
        notes === 'live' ? sql`${documents.status} not in ('anulado', 'rechazado')` : eq(documents.status, 'aceptado'),
      ),
    );
  return Number(row?.cents ?? 0);
}

/** The first live comprobante billing a shipment this document billed and let go ('F001-00000012'), as the database tells it (0115). */
export async function holderOfReleasedShipments(db: Db | Tx, documentId: number): Promise<string | null> {
  const { rows } = await db.execute(sql`select tramo_released_shipments_holder(${documentId}) as holder`);
  return (rows[0] as { holder: string | null } | undefined)?.holder ?? null;
}

/**
 * What credit-account collections paid of a factura (its live allocations, the credit module's
 * table, read only). Read after the factura is locked, as the allocation guard locks it (0080).
 */
export async function collectedCents(db: Db | Tx, documentId: number): Promise<number> {
  const [row] = await db
    .select({ cents: sql<string>`coalesce(sum(round(${creditAllocations.amount} * 100)), 0)::text` })
    .from(creditAllocations)
    .where(and(eq(creditAllocations.documentId, documentId), eq(creditAllocations.live, true)));
  return Number(row?.cents ?? 0);
}
