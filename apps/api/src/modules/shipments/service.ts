import type { FastifyInstance } from 'fastify';
import { and, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  alreadyReturnedAs,
  canReturn,
  FLEET_MESSAGES,
  RETURN_MESSAGES,
  returnRefusal,
  NUMBERED_PAGE_ROWS,
  SEARCH_FLOOR_MARGIN,
  canEdit,
  canManage,
  canSee,
  cancelRefusal,
  closedShipmentRefusal,
  centsToString,
  checkStatusChange,
  displayName,
  dominantProductType,
  normalizeShipmentCode,
  PRICING_MESSAGES,
  PRODUCT_TYPES,
  SHIPMENT_MESSAGES,
  sumCents,
  totalLines,
  type DeliveredInfo,
  type ProductType,
  type NewShipment,
  type ShipmentLine,
  type ShipmentLineInput,
  type ShipmentListQuery,
  type ShipmentSearchRow,
  type ShipmentStatus,
  type ShipmentUpdate,
  type descriptionChangeSchema,
} from '@tramo/domain';
import { readBoth, type Db, type Tx } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { addShipmentEvent, type KnownShipment, type ShipmentEventInput } from '../../lib/shipment-events.ts';
import { AppError, badRequest, conflict, forbidden, isForeignKeyViolation, notFound, unprocessable } from '../../lib/errors.ts';
import type { SessionUser } from '../../types.ts';
import { enqueueNotifications, mayHaveAddressees } from '../notifications/index.ts';
import { findRouteTables, quoteFromTable, type RouteTable } from '../pricing/index.ts';
import {
  branchScope,
  customerByDoc,
  customerContact,
  customerExists,
  deleteEvent,
  filterConditions,
  findBranches,
  findEventOf,
  findEvents,
  findReturnLeg,
  findReturnLinks,
  findRow,
  foldDailyCounts,
  insertNewShipment,
  insertShipment,
  countUpTo,
  dailyCountTotal,
  listPage,
  loadedOnPlate,
  lockRow,
  returnIdempotencyKey,
  searchMatchesFloor,
  searchRows,
  updateShipmentRow,
  type BranchRef,
  type EventRow,
  type ShipmentKey,
  type ShipmentRow,
} from './repository.ts';

export { canManage, canSee };

function toCheckpoint(e: EventRow) {
  return {
    id: e.id,
    name: e.name,
    at: e.at.toISOString(),
    userName: e.userName,
    kind: e.kind,
    note: e.note,
    statusFrom: e.statusFrom,
    statusTo: e.statusTo,
  };
}

/** Spec section 3 shape; numbers as numbers; the secret code hash never leaves the database. */
export function toShipmentDto(row: ShipmentRow, actor: SessionUser, events?: EventRow[]) {
  return {
    id: row.id,
    code: row.code,
    status: row.status as ShipmentStatus,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    createdByName: row.createdByName,
    originBranchId: row.originBranchId,
    destinationBranchId: row.destinationBranchId,
    originBranch: { name: row.originName, city: row.originCity },
    destinationBranch: { name: row.destinationName, city: row.destinationCity },
    senderCustomerId: row.senderCustomerId,
    senderName: row.senderName,
    recipientFirstName: row.recipientFirstName,
    recipientLastName: row.recipientLastName,
    recipientName: row.recipientName,
    recipientDoc: row.recipientDoc,
    productType: row.productType as ProductType,
    weightKg: Number(row.weightKg),
    billableWeightKg: row.billableWeightKg,
    description: row.description,
    quotedPrice: Number(row.quotedPrice),
    quotedCurrency: row.quotedCurrency,
    quotedFactorPerKg: Number(row.quotedFactorPerKg),
    usingReverse: row.usingReverse,
    multiLineDetail: row.multiLineDetail as ShipmentLine[],
    deliveredInfo: row.deliveredInfo as DeliveredInfo | null,
    ...(events ? { checkpoints: events.map(toCheckpoint) } : {}),
    canManage: canManage(actor, row.originBranchId),
    canEdit: row.status === 'Creado' && canEdit(actor, row.originBranchId),
  };
}
export type ShipmentDto = ReturnType<typeof toShipmentDto>;

/** `12` or `TMT-000012` (any case, padding optional) → the lookup key; anything else is a 404. */
export function shipmentKey(idOrCode: string): ShipmentKey {
  if (/^\d{1,9}$/.test(idOrCode)) return { id: Number(idOrCode) };
  const code = /^tmt/i.test(idOrCode) ? normalizeShipmentCode(idOrCode) : null;
  if (!code) throw notFound(SHIPMENT_MESSAGES.notFound);
  return { code };
}

async function loadDto(db: Db | Tx, actor: SessionUser, key: ShipmentKey) {
  const row = await findRow(db, key);
  if (!row) throw notFound(SHIPMENT_MESSAGES.notFound);
  const [events, links] = await readBoth(
    db,
    () => findEvents(db, row.id),
    () => findReturnLinks(db, row.id),
  );
  return { ...toShipmentDto(row, actor, events), ...links };
}

/**
 * A searched list's total. The statistics' floor is one of the whole table, so it stands only for
 * a search nothing else narrows (no other filter, every branch).
 */
async function searchTotal(
  db: Db,
  actor: SessionUser,
  filters: Omit<ShipmentListQuery, 'page' | 'pageSize' | 'after' | 'before'>,
  where: SQL | undefined,
) {
  const { q, ...others } = filters;
  const alone = q !== undefined && actor.role === 'admin' && Object.values(others).every((v) => v === undefined);
  if (alone && (await searchMatchesFloor(db, q)) >= SEARCH_FLOOR_MARGIN * NUMBERED_PAGE_ROWS) {
    return { total: NUMBERED_PAGE_ROWS, totalCapped: true };
  }
  return countUpTo(db, where, NUMBERED_PAGE_ROWS);
}

/**
 * The list: a page by number or by cursor, and its total. Without a text search the total is exact
 * and read from the daily counts (a few hundred rows, whatever the table holds); with one — or with
 * the open-incident filter, which the counts do not know — it is counted up to the numbered pages'
 * reach and is "more than" past it, or said to be "more than" uncounted when the search is one
 * common word and nothing else narrows it.
 */
export async function listShipments(app: FastifyInstance, actor: SessionUser, query: ShipmentListQuery) {
  const { page, pageSize, after, before, ...filters } = query;
  const where = and(branchScope(actor), ...filterConditions(filters));
  const [found, counted] = await Promise.all([
    listPage(app.db, where, { page, pageSize, after, before }),
    filters.q || filters.incidencia
      ? searchTotal(app.db, actor, filters, where)
      : dailyCountTotal(app.db, actor, filters).then((total) => ({ total, totalCapped: false })),
  ]);
  return {
    items: found.rows.map((r) => toShipmentDto(r, actor)),
    ...counted,
    page,
    pageSize,
    next: found.next,
    prev: found.prev,
  };
}

/** Tracking: every role, every branch, read-only (DESIGN.md section 4). */
export async function searchShipments(
  app: FastifyInstance,
  query: { q?: string | undefined; originId?: number | undefined; destinationId?: number | undefined; status?: ShipmentStatus | undefined },
) {
  const rows = await searchRows(app.db, query, 20);
  return rows.map(toSearchRow);
}

/** The tracking screen's row: nothing it does not show (every branch can search). */
function toSearchRow(row: ShipmentRow): ShipmentSearchRow {
  return {
    id: row.id,
    code: row.code,
    status: row.status as ShipmentStatus,
    createdAt: row.createdAt.toISOString(),
    originBranch: { name: row.originName, city: row.originCity },
    destinationBranch: { name: row.destinationName, city: row.destinationCity },
    recipientName: row.recipientName,
    recipientDoc: row.recipientDoc,
  };
}

/** Detail by id or code, scoped like the list. */
export async function getShipment(app: FastifyInstance, actor: SessionUser, idOrCode: string) {
  const dto = await loadDto(app.db, actor, shipmentKey(idOrCode));
  if (!canSee(actor, dto)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
  return dto;
}

/** Tracking and delivery lookup by code: every branch, read-only for those who cannot manage. */
export async function getShipmentByCode(app: FastifyInstance, actor: SessionUser, code: string) {
  const normalized = normalizeShipmentCode(code);
  if (!normalized) throw notFound(SHIPMENT_MESSAGES.notFound);
  return loadDto(app.db, actor, { code: normalized });
}

interface PricedLines {
  lines: ShipmentLine[];
  weightKg: string;
  billableWeightKg: number;
  productType: ShipmentLine['productType'];
  quotedPrice: string;
  quotedCurrency: string;
  quotedFactorPerKg: string;
  usingReverse: boolean;
}

/**
 * Every line is requoted from the price tables inside the transaction: the client's prices are
 * never read. The shipment's factor is the first line of the dominant class (the one its category
 * comes from); usingReverse is true when any line was priced from the reverse route's table.
 */
async function priceLines(tx: Tx, originId: number, destinationId: number, input: ShipmentLineInput[]): Promise<PricedLines> {
  // One query for the tables of every class the lines use.
  const tables = await findRouteTables(
    tx,
    originId,
    destinationId,
    input.map((l) => l.productType),
  );
  return priceWith(tables, input);
}

/** As priceLines, on a route's tables already read (a creation's come from the reference cache). */
function priceWith(tables: Map<ProductType, RouteTable>, input: ShipmentLineInput[]): PricedLines {
  const lines: ShipmentLine[] = [];
  const cents: number[] = [];
  for (const [i, line] of input.entries()) {
    try {
      const quote = quoteFromTable(tables.get(line.productType), line.weightKg);
      cents.push(quote.priceCents);
      lines.push({
        productType: line.productType,
        weightKg: line.weightKg,
        billableWeightKg: quote.billableWeightKg,
        factorPerKg: quote.factorPerKg,
        price: quote.price,
        currency: quote.currency,
        tier: quote.tier,
        usingReverse: quote.usingReverse,
      });
    } catch (err) {
      // No price table for the route is a business refusal here, not a missing resource.
      if (err instanceof AppError && (err.statusCode === 404 || err.statusCode === 422)) {
        const field = err.statusCode === 404 ? `lines.${i}.productType` : `lines.${i}.weightKg`;
        const message = err.statusCode === 404 ? PRICING_MESSAGES.noTable : PRICING_MESSAGES.outsideRanges;
        throw unprocessable(message, { [field]: message }, err.statusCode === 404 ? 'NO_PRICE_TABLE' : 'OUT_OF_RANGE');
      }
      throw err;
    }
  }
  const totals = totalLines(lines);
  const productType = dominantProductType(lines.map((l) => l.productType));
  const lead = lines.find((l) => l.productType === productType)!;
  return {
    lines,
    weightKg: totals.weightKg.toFixed(2),
    billableWeightKg: totals.billableWeightKg,
    productType,
    quotedPrice: centsToString(sumCents(cents)),
    quotedCurrency: lead.currency,
    quotedFactorPerKg: String(lead.factorPerKg),
    usingReverse: lines.some((l) => l.usingReverse),
  };
}

/** Both branches and the sender exist; answers the branches (their names go into the answer). */
async function checkReferences(tx: Tx, data: NewShipment | ShipmentUpdate): Promise<{ origin: BranchRef; destination: BranchRef }> {
  const branches = checkBranches(await findBranches(tx, [data.originBranchId, data.destinationBranchId]), data);
  await checkSender(tx, data);
  return branches;
}

/** Both branches are among those found; answers them. */
function checkBranches(found: BranchRef[], data: NewShipment | ShipmentUpdate): { origin: BranchRef; destination: BranchRef } {
  const origin = found.find((b) => b.id === data.originBranchId);
  const destination = found.find((b) => b.id === data.destinationBranchId);
  if (!origin) {
    throw unprocessable(SHIPMENT_MESSAGES.originNotFound, { originBranchId: SHIPMENT_MESSAGES.originNotFound });
  }
  if (!destination) {
    throw unprocessable(SHIPMENT_MESSAGES.destinationNotFound, { destinationBranchId: SHIPMENT_MESSAGES.destinationNotFound });
  }
  return { origin, destination };
}

/** The sender customer, when there is one, exists. */
async function checkSender(tx: Tx, data: NewShipment | ShipmentUpdate) {
  if (data.senderCustomerId !== null && !(await customerExists(tx, data.senderCustomerId))) {
    throw unprocessable(SHIPMENT_MESSAGES.senderNotFound, { senderCustomerId: SHIPMENT_MESSAGES.senderNotFound });
  }
}

function checkOrigin(actor: SessionUser, originBranchId: number) {
  if (!canEdit(actor, originBranchId)) throw forbidden(SHIPMENT_MESSAGES.originNotOwn);
}

const recipientName = (data: NewShipment | ShipmentUpdate) => data.recipientName ?? `${data.recipientFirstName} ${data.recipientLastName}`;

/** What audit rows keep of a shipment: everything but the secret. */
function snapshot(dto: ShipmentDto & { returnOf?: unknown; returnedAs?: unknown }) {
  const { canManage: _m, canEdit: _e, checkpoints: _c, returnOf: _ro, returnedAs: _ra, ...rest } = dto;
  return rest;
}

function addEvent(tx: Tx, app: FastifyInstance, actor: SessionUser, shipmentId: number, event: ShipmentEventInput, known?: KnownShipment) {
  return addShipmentEvent(tx, actor, app.now(), shipmentId, event, known);
}

/** What every new shipment row starts with, a counter's registration or a return leg: Creado, by whom, when. */
function newRow(actor: SessionUser, now: Date) {
  return { status: 'Creado', createdAt: now, updatedAt: now, createdBy: actor.id, createdByName: displayName(actor) };
}

function foreignKeyAsRule(err: unknown): never {
  if (isForeignKeyViolation(err)) throw unprocessable(SHIPMENT_MESSAGES.createFailed);
  throw err;
}

/**
 * A route's branches and price tables as a creation reads them: from the reference cache, outside
 * the transaction (plugins/reference-cache.ts). Any change to them evicts the cache in every process
 * at its commit; the shipment's foreign keys still refuse a branch deleted meanwhile.
 */
function routeReferences(app: FastifyInstance, originId: number, destinationId: number) {
  return Promise.all([
    app.references.get(`branches:${originId}:${destinationId}`, () => findBranches(app.db, [originId, destinationId])),
    // Every class at once: a route's entry serves whatever classes the next creation's lines use.
    app.references.get(`route:${originId}:${destinationId}`, () => findRouteTables(app.db, originId, destinationId, PRODUCT_TYPES)),
  ]);
}

/**
 * A creation is one statement (insertNewShipment: the shipment, its first event and its audit row)
 * after the checks, which read the cache (branches, price tables) and, only with a sender customer,
 * the customer. Only when there is someone to notify (a sender customer, a recipient's contact) do
 * the customer's read, the statement and the outbox's rows share an explicit transaction.
 * Refusals keep their order: branches, sender, prices.
 */
export async function createShipment(app: FastifyInstance, actor: SessionUser, data: NewShipment) {
  checkOrigin(actor, data.originBranchId);
  const secretCodeHash = app.secretCodes.hash(data.secretCode);
  const [found, tables] = await routeReferences(app, data.originBranchId, data.destinationBranchId);
  const { origin, destination } = checkBranches(found, data);
  const first = { kind: 'status', name: 'Creado', statusTo: 'Creado' } as const;

  /**
   * Prices the lines (the last refusal) and writes the creation's one statement. The answer and the
   * audit snapshot are both built from the values written, with the id and code the database took:
   * nothing is read back.
   */
  const insert = async (db: Db | Tx) => {
    const priced = priceWith(tables, data.lines);
    const now = app.now();
    const values = {
      ...newRow(actor, now),
      ...formColumns(data, priced),
      recipientPhone: data.recipientPhone,
      recipientEmail: data.recipientEmail,
      secretCodeHash,
    };
    const row: ShipmentRow = {
      ...values,
      id: 0,
      code: '',
      deliveredInfo: null,
      originName: origin.name,
      originCity: origin.city,
      destinationName: destination.name,
      destinationCity: destination.city,
    };
    const dto = toShipmentDto(row, actor);
    const { id: _id, code: _code, ...after } = snapshot(dto);
    const { id, code, eventId } = await insertNewShipment(db, values, after);
    const checkpoint = { id: eventId, ...first, note: null, statusFrom: null, at: now, userName: displayName(actor) };
    return { dto: { ...dto, id, code, checkpoints: [toCheckpoint(checkpoint)] }, eventId, now };
  };

  if (!mayHaveAddressees(data)) return insert(app.db).then(({ dto }) => dto, foreignKeyAsRule);
  return app.db
    .transaction(async (tx) => {
      await checkSender(tx, data);
      const { dto, eventId, now } = await insert(tx);
      await enqueueNotifications(tx, dto.id, { id: eventId, ...first }, now, {
        code: dto.code,
        recipientPhone: data.recipientPhone,
        recipientEmail: data.recipientEmail,
        senderCustomerId: data.senderCustomerId,
        origin: origin.name,
        destination: destination.name,
      });
      return dto;
    })
    .catch(foreignKeyAsRule);
}

/** What a create and an edit both write: the parties, the route and the price recomputed from the tables. */
function formColumns(data: NewShipment | ShipmentUpdate, priced: Awaited<ReturnType<typeof priceLines>>) {
  return {
    originBranchId: data.originBranchId,
    destinationBranchId: data.destinationBranchId,
    senderCustomerId: data.senderCustomerId,
    senderName: data.senderName,
    recipientFirstName: data.recipientFirstName,
    recipientLastName: data.recipientLastName,
    recipientName: recipientName(data),
    recipientDoc: data.recipientDoc,
    productType: priced.productType,
    weightKg: priced.weightKg,
    billableWeightKg: priced.billableWeightKg,
    description: data.description,
    quotedPrice: priced.quotedPrice,
    quotedCurrency: priced.quotedCurrency,
    quotedFactorPerKg: priced.quotedFactorPerKg,
    usingReverse: priced.usingReverse,
    multiLineDetail: priced.lines,
  };
}

/** As lockForManagement, for changes a closed (final) shipment refuses with a 422. */
async function lockOpenForManagement(tx: Tx, actor: SessionUser, idOrCode: string) {
  const locked = await lockForManagement(tx, actor, idOrCode);
  const refusal = closedShipmentRefusal(locked.status);
  if (refusal) throw unprocessable(refusal, undefined, 'SHIPMENT_CLOSED');
  return locked;
}

/** Locks the shipment row for the rest of the transaction; 404 when missing, 403 when not the caller's to manage. */
async function lockForManagement(tx: Tx, actor: SessionUser, idOrCode: string) {
  const locked = await lockRow(tx, shipmentKey(idOrCode));
  if (!locked) throw notFound(SHIPMENT_MESSAGES.notFound);
  if (!canManage(actor, locked.originBranchId)) throw forbidden(SHIPMENT_MESSAGES.forbidden);
  return { ...locked, status: locked.status as ShipmentStatus, before: await loadDto(tx, actor, { id: locked.id }) };
}

export async function updateShipment(app: FastifyInstance, actor: SessionUser, idOrCode: string, data: ShipmentUpdate) {
  const secretCodeHash = data.secretCode ? app.secretCodes.hash(data.secretCode) : undefined;
  return app.db
    .transaction(async (tx) => {
      const current = await lockForManagement(tx, actor, idOrCode);
      checkOrigin(actor, current.originBranchId);
      checkOrigin(actor, data.originBranchId);
      if (current.status !== 'Creado') throw unprocessable(SHIPMENT_MESSAGES.editOnlyCreated);
      // An edit re-prices from the tables: a return leg would start being charged.
      if (current.before.returnOf) throw conflict(RETURN_MESSAGES.legNotEditable, undefined, 'RETURN_NOT_EDITABLE');
      await checkReferences(tx, data);
      const priced = await priceLines(tx, data.originBranchId, data.destinationBranchId, data.lines);
      await updateShipmentRow(tx, current.id, {
        ...formColumns(data, priced),
        ...(secretCodeHash ? { secretCodeHash } : {}),
        updatedAt: app.now(),
      });
      await addEvent(tx, app, actor, current.id, { kind: 'edit', name: 'Envío editado' });
      const after = await loadDto(tx, actor, { id: current.id });
      await audit(tx, {
        userId: actor.id,
        entity: 'shipment',
        entityId: current.id,
        action: 'update',
        before: snapshot(current.before),
        after: { ...snapshot(after), secretCodeChanged: Boolean(secretCodeHash) },
      });
      return after;
    })
    .catch(foreignKeyAsRule);
}

/**
 * The parcel is physically on a vehicle: cancelling it, by the cancel action or by a status change,
 * would leave the transport's load list lying. `field` names the form field the message belongs to.
 */
async function refuseCancelIfLoaded(tx: Tx, shipmentId: number, field?: string) {
  const plate = await loadedOnPlate(tx, shipmentId);
  if (plate === null) return;
  const message = FLEET_MESSAGES.cancelLoaded(plate);
  throw unprocessable(message, field ? { [field]: message } : undefined, 'CANNOT_CANCEL');
}

export async function changeStatus(app: FastifyInstance, actor: SessionUser, idOrCode: string, status: ShipmentStatus, note: string | null) {
  return app.db.transaction(async (tx) => {
    const current = await lockForManagement(tx, actor, idOrCode);
    // A note on a closed shipment (same final status again) would be a new event in a closed history.
    const closed = status === current.status ? closedShipmentRefusal(current.status) : null;
    if (closed) throw unprocessable(closed, { status: closed }, 'SHIPMENT_CLOSED');
    const check = checkStatusChange(current.status, status, note);
    if (!check.ok)
      throw check.kind === 'input' ? badRequest(check.message, { note: check.message }) : unprocessable(check.message, { status: check.message });
    if (status === 'Anulado' && !check.sameStatus) await refuseCancelIfLoaded(tx, current.id, 'status');
    if (!check.sameStatus) {
      await updateShipmentRow(tx, current.id, { status, updatedAt: app.now() });
    }
    await addEvent(tx, app, actor, current.id, {
      kind: status === 'Anulado' ? 'cancel' : 'status',
      name: note ? `${status} — ${note}` : status,
      note,
      statusFrom: current.status,
      statusTo: status,
    });
    const after = await loadDto(tx, actor, { id: current.id });
    await audit(tx, {
      userId: actor.id,
      entity: 'shipment',
      entityId: current.id,
      action: 'status',
      before: { status: current.status },
      after: { status, note },
    });
    return after;
  });
}

export async function cancelShipment(app: FastifyInstance, actor: SessionUser, idOrCode: string) {
  return app.db.transaction(async (tx) => {
    const current = await lockForManagement(tx, actor, idOrCode);
    const refusal = cancelRefusal(current.status);
    if (refusal) throw unprocessable(refusal, undefined, 'CANNOT_CANCEL');
    await refuseCancelIfLoaded(tx, current.id);
    await updateShipmentRow(tx, current.id, { status: 'Anulado', updatedAt: app.now() });
    await addEvent(tx, app, actor, current.id, { kind: 'cancel', name: 'Anulado', statusFrom: current.status, statusTo: 'Anulado' });
    const after = await loadDto(tx, actor, { id: current.id });
    await audit(tx, {
      userId: actor.id,
      entity: 'shipment',
      entityId: current.id,
      action: 'cancel',
      before: { status: current.status },
      after: { status: 'Anulado' },
    });
    return after;
  });
}

export async function addCheckpoint(app: FastifyInstance, actor: SessionUser, idOrCode: string, name: string) {
  return app.db.transaction(async (tx) => {
    const current = await lockOpenForManagement(tx, actor, idOrCode);
    const [event] = await addEvent(tx, app, actor, current.id, { kind: 'event', name });
    await audit(tx, { userId: actor.id, entity: 'shipment', entityId: current.id, action: 'event.add', after: { eventId: event!.id, name } });
    return loadDto(tx, actor, { id: current.id });
  });
}

/** Only manual events can go: status and edit entries are the shipment's record of what happened. */
export async function deleteCheckpoint(app: FastifyInstance, actor: SessionUser, idOrCode: string, checkpointId: number) {
  return app.db.transaction(async (tx) => {
    const current = await lockOpenForManagement(tx, actor, idOrCode);
    const event = await findEventOf(tx, current.id, checkpointId);
    if (!event) throw notFound(SHIPMENT_MESSAGES.eventNotFound);
    if (event.kind !== 'event') throw unprocessable(SHIPMENT_MESSAGES.onlyManualEventsDeletable);
    await deleteEvent(tx, event.id);
    await audit(tx, { userId: actor.id, entity: 'shipment', entityId: current.id, action: 'event.delete', before: event });
    return loadDto(tx, actor, { id: current.id });
  });
}

export async function changeSecretCode(app: FastifyInstance, actor: SessionUser, idOrCode: string, secretCode: string) {
  const secretCodeHash = app.secretCodes.hash(secretCode);
  return app.db.transaction(async (tx) => {
    const current = await lockOpenForManagement(tx, actor, idOrCode);
    await updateShipmentRow(tx, current.id, { secretCodeHash, updatedAt: app.now() });
    await addEvent(tx, app, actor, current.id, { kind: 'secret', name: 'Clave secreta actualizada' });
    await audit(tx, { userId: actor.id, entity: 'shipment', entityId: current.id, action: 'secret', after: { secretCodeChanged: true } });
    return loadDto(tx, actor, { id: current.id });
  });
}

export async function changeDescription(app: FastifyInstance, actor: SessionUser, idOrCode: string, data: z.output<typeof descriptionChangeSchema>) {
  return app.db.transaction(async (tx) => {
    const current = await lockOpenForManagement(tx, actor, idOrCode);
    await updateShipmentRow(tx, current.id, { description: data.description, updatedAt: app.now() });
    await addEvent(tx, app, actor, current.id, { kind: 'description', name: 'Descripción actualizada' });
    await audit(tx, {
      userId: actor.id,
      entity: 'shipment',
      entityId: current.id,
      action: 'description',
      before: { description: current.before.description },
      after: { description: data.description },
    });
    return loadDto(tx, actor, { id: current.id });
  });
}

/**
 * Folds the daily count deltas into the counts every `everyMs` while the app runs. Readers sum
 * counts and deltas, so this only keeps the deltas few; every process tries, one at a time folds.
 */
export function foldDailyCountsInBackground(app: FastifyInstance, everyMs = 1000) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running ??= foldDailyCounts(app.db)
        .catch((err: unknown) => app.log.warn({ err }, 'No se pudieron consolidar los conteos diarios'))
        .finally(() => {
          running = null;
        });
    }, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}

/**
 * Return to origin (DESIGN.md 5a), in one transaction: the original is closed as 'Devuelto' and a
 * return leg is registered from its destination back to its origin, sender and recipient swapped,
 * the same lines. The return leg is not charged (price 0): the spec and DESIGN.md price a shipment
 * the customer asked for, and a parcel that could not be delivered was already paid for once; a
 * counter that wants to bill the return registers a normal shipment instead.
 *
 * The original's row lock makes a double return one: the second finds it 'Devuelto' and is refused
 * (409), unless it repeats the first request's Idempotency-Key, which answers the same return again.
 */
export async function returnToOrigin(
  app: FastifyInstance,
  actor: SessionUser,
  idOrCode: string,
  data: { reason: string; secretCode: string },
  idempotencyKey: string | null,
): Promise<{ replayed: boolean; original: ShipmentDto; returnShipment: ShipmentDto }> {
  const secretCodeHash = app.secretCodes.hash(data.secretCode);
  return app.db.transaction(async (tx) => {
    const locked = await lockRow(tx, shipmentKey(idOrCode));
    if (!locked) throw notFound(SHIPMENT_MESSAGES.notFound);
    const original = (await findRow(tx, { id: locked.id }))!;
    if (!canSee(actor, original)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
    const status = original.status as ShipmentStatus;
    if (status === 'Devuelto') {
      const leg = await findReturnLeg(tx, original.id);
      if (leg && idempotencyKey !== null && (await returnIdempotencyKey(tx, original.id)) === idempotencyKey) {
        return { replayed: true, original: await loadDto(tx, actor, { id: original.id }), returnShipment: await loadDto(tx, actor, { id: leg.id }) };
      }
      if (leg) throw conflict(alreadyReturnedAs(leg.code), undefined, 'ALREADY_RETURNED');
    }
    if (!canReturn(actor, original)) throw forbidden(RETURN_MESSAGES.notOwnBranch);
    const refusal = returnRefusal(status);
    if (refusal) throw conflict(refusal, undefined, 'CANNOT_RETURN');

    const now = app.now();
    const sender = await customerContact(tx, original.senderCustomerId);
    const [first = original.senderName, ...rest] = original.senderName.trim().split(/\s+/);
    const lines = (original.multiLineDetail as ShipmentLine[]).map((l) => ({ ...l, factorPerKg: 0, price: 0 }));
    const leg = await insertShipment(
      tx,
      {
        ...newRow(actor, now),
        originBranchId: original.destinationBranchId,
        destinationBranchId: original.originBranchId,
        senderCustomerId: await customerByDoc(tx, original.recipientDoc),
        senderName: original.recipientName,
        recipientFirstName: first,
        // A company sender ('Comercial Andina SAC') has no last name: its whole name is kept below.
        recipientLastName: rest.join(' '),
        recipientName: original.senderName,
        // A sender registered without a customer record has no document on file; the counter checks
        // the person's document when handing the parcel back.
        recipientDoc: sender?.docNumber ?? '',
        recipientPhone: sender?.phone ?? null,
        recipientEmail: sender?.email ?? null,
        productType: original.productType,
        weightKg: original.weightKg,
        billableWeightKg: original.billableWeightKg,
        description: original.description,
        quotedPrice: '0.00',
        quotedCurrency: original.quotedCurrency,
        quotedFactorPerKg: '0',
        usingReverse: false,
        multiLineDetail: lines,
        secretCodeHash,
        returnOfShipmentId: original.id,
      },
      { id: original.destinationBranchId, name: original.destinationName, city: original.destinationCity },
      { id: original.originBranchId, name: original.originName, city: original.originCity },
    );
    await addEvent(tx, app, actor, leg.id, { kind: 'status', name: `Creado — Retorno de ${original.code}`, note: data.reason, statusTo: 'Creado' });
    await updateShipmentRow(tx, original.id, { status: 'Devuelto', updatedAt: now });
    await addEvent(tx, app, actor, original.id, {
      kind: 'status',
      name: `Devuelto a origen: ${data.reason}`,
      note: data.reason,
      statusFrom: status,
      statusTo: 'Devuelto',
    });
    const returnShipment = await loadDto(tx, actor, { id: leg.id });
    await audit(tx, {
      userId: actor.id,
      entity: 'shipment',
      entityId: leg.id,
      action: 'create',
      after: { ...snapshot(returnShipment), returnOf: original.code },
    });
    await audit(tx, {
      userId: actor.id,
      entity: 'shipment',
      entityId: original.id,
      action: 'return',
      before: { status },
      after: { status: 'Devuelto', reason: data.reason, returnShipmentId: leg.id, returnCode: leg.code, idempotencyKey },
    });
    return { replayed: false, original: await loadDto(tx, actor, { id: original.id }), returnShipment };
  });
}
