import type { FastifyInstance } from 'fastify';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  FLEET_MESSAGES,
  canEdit,
  canManage,
  canSee,
  cancelRefusal,
  closedShipmentRefusal,
  centsToString,
  checkStatusChange,
  displayName,
  dominantProductType,
  formatShipmentCode,
  normalizeShipmentCode,
  PRICING_MESSAGES,
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
import type { Db, Tx } from '../../db/client.ts';
import { branches, customers, shipmentEvents, shipments, transportAssignments, transports } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { addShipmentEvent, type ShipmentEventInput } from '../../lib/shipment-events.ts';
import { AppError, badRequest, forbidden, isForeignKeyViolation, notFound, unprocessable } from '../../lib/errors.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { SessionUser } from '../../types.ts';
import { quoteRoute } from '../pricing/index.ts';
import {
  branchScope,
  filterConditions,
  findEvents,
  findRow,
  listRows,
  searchRows,
  textSearch,
  type EventRow,
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
export function shipmentKey(idOrCode: string): { id: number } | { code: string } {
  if (/^\d{1,9}$/.test(idOrCode)) return { id: Number(idOrCode) };
  const code = /^tmt/i.test(idOrCode) ? normalizeShipmentCode(idOrCode) : null;
  if (!code) throw notFound(SHIPMENT_MESSAGES.notFound);
  return { code };
}

async function loadDto(db: Db | Tx, actor: SessionUser, key: { id: number } | { code: string }) {
  const row = await findRow(db, key);
  if (!row) throw notFound(SHIPMENT_MESSAGES.notFound);
  return toShipmentDto(row, actor, await findEvents(db, row.id));
}

export async function listShipments(app: FastifyInstance, actor: SessionUser, query: ShipmentListQuery) {
  const where = and(branchScope(actor), ...filterConditions(query));
  const { items, total, totalCapped } = await listRows(app.db, where, query.page, query.pageSize);
  return { items: items.map((r) => toShipmentDto(r, actor)), total, totalCapped, page: query.page, pageSize: query.pageSize };
}

/** Tracking: every role, every branch, read-only (DESIGN.md section 4). */
export async function searchShipments(
  app: FastifyInstance,
  query: { q?: string | undefined; originId?: number | undefined; destinationId?: number | undefined; status?: ShipmentStatus | undefined },
) {
  const where: SQL[] = [];
  if (query.q) where.push(textSearch(query.q));
  if (query.originId) where.push(eq(shipments.originBranchId, query.originId));
  if (query.destinationId) where.push(eq(shipments.destinationBranchId, query.destinationId));
  if (query.status) where.push(eq(shipments.status, query.status));
  if (where.length === 0) return [];
  const rows = await searchRows(app.db, and(...where), 20);
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
  const lines: ShipmentLine[] = [];
  const cents: number[] = [];
  for (const [i, line] of input.entries()) {
    try {
      const quote = await quoteRoute(tx, { originId, destinationId, productType: line.productType, weightKg: line.weightKg });
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

async function checkReferences(tx: Tx, data: NewShipment | ShipmentUpdate) {
  const found = await tx
    .select({ id: branches.id })
    .from(branches)
    .where(sql`${branches.id} in (${data.originBranchId}, ${data.destinationBranchId})`);
  const ids = new Set(found.map((b) => b.id));
  if (!ids.has(data.originBranchId)) {
    throw unprocessable(SHIPMENT_MESSAGES.originNotFound, { originBranchId: SHIPMENT_MESSAGES.originNotFound });
  }
  if (!ids.has(data.destinationBranchId)) {
    throw unprocessable(SHIPMENT_MESSAGES.destinationNotFound, { destinationBranchId: SHIPMENT_MESSAGES.destinationNotFound });
  }
  if (data.senderCustomerId !== null) {
    const [c] = await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, data.senderCustomerId));
    if (!c) throw unprocessable(SHIPMENT_MESSAGES.senderNotFound, { senderCustomerId: SHIPMENT_MESSAGES.senderNotFound });
  }
}

function checkOrigin(actor: SessionUser, originBranchId: number) {
  if (!canEdit(actor, originBranchId)) throw forbidden(SHIPMENT_MESSAGES.originNotOwn);
}

const recipientName = (data: NewShipment | ShipmentUpdate) => data.recipientName ?? `${data.recipientFirstName} ${data.recipientLastName}`;

/** What audit rows keep of a shipment: everything but the secret. */
function snapshot(dto: ShipmentDto) {
  const { canManage: _m, canEdit: _e, checkpoints: _c, ...rest } = dto;
  return rest;
}

function addEvent(tx: Tx, app: FastifyInstance, actor: SessionUser, shipmentId: number, event: ShipmentEventInput) {
  return addShipmentEvent(tx, actor, app.now(), shipmentId, event);
}

function foreignKeyAsRule(err: unknown): never {
  if (isForeignKeyViolation(err)) throw unprocessable(SHIPMENT_MESSAGES.createFailed);
  throw err;
}

export async function createShipment(app: FastifyInstance, actor: SessionUser, data: NewShipment) {
  checkOrigin(actor, data.originBranchId);
  const secretCodeHash = await hashPassword(data.secretCode);
  return app.db
    .transaction(async (tx) => {
      await checkReferences(tx, data);
      const priced = await priceLines(tx, data.originBranchId, data.destinationBranchId, data.lines);
      // Taken last, after every check that can refuse, so refused requests burn no code.
      const seq = await tx.execute(sql`select nextval('shipment_code_seq')::bigint as n`);
      const code = formatShipmentCode(Number((seq.rows[0] as { n: string | number }).n));
      const now = app.now();
      const [created] = await tx
        .insert(shipments)
        .values({
          code,
          status: 'Creado',
          createdAt: now,
          updatedAt: now,
          createdBy: actor.id,
          createdByName: displayName(actor),
          ...formColumns(data, priced),
          recipientPhone: data.recipientPhone,
          recipientEmail: data.recipientEmail,
          secretCodeHash,
        })
        .returning({ id: shipments.id });
      const id = created!.id;
      await addEvent(tx, app, actor, id, { kind: 'status', name: 'Creado', statusTo: 'Creado' });
      const dto = await loadDto(tx, actor, { id });
      await audit(tx, { userId: actor.id, entity: 'shipment', entityId: id, action: 'create', after: snapshot(dto) });
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
  const key = shipmentKey(idOrCode);
  const [locked] = await tx
    .select({ id: shipments.id, status: shipments.status, originBranchId: shipments.originBranchId })
    .from(shipments)
    .where('id' in key ? eq(shipments.id, key.id) : eq(shipments.code, key.code))
    .for('update');
  if (!locked) throw notFound(SHIPMENT_MESSAGES.notFound);
  if (!canManage(actor, locked.originBranchId)) throw forbidden(SHIPMENT_MESSAGES.forbidden);
  return { ...locked, status: locked.status as ShipmentStatus, before: await loadDto(tx, actor, { id: locked.id }) };
}

export async function updateShipment(app: FastifyInstance, actor: SessionUser, idOrCode: string, data: ShipmentUpdate) {
  const secretCodeHash = data.secretCode ? await hashPassword(data.secretCode) : undefined;
  return app.db
    .transaction(async (tx) => {
      const current = await lockForManagement(tx, actor, idOrCode);
      checkOrigin(actor, current.originBranchId);
      checkOrigin(actor, data.originBranchId);
      if (current.status !== 'Creado') throw unprocessable(SHIPMENT_MESSAGES.editOnlyCreated);
      await checkReferences(tx, data);
      const priced = await priceLines(tx, data.originBranchId, data.destinationBranchId, data.lines);
      await tx
        .update(shipments)
        .set({
          ...formColumns(data, priced),
          ...(secretCodeHash ? { secretCodeHash } : {}),
          updatedAt: app.now(),
        })
        .where(eq(shipments.id, current.id));
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
  const [loaded] = await tx
    .select({ plate: transports.platePrimary })
    .from(transportAssignments)
    .innerJoin(transports, eq(transports.id, transportAssignments.transportId))
    .where(eq(transportAssignments.shipmentId, shipmentId));
  if (!loaded) return;
  const message = FLEET_MESSAGES.cancelLoaded(loaded.plate);
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
      await tx.update(shipments).set({ status, updatedAt: app.now() }).where(eq(shipments.id, current.id));
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
    await tx.update(shipments).set({ status: 'Anulado', updatedAt: app.now() }).where(eq(shipments.id, current.id));
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
    const [event] = await tx
      .select({
        id: shipmentEvents.id,
        kind: shipmentEvents.kind,
        name: shipmentEvents.name,
        at: shipmentEvents.at,
        userName: shipmentEvents.userName,
      })
      .from(shipmentEvents)
      .where(and(eq(shipmentEvents.id, checkpointId), eq(shipmentEvents.shipmentId, current.id)));
    if (!event) throw notFound(SHIPMENT_MESSAGES.eventNotFound);
    if (event.kind !== 'event') throw unprocessable(SHIPMENT_MESSAGES.onlyManualEventsDeletable);
    await tx.delete(shipmentEvents).where(eq(shipmentEvents.id, event.id));
    await audit(tx, { userId: actor.id, entity: 'shipment', entityId: current.id, action: 'event.delete', before: event });
    return loadDto(tx, actor, { id: current.id });
  });
}

export async function changeSecretCode(app: FastifyInstance, actor: SessionUser, idOrCode: string, secretCode: string) {
  const secretCodeHash = await hashPassword(secretCode);
  return app.db.transaction(async (tx) => {
    const current = await lockOpenForManagement(tx, actor, idOrCode);
    await tx.update(shipments).set({ secretCodeHash, updatedAt: app.now() }).where(eq(shipments.id, current.id));
    await addEvent(tx, app, actor, current.id, { kind: 'secret', name: 'Clave secreta actualizada' });
    await audit(tx, { userId: actor.id, entity: 'shipment', entityId: current.id, action: 'secret', after: { secretCodeChanged: true } });
    return loadDto(tx, actor, { id: current.id });
  });
}

export async function changeDescription(app: FastifyInstance, actor: SessionUser, idOrCode: string, data: z.output<typeof descriptionChangeSchema>) {
  return app.db.transaction(async (tx) => {
    const current = await lockOpenForManagement(tx, actor, idOrCode);
    await tx.update(shipments).set({ description: data.description, updatedAt: app.now() }).where(eq(shipments.id, current.id));
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
