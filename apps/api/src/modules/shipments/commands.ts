import type { z } from 'zod';
import {
  canEdit,
  canManage,
  cancelRefusal,
  checkStatusChange,
  closedShipmentRefusal,
  displayName,
  FLEET_MESSAGES,
  pricingChanged,
  PRODUCT_TYPES,
  RETURN_MESSAGES,
  SHIPMENT_MESSAGES,
  toCents,
  whoPaysColumns,
  type descriptionChangeSchema,
  type NewShipment,
  type ShipmentLine,
  type ShipmentStatus,
  type ShipmentUpdate,
  type CustomerTariff,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, conflict, forbidden, isForeignKeyViolation, notFound, unprocessable } from '../../lib/errors.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';
import { enqueueNotifications, mayHaveAddressees } from '../notifications/index.ts';
import { findRouteTables, loadCompanyTariff, loadCustomerTariff, loadRouteExtras } from '../pricing/index.ts';
import { loadDto, shipmentKey, snapshot, toCheckpoint, toShipmentDto } from './dto.ts';
import { addShipmentEvent, type KnownShipment, type ShipmentEventInput } from './events.ts';
import { formColumns, priceLines, pricedColumns, priceWith } from './pricing.ts';
import {
  customerExists,
  deleteEvent,
  findBranches,
  findEventOf,
  hasLiveCharge,
  insertNewShipment,
  loadedOnPlate,
  lockRow,
  updateShipmentRow,
  type BranchRef,
  type ShipmentRow,
} from './rows.ts';
import { changeShipmentStatus } from './status.ts';
import { auditCreditOverride, checkWhoPays, creditCustomerOf } from './who-pays-check.ts';

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

function addEvent(tx: Tx, ctx: ServiceContext, actor: SessionUser, shipmentId: number, event: ShipmentEventInput, known?: KnownShipment) {
  return addShipmentEvent(tx, actor, ctx.now(), shipmentId, event, known);
}

/** What every new shipment row starts with, a counter's registration or a return leg: Creado, by whom, when. */
export function newRow(actor: SessionUser, now: Date) {
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
function routeReferences(ctx: ServiceContext, originId: number, destinationId: number) {
  return Promise.all([
    ctx.references.get(`branches:${originId}:${destinationId}`, () => findBranches(ctx.db, [originId, destinationId])),
    // Every class at once: a route's entry serves whatever classes the next creation's lines use.
    ctx.references.get(`route:${originId}:${destinationId}`, () => findRouteTables(ctx.db, originId, destinationId, PRODUCT_TYPES)),
    // Issue 34: the company's tariff settings and the route's articles, minimum and divisor.
    ctx.references.get('tariff:company', () => loadCompanyTariff(ctx.db)),
    ctx.references.get(`tariff:route:${originId}:${destinationId}`, () => loadRouteExtras(ctx.db, originId, destinationId)),
  ]);
}

/**
 * A creation is one statement (insertNewShipment: the shipment, its first event and its audit row)
 * after the checks, which read the cache (branches, price tables) and, only with a sender customer,
 * the customer. Only when there is someone to notify (a sender customer, a recipient's contact) do
 * the customer's read, the statement and the outbox's rows share an explicit transaction.
 * Refusals keep their order: branches, sender, prices.
 */
export async function createShipment(ctx: ServiceContext, actor: SessionUser, data: NewShipment) {
  checkOrigin(actor, data.originBranchId);
  const secretCodeHash = ctx.secretCodes.hash(data.secretCode);
  const [found, tables, company, route] = await routeReferences(ctx, data.originBranchId, data.destinationBranchId);
  const { origin, destination } = checkBranches(found, data);
  const first = { kind: 'status', name: 'Creado', statusTo: 'Creado' } as const;

  /**
   * Prices the lines (the last refusal) and writes the creation's one statement. The answer and the
   * audit snapshot are both built from the values written, with the id and code the database took:
   * nothing is read back.
   */
  const insert = async (db: Db | Tx, customer: CustomerTariff | null) => {
    const priced = priceWith(tables, { company, route }, customer, data);
    const priceCents = toCents(priced.quotedPrice);
    const creditOverride = await checkWhoPays(
      db,
      data,
      {
        originBranchId: data.originBranchId,
        destinationBranchId: data.destinationBranchId,
        priceCents,
        weightKg: Number(priced.weightKg),
        senderCustomerId: data.senderCustomerId ?? null,
      },
      { actor, now: ctx.now() },
    );
    const now = ctx.now();
    const values = {
      ...newRow(actor, now),
      ...formColumns(data),
      ...pricedColumns(priced),
      ...whoPaysColumns(data),
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
    if (creditOverride) await auditCreditOverride(db, actor, id, creditCustomerOf(data, data.senderCustomerId ?? null), creditOverride, priceCents);
    const checkpoint = { id: eventId, ...first, note: null, statusFrom: null, at: now, userName: displayName(actor), visibleToCustomer: false };
    return { dto: { ...dto, id, code, checkpoints: [toCheckpoint(checkpoint)] }, eventId, now };
  };

  // A credit shipment is judged against its account inside its own transaction (the account locked).
  if (!mayHaveAddressees(data) && data.paymentMoment !== 'credito') return insert(ctx.db, null).then(({ dto }) => dto, foreignKeyAsRule);
  return ctx.db
    .transaction(async (tx) => {
      await checkSender(tx, data);
      const { dto, eventId, now } = await insert(tx, await loadCustomerTariff(tx, data.senderCustomerId, data));
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

/** As lockForManagement, for changes a closed (final) shipment refuses with a 422. */
async function lockOpenForManagement(tx: Tx, actor: SessionUser, idOrCode: string) {
  const locked = await lockForManagement(tx, actor, idOrCode);
  const refusal = closedShipmentRefusal(locked.status);
  if (refusal) throw unprocessable(refusal, undefined, 'SHIPMENT_CLOSED');
  return locked;
}

/** Locks the shipment row for the rest of the transaction; 404 when missing, 403 when not the caller's to manage. */
export async function lockForManagement(tx: Tx, actor: SessionUser, idOrCode: string) {
  const locked = await lockRow(tx, shipmentKey(idOrCode));
  if (!locked) throw notFound(SHIPMENT_MESSAGES.notFound);
  if (!canManage(actor, locked.originBranchId)) throw forbidden(SHIPMENT_MESSAGES.forbidden);
  return { ...locked, status: locked.status as ShipmentStatus, before: await loadDto(tx, actor, { id: locked.id }) };
}

/**
 * An edit reprices from today's tables only when it changes what sets the price (route, lines);
 * any other edit keeps the price and lines charged at registration (issue 31). A shipment with a
 * live payment or document keeps them whatever the edit: changing them is refused (409) until the
 * payment is voided, here in words and by the database's guard (migration 0031) as the last word.
 */
export async function updateShipment(ctx: ServiceContext, actor: SessionUser, idOrCode: string, data: ShipmentUpdate) {
  const secretCodeHash = data.secretCode ? ctx.secretCodes.hash(data.secretCode) : undefined;
  return ctx.db
    .transaction(async (tx) => {
      const current = await lockForManagement(tx, actor, idOrCode);
      checkOrigin(actor, current.originBranchId);
      checkOrigin(actor, data.originBranchId);
      if (current.status !== 'Creado') throw unprocessable(SHIPMENT_MESSAGES.editOnlyCreated);
      // A return leg is not charged (price 0): an edit of its lines or route would price it from the tables.
      if (current.before.returnOf) throw conflict(RETURN_MESSAGES.legNotEditable, undefined, 'RETURN_NOT_EDITABLE');
      await checkReferences(tx, data);
      const { before } = current;
      const stored = {
        ...before,
        lines: before.multiLineDetail as ShipmentLine[],
        declaredValueCents: before.declaredValue === null ? null : toCents(before.declaredValue),
      };
      const repriced = pricingChanged(stored, { ...data, declaredValueCents: data.declaredValue === null ? null : toCents(data.declaredValue) });
      if (repriced && (await hasLiveCharge(tx, current.id))) throw conflict(SHIPMENT_MESSAGES.paidNotRepriceable, undefined, 'SHIPMENT_PAID');
      await updateShipmentRow(tx, current.id, {
        ...formColumns(data),
        ...(repriced ? pricedColumns(await priceLines(tx, data)) : {}),
        ...(secretCodeHash ? { secretCodeHash } : {}),
        updatedAt: ctx.now(),
      });
      await addEvent(tx, ctx, actor, current.id, { kind: 'edit', name: 'Envío editado' });
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

export async function changeStatus(ctx: ServiceContext, actor: SessionUser, idOrCode: string, status: ShipmentStatus, note: string | null) {
  return ctx.db.transaction(async (tx) => {
    const current = await lockForManagement(tx, actor, idOrCode);
    // A note on a closed shipment (same final status again) would be a new event in a closed history.
    const closed = status === current.status ? closedShipmentRefusal(current.status) : null;
    if (closed) throw unprocessable(closed, { status: closed }, 'SHIPMENT_CLOSED');
    const check = checkStatusChange(current.status, status, note);
    if (!check.ok)
      throw check.kind === 'input' ? badRequest(check.message, { note: check.message }) : unprocessable(check.message, { status: check.message });
    if (status === 'Anulado' && !check.sameStatus) await refuseCancelIfLoaded(tx, current.id, 'status');
    await changeShipmentStatus(tx, actor, ctx.now(), current, {
      to: status,
      via: 'manual',
      event: { kind: status === 'Anulado' ? 'cancel' : 'status', name: note ? `${status} — ${note}` : status, note },
      audit: { action: 'status', after: { note } },
    });
    return loadDto(tx, actor, { id: current.id });
  });
}

export async function cancelShipment(ctx: ServiceContext, actor: SessionUser, idOrCode: string) {
  return ctx.db.transaction(async (tx) => {
    const current = await lockForManagement(tx, actor, idOrCode);
    const refusal = cancelRefusal(current.status);
    if (refusal) throw unprocessable(refusal, undefined, 'CANNOT_CANCEL');
    await refuseCancelIfLoaded(tx, current.id);
    await changeShipmentStatus(tx, actor, ctx.now(), current, {
      to: 'Anulado',
      via: 'manual',
      event: { kind: 'cancel', name: 'Anulado' },
      audit: { action: 'cancel' },
    });
    return loadDto(tx, actor, { id: current.id });
  });
}

/** A staff event: internal unless `visibleToCustomer` ('visible para el cliente', issue #38). */
export async function addCheckpoint(ctx: ServiceContext, actor: SessionUser, idOrCode: string, name: string, visibleToCustomer = false) {
  return ctx.db.transaction(async (tx) => {
    const current = await lockOpenForManagement(tx, actor, idOrCode);
    const [event] = await addEvent(tx, ctx, actor, current.id, { kind: 'event', name, visibleToCustomer });
    await audit(tx, {
      userId: actor.id,
      entity: 'shipment',
      entityId: current.id,
      action: 'event.add',
      after: { eventId: event!.id, name, visibleToCustomer },
    });
    return loadDto(tx, actor, { id: current.id });
  });
}

/** Only manual events can go: status and edit entries are the shipment's record of what happened. */
export async function deleteCheckpoint(ctx: ServiceContext, actor: SessionUser, idOrCode: string, checkpointId: number) {
  return ctx.db.transaction(async (tx) => {
    const current = await lockOpenForManagement(tx, actor, idOrCode);
    const event = await findEventOf(tx, current.id, checkpointId);
    if (!event) throw notFound(SHIPMENT_MESSAGES.eventNotFound);
    if (event.kind !== 'event') throw unprocessable(SHIPMENT_MESSAGES.onlyManualEventsDeletable);
    await deleteEvent(tx, event.id);
    await audit(tx, { userId: actor.id, entity: 'shipment', entityId: current.id, action: 'event.delete', before: event });
    return loadDto(tx, actor, { id: current.id });
  });
}

export async function changeSecretCode(ctx: ServiceContext, actor: SessionUser, idOrCode: string, secretCode: string) {
  const secretCodeHash = ctx.secretCodes.hash(secretCode);
  return ctx.db.transaction(async (tx) => {
    const current = await lockOpenForManagement(tx, actor, idOrCode);
    await updateShipmentRow(tx, current.id, { secretCodeHash, updatedAt: ctx.now() });
    await addEvent(tx, ctx, actor, current.id, { kind: 'secret', name: 'Clave secreta actualizada' });
    await audit(tx, { userId: actor.id, entity: 'shipment', entityId: current.id, action: 'secret', after: { secretCodeChanged: true } });
    return loadDto(tx, actor, { id: current.id });
  });
}

export async function changeDescription(ctx: ServiceContext, actor: SessionUser, idOrCode: string, data: z.output<typeof descriptionChangeSchema>) {
  return ctx.db.transaction(async (tx) => {
    const current = await lockOpenForManagement(tx, actor, idOrCode);
    await updateShipmentRow(tx, current.id, { description: data.description, updatedAt: ctx.now() });
    await addEvent(tx, ctx, actor, current.id, { kind: 'description', name: 'Descripción actualizada' });
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
