import { canTransition, cannotLeaveStatus, SHIPMENT_MESSAGES, type ShipmentStatus, type TransitionVia } from '@tramo/domain';
import type { Tx } from '../../db/client.ts';
import type { shipments } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, unprocessable } from '../../lib/errors.ts';
import type { SessionUser } from '../../types.ts';
import { addShipmentEvent, type KnownShipment } from './events.ts';
import { hasLiveCharge, updateShipmentRow } from './rows.ts';

/** A status change as its caller (the detail screen, a trip, a delivery, a return) words it. */
export interface StatusChange {
  to: ShipmentStatus;
  via: TransitionVia;
  /** The history line: its kind ('status' unless said), name and note. */
  event: { kind?: string; name: string; note?: string | null };
  /** The audit row's action and what it keeps beside the status before and after. */
  audit: { action: string; before?: Record<string, unknown>; after?: Record<string, unknown> };
  /** Columns that change with the status (a delivery's receiver). */
  columns?: Omit<Partial<typeof shipments.$inferInsert>, 'status' | 'updatedAt'>;
  /** The shipment as the caller holds it, which spares the notifications a read. */
  known?: KnownShipment;
}

/**
 * The one way a shipment's status changes: the domain's transition table decides (the same status
 * again only from the detail screen, where it is a note), a cancellation waits for the payment and
 * documents to be voided first (issue 30), then the row, its history line, its messages and its
 * audit row are written in the caller's transaction. The caller holds the shipment's row lock and
 * has already refused in its own words what its screen explains better.
 */
export async function changeShipmentStatus(tx: Tx, actor: SessionUser, at: Date, shipment: { id: number; status: string }, change: StatusChange) {
  const from = shipment.status as ShipmentStatus;
  const same = from === change.to;
  if (same ? change.via !== 'manual' : !canTransition(from, change.to, change.via)) {
    throw unprocessable(cannotLeaveStatus(from, change.to), { status: cannotLeaveStatus(from, change.to) }, 'INVALID_TRANSITION');
  }
  if (change.to === 'Anulado' && !same && (await hasLiveCharge(tx, shipment.id))) {
    throw conflict(SHIPMENT_MESSAGES.paidNotCancellable, undefined, 'SHIPMENT_PAID');
  }
  if (!same) await updateShipmentRow(tx, shipment.id, { ...change.columns, status: change.to, updatedAt: at });
  const [event] = await addShipmentEvent(
    tx,
    actor,
    at,
    shipment.id,
    { kind: change.event.kind ?? 'status', name: change.event.name, note: change.event.note ?? null, statusFrom: from, statusTo: change.to },
    change.known,
  );
  await audit(tx, {
    userId: actor.id,
    entity: 'shipment',
    entityId: shipment.id,
    action: change.audit.action,
    before: { status: from, ...change.audit.before },
    after: { status: change.to, ...change.audit.after },
  });
  return event!;
}
