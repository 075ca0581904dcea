import { limaDay } from '../dates.ts';
import type { PaymentMoment } from '../who-pays.ts';

/**
 * Collectable at the counter now (spec section 4, DESIGN.md 5 and 5b). Paid at origin: a shipment
 * still 'Creado' and created on today's Lima day (an older one is billed instead). Pago en
 * destino: once the parcel waits at the destination agency ('En agencia'), whatever day it left.
 * Credit shipments go to the customer's account, never the counter. The API refuses the rest and
 * the shipment list and /pagos offer the payment action on these only; which branch collects is
 * collectingBranchId's answer.
 */
export const collectableAtCounter = (shipment: { status: string; createdAt: Date | string; paymentMoment?: PaymentMoment }, now: Date): boolean => {
  const moment = shipment.paymentMoment ?? 'origen';
  if (moment === 'destino') return shipment.status === 'En agencia';
  if (moment === 'credito') return false;
  return shipment.status === 'Creado' && limaDay(new Date(shipment.createdAt)) === limaDay(now);
};
