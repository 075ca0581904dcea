import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { readBoth, type Db, type Tx } from '../../db/client.ts';
import { auditLog, branches, customers, shipmentEvents, shipments, transportAssignments, transports } from '../../db/schema.ts';
import { insertReturning, preparedQuery, preparedSelect } from '../../lib/statements.ts';

export const originBranch = alias(branches, 'origin_branch');
export const destinationBranch = alias(branches, 'destination_branch');

export const rowColumns = {
  id: shipments.id,
  code: shipments.code,
  status: shipments.status,
  createdAt: shipments.createdAt,
  updatedAt: shipments.updatedAt,
  createdByName: shipments.createdByName,
  originBranchId: shipments.originBranchId,
  destinationBranchId: shipments.destinationBranchId,
  originName: originBranch.name,
  originCity: originBranch.city,
  destinationName: destinationBranch.name,
  destinationCity: destinationBranch.city,
  senderCustomerId: shipments.senderCustomerId,
  senderName: shipments.senderName,
  recipientFirstName: shipments.recipientFirstName,
  recipientLastName: shipments.recipientLastName,
  recipientName: shipments.recipientName,
  recipientDoc: shipments.recipientDoc,
  productType: shipments.productType,
  weightKg: shipments.weightKg,
  billableWeightKg: shipments.billableWeightKg,
  description: shipments.description,
  quotedPrice: shipments.quotedPrice,
  quotedCurrency: shipments.quotedCurrency,
  quotedFactorPerKg: shipments.quotedFactorPerKg,
  usingReverse: shipments.usingReverse,
  multiLineDetail: shipments.multiLineDetail,
  priceComponents: shipments.priceComponents,
  declaredValue: shipments.declaredValue,
  insured: shipments.insured,
  surcharges: shipments.surcharges,
  deliveredInfo: shipments.deliveredInfo,
  payer: shipments.payer,
  paymentMoment: shipments.paymentMoment,
  payerDocType: shipments.payerDocType,
  payerDocNumber: shipments.payerDocNumber,
  payerName: shipments.payerName,
  payerCustomerId: shipments.payerCustomerId,
};

/** The shipment's own columns of a row (without the branches' names), as an insert returns them. */
const { originName: _on, originCity: _oc, destinationName: _dn, destinationCity: _dc, ...ownColumns } = rowColumns;

export function selectRows(db: Db | Tx) {
  return db
    .select(rowColumns)
    .from(shipments)
    .innerJoin(originBranch, eq(originBranch.id, shipments.originBranchId))
    .innerJoin(destinationBranch, eq(destinationBranch.id, shipments.destinationBranchId));
}

export type ShipmentRow = Awaited<ReturnType<typeof selectRows>>[number];

export type ShipmentKey = { id: number } | { code: string };
const byKey = (key: ShipmentKey) => ('id' in key ? eq(shipments.id, key.id) : eq(shipments.code, key.code));

export interface BranchRef {
  id: number;
  name: string;
  city: string | null;
}

const branchRef = { id: branches.id, name: branches.name, city: branches.city };
const selectTwoBranches = preparedQuery<BranchRef>('select_two_branches', branchRef, (db) =>
  db
    .select(branchRef)
    .from(branches)
    .where(inArray(branches.id, [sql.placeholder('a'), sql.placeholder('b')])),
);

/** A shipment's two branches (origin and destination), in one prepared read. */
export async function findBranches(db: Db | Tx, [a, b]: readonly [number, number]): Promise<BranchRef[]> {
  return selectTwoBranches(db, { a, b });
}

export async function customerExists(db: Db | Tx, id: number): Promise<boolean> {
  const [c] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, id));
  return c !== undefined;
}

const nextShipmentCode = sql<string>`(select 'TMT-' || lpad(n::text, greatest(6, length(n::text)), '0') from nextval('shipment_code_seq') as n)`;

/**
 * Inserts a shipment and answers its row as findRow would, without reading it back: the insert
 * returns the shipment's columns and the caller already holds both branches.
 */
export async function insertShipment(
  tx: Tx,
  values: Omit<typeof shipments.$inferInsert, 'code'>,
  origin: BranchRef,
  destination: BranchRef,
): Promise<ShipmentRow> {
  // The code (formatShipmentCode of the sequence's next number) is taken by the insert itself, after
  // every check that can refuse, so refused requests burn no code.
  const row = await insertReturning<Omit<ShipmentRow, 'originName' | 'originCity' | 'destinationName' | 'destinationCity'>>(
    tx,
    'insert_shipment',
    shipments,
    values,
    ownColumns,
    { code: nextShipmentCode },
  );
  return { ...row, originName: origin.name, originCity: origin.city, destinationName: destination.name, destinationCity: destination.city };
}

/** The columns a creation gives a value (null included), in one fixed order: the statement's shape never varies. */
const newShipmentColumns = [
  'status',
  'createdAt',
  'updatedAt',
  'createdBy',
  'createdByName',
  'originBranchId',
  'destinationBranchId',
  'senderCustomerId',
  'senderName',
  'recipientFirstName',
  'recipientLastName',
  'recipientName',
  'recipientDoc',
  'productType',
  'weightKg',
  'billableWeightKg',
  'description',
  'quotedPrice',
  'quotedCurrency',
  'quotedFactorPerKg',
  'usingReverse',
  'multiLineDetail',
  'priceComponents',
  'declaredValue',
  'insured',
  'surcharges',
  'recipientPhone',
  'recipientEmail',
  'secretCodeHash',
  'payer',
  'paymentMoment',
  'payerDocType',
  'payerDocNumber',
  'payerName',
  'payerCustomerId',
] as const satisfies readonly (keyof typeof shipments.$inferInsert)[];

/** What a creation writes of the shipment itself, every column given (the code is the sequence's, taken by the statement). */
export type NewShipmentRow = Required<Pick<typeof shipments.$inferInsert, (typeof newShipmentColumns)[number]>>;

/**
 * A creation's three rows in ONE statement (issue 19: a round trip each was a quarter of the API's
 * CPU): the shipment, its first history line ('Creado', by its creator, at its creation time) and
 * its audit row, whose `after` is the caller's snapshot completed with the id and code the insert
 * took. One statement is one transaction: the three land together or not at all. It answers only
 * what the database chose (id, code, the event's id): the caller holds every value it wrote.
 */
const insertCreated = preparedSelect<{ id: number; code: string; eventId: number }>('insert_created_shipment', (db) => {
  const created = db.$with('created').as(
    db
      .insert(shipments)
      .values({ ...Object.fromEntries(newShipmentColumns.map((k) => [k, sql.placeholder(k)])), code: nextShipmentCode } as never)
      .returning({
        id: shipments.id,
        code: shipments.code,
        createdAt: shipments.createdAt,
        createdBy: shipments.createdBy,
        createdByName: shipments.createdByName,
      }),
  );
  const firstEvent = db.$with('first_event', { eventId: sql<number>`event_id`.mapWith(Number).as('event_id') }).as(
    sql`insert into ${shipmentEvents} (shipment_id, kind, name, status_to, at, user_id, user_name)
        select id, 'status', 'Creado', 'Creado', created_at, created_by, created_by_name from ${created} returning id as event_id`,
  );
  const audited = db.$with('audited', { auditId: sql<number>`audit_id`.as('audit_id') }).as(
    sql`insert into ${auditLog} (user_id, entity, entity_id, action, after)
        select created_by, 'shipment', id::text, 'create', ${sql.placeholder('after')}::jsonb || jsonb_build_object('id', id, 'code', code)
        from ${created} returning id as audit_id`,
  );
  return db
    .with(created, firstEvent, audited)
    .select({ id: created.id, code: created.code, eventId: firstEvent.eventId })
    .from(created)
    .crossJoin(firstEvent);
});

/**
 * Inserts a new shipment with its first event and its audit row (insertCreated); answers the
 * shipment's id and code and the event's id. `after` is the audit snapshot without the id and
 * code, which the statement fills in.
 */
export async function insertNewShipment(db: Db | Tx, values: NewShipmentRow, after: Record<string, unknown>) {
  const [created] = await insertCreated(db, { ...values, after: JSON.stringify(after) });
  return created!;
}

export async function updateShipmentRow(tx: Tx, id: number, changes: Partial<typeof shipments.$inferInsert>): Promise<void> {
  await tx.update(shipments).set(changes).where(eq(shipments.id, id));
}

/** Locks the shipment row for the rest of the transaction. */
export async function lockRow(tx: Tx, key: ShipmentKey) {
  const [locked] = await tx
    .select({ id: shipments.id, status: shipments.status, originBranchId: shipments.originBranchId })
    .from(shipments)
    .where(byKey(key))
    .for('update');
  return locked ?? null;
}

/** The plate of the transport the shipment is loaded on, if any. */
export async function loadedOnPlate(tx: Tx, shipmentId: number): Promise<string | null> {
  const [loaded] = await tx
    .select({ plate: transports.platePrimary })
    .from(transportAssignments)
    .innerJoin(transports, eq(transports.id, transportAssignments.transportId))
    .where(eq(transportAssignments.shipmentId, shipmentId));
  return loaded?.plate ?? null;
}

export async function findEventOf(tx: Tx, shipmentId: number, eventId: number) {
  const [event] = await tx
    .select({ id: shipmentEvents.id, kind: shipmentEvents.kind, name: shipmentEvents.name, at: shipmentEvents.at, userName: shipmentEvents.userName })
    .from(shipmentEvents)
    .where(and(eq(shipmentEvents.id, eventId), eq(shipmentEvents.shipmentId, shipmentId)));
  return event ?? null;
}

export async function deleteEvent(tx: Tx, eventId: number): Promise<void> {
  await tx.delete(shipmentEvents).where(eq(shipmentEvents.id, eventId));
}

export interface EventRow {
  id: number;
  kind: string;
  name: string;
  note: string | null;
  statusFrom: string | null;
  statusTo: string | null;
  at: Date;
  userName: string | null;
  visibleToCustomer: boolean;
}

// A shipment's detail (every view, every change's answer) reads its row, events and links: prepared
// once each (lib/statements.ts) instead of drizzle rebuilding ~30 columns and two joins per call.
const selectRowById = preparedQuery<ShipmentRow>('select_shipment_by_id', rowColumns, (db) =>
  selectRows(db).where(eq(shipments.id, sql.placeholder('id'))),
);
const selectRowByCode = preparedQuery<ShipmentRow>('select_shipment_by_code', rowColumns, (db) =>
  selectRows(db).where(eq(shipments.code, sql.placeholder('code'))),
);

export async function findRow(db: Db | Tx, key: ShipmentKey): Promise<ShipmentRow | null> {
  const [row] = 'id' in key ? await selectRowById(db, { id: key.id }) : await selectRowByCode(db, { code: key.code });
  return row ?? null;
}

const eventColumns = {
  id: shipmentEvents.id,
  kind: shipmentEvents.kind,
  name: shipmentEvents.name,
  note: shipmentEvents.note,
  statusFrom: shipmentEvents.statusFrom,
  statusTo: shipmentEvents.statusTo,
  at: shipmentEvents.at,
  userName: shipmentEvents.userName,
  visibleToCustomer: shipmentEvents.visibleToCustomer,
};
const selectEvents = preparedQuery<EventRow>('select_shipment_events', eventColumns, (db) =>
  db
    .select(eventColumns)
    .from(shipmentEvents)
    .where(eq(shipmentEvents.shipmentId, sql.placeholder('shipmentId')))
    .orderBy(asc(shipmentEvents.at), asc(shipmentEvents.id)),
);

export async function findEvents(db: Db | Tx, shipmentId: number): Promise<EventRow[]> {
  return selectEvents(db, { shipmentId });
}

/** The shipment an original was returned as (its return leg), if any. */
const legColumns = { id: shipments.id, code: shipments.code };
const selectReturnLeg = preparedQuery<{ id: number; code: string }>('select_return_leg', legColumns, (db) =>
  db
    .select(legColumns)
    .from(shipments)
    .where(eq(shipments.returnOfShipmentId, sql.placeholder('originalId'))),
);

export async function findReturnLeg(db: Db | Tx, originalId: number): Promise<{ id: number; code: string } | null> {
  const [leg] = await selectReturnLeg(db, { originalId });
  return leg ?? null;
}

const original = alias(shipments, 'original');
const returnOfColumns = { returnOfId: original.id, returnOfCode: original.code };
const selectReturnOf = preparedQuery<{ returnOfId: number | null; returnOfCode: string | null }>('select_return_of', returnOfColumns, (db) =>
  db
    .select(returnOfColumns)
    .from(shipments)
    .leftJoin(original, eq(original.id, shipments.returnOfShipmentId))
    .where(eq(shipments.id, sql.placeholder('id'))),
);

/** Both links of a shipment: the original it returns (when it is a return leg) and the leg it was returned as. */
export async function findReturnLinks(db: Db | Tx, shipmentId: number) {
  const [[row], returnedAs] = await readBoth(
    db,
    () => selectReturnOf(db, { id: shipmentId }),
    () => findReturnLeg(db, shipmentId),
  );
  return {
    returnOf: row?.returnOfId != null && row.returnOfCode != null ? { id: row.returnOfId, code: row.returnOfCode } : null,
    returnedAs,
  };
}

/** A customer's document and contact: the return leg's recipient is the original's sender. */
export async function customerContact(tx: Tx, customerId: number | null) {
  if (customerId === null) return null;
  const [c] = await tx
    .select({ docNumber: customers.docNumber, phone: customers.phone, email: customers.email })
    .from(customers)
    .where(eq(customers.id, customerId));
  return c ?? null;
}

/** The idempotency key the return of `originalId` was made with (kept in its audit row). */
export async function returnIdempotencyKey(db: Db | Tx, originalId: number): Promise<string | null> {
  const [row] = await db
    .select({ key: sql<string | null>`${auditLog.after} ->> 'idempotencyKey'` })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'shipment'), eq(auditLog.entityId, String(originalId)), eq(auditLog.action, 'return')))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row?.key ?? null;
}

/** Customers by document: the return leg's sender is the original recipient's customer record when there is one. */
export async function customerByDoc(tx: Tx, docNumber: string): Promise<number | null> {
  const [c] = await tx.select({ id: customers.id }).from(customers).where(eq(customers.docNumber, docNumber)).limit(1);
  return c?.id ?? null;
}
/**
 * Whether a live payment (pending or paid) or a live document (neither voided nor rejected) stands
 * on the shipment: then it is neither cancelled nor repriced (issues 30 and 31). The database's own
 * guard (migration 0031) asks the same function, so the friendly refusal and the last word agree.
 */
export async function hasLiveCharge(tx: Tx, shipmentId: number): Promise<boolean> {
  const result = await tx.execute(sql`select tramo_shipment_has_live_charge(${shipmentId}) as charged`);
  return (result.rows[0] as { charged: boolean }).charged;
}
