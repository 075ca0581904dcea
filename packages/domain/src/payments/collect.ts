import { limaDay } from '../dates.ts';

/**
 * Collectable at the counter today (spec section 4, DESIGN.md 5): a shipment still 'Creado' and
 * created on today's Lima day; an older one is billed instead. The API refuses the rest and the
 * shipment list offers the payment action on these only.
 */
export const collectableAtCounter = (shipment: { status: string; createdAt: Date | string }, now: Date): boolean =>
  shipment.status === 'Creado' && limaDay(new Date(shipment.createdAt)) === limaDay(now);
