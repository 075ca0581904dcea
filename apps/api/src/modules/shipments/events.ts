import { displayName } from '@tramo/domain';
import type { Tx } from '../../db/client.ts';
import { shipmentEvents } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { insertReturning } from '../../lib/statements.ts';
import type { SessionUser } from '../../types.ts';
import { enqueueNotifications, type KnownShipment } from '../notifications/index.ts';

export type { KnownShipment };

export interface ShipmentEventInput {
  kind: string;
  name: string;
  note?: string | null;
  statusFrom?: string | null;
  statusTo?: string | null;
  /** Only a staff event ('event') may be shown on /seguimiento; milestones show by their kind. */
  visibleToCustomer?: boolean;
}

/**
 * One line of a shipment's history, written in the transaction of the change it records, with who
 * did it named as they were then (the history outlives a renamed or deleted user).
 */
export async function addShipmentEvent(
  tx: Tx,
  actor: SessionUser,
  at: Date,
  shipmentId: number,
  event: ShipmentEventInput,
  /** The shipment as the caller holds it, which spares the notifications a read. */
  known?: KnownShipment,
) {
  const inserted = await insertReturning<{ id: number }>(
    tx,
    'insert_shipment_event',
    shipmentEvents,
    {
      shipmentId,
      kind: event.kind,
      name: event.name,
      note: event.note ?? null,
      statusFrom: event.statusFrom ?? null,
      statusTo: event.statusTo ?? null,
      visibleToCustomer: event.visibleToCustomer ?? false,
      at,
      userId: actor.id,
      userName: displayName(actor),
    },
    { id: shipmentEvents.id },
  );
  // Issue 18: the messages this event announces (registered, departed, arrived, delivered), in its transaction.
  await enqueueNotifications(tx, shipmentId, { id: inserted.id, ...event }, at, known);
  return [inserted];
}

/** What a shipment's audit row says of a change that is not its status (an incident, a load). */
export interface ShipmentAuditInput {
  action: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Something that happened to a shipment without changing its status (an incident opened or closed
 * on it): its history line, its messages and its audit row, in the caller's transaction.
 */
export async function recordShipmentEvent(
  tx: Tx,
  actor: SessionUser,
  at: Date,
  shipmentId: number,
  event: Omit<ShipmentEventInput, 'statusFrom' | 'statusTo'>,
  entry: ShipmentAuditInput,
) {
  const inserted = await addShipmentEvent(tx, actor, at, shipmentId, event);
  await audit(tx, { userId: actor.id, entity: 'shipment', entityId: shipmentId, ...entry });
  return inserted;
}
