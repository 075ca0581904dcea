import { z } from 'zod';
import type { Actor } from './permissions.ts';
import { requiredText } from './primitives.ts';
import { canTransition, secretCodeSchema, type ShipmentStatus } from './shipments.ts';

/**
 * Return to origin (DESIGN.md 5a): a shipment En tránsito or En agencia is closed as 'Devuelto' and
 * a new shipment, the return leg, brings it back from its destination to its origin.
 */
export const RETURN_MESSAGES = {
  reasonRequired: 'Indica el motivo de la devolución.',
  notOwnBranch: 'Solo la agencia donde está el envío (o un administrador) puede devolverlo a su origen.',
  returned: 'Envío devuelto a origen.',
  legNotEditable: 'Un retorno no se edita: lleva las mismas líneas del envío original y no se cobra. Si hace falta otro envío, regístralo aparte.',
} as const;

export const returnOnlyFrom = (status: string) => `Solo se puede devolver a origen un envío 'En tránsito' o 'En agencia' (este está '${status}').`;
export const alreadyReturnedAs = (code: string) => `El envío ya fue devuelto a origen como ${code}.`;

/** The refusal for returning a shipment in `status`, or null when the transition table allows it. */
export function returnRefusal(status: ShipmentStatus): string | null {
  return canTransition(status, 'Devuelto', 'return') ? null : returnOnlyFrom(status);
}

/**
 * The branch that holds the parcel and so decides to send it back: the destination once it arrived
 * (En agencia), the origin while it is still on the road (the origin dispatched it and answers for it).
 */
export function returningBranchId(shipment: { status: string; originBranchId: number; destinationBranchId: number }): number {
  return shipment.status === 'En agencia' ? shipment.destinationBranchId : shipment.originBranchId;
}

/** Admins always; agents of the returning branch. Couriers register no shipments, so they start no return leg either. */
export function canReturn(actor: Actor, shipment: { status: string; originBranchId: number; destinationBranchId: number }): boolean {
  if (actor.role === 'admin') return true;
  return actor.role === 'agent' && actor.branchId !== null && actor.branchId === returningBranchId(shipment);
}

/** POST /shipments/{id}/return: why, and the return leg's secret code (as any new shipment has one). */
export const returnShipmentSchema = z.object({
  reason: requiredText(RETURN_MESSAGES.reasonRequired, 200),
  secretCode: secretCodeSchema,
});
export type ReturnShipmentInput = z.input<typeof returnShipmentSchema>;

/** A shipment named by its id and code (the links between an original and its return leg). */
export const shipmentLinkSchema = z.object({ id: z.number(), code: z.string() });
export type ShipmentLink = z.infer<typeof shipmentLinkSchema>;
