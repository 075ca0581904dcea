import { eq } from 'drizzle-orm';
import { canManage, SHIPMENT_MESSAGES, type SenderGuide } from '@tramo/domain';
import { shipmentSenderGuides } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { findRow } from '../shipments/index.ts';

/**
 * The sender's GRE remitente of a shipment (issue 36): recorded at the counter, referenced by the
 * carrier guide of the load that carries it. Who may change the shipment may record it; audited.
 */
export async function setSenderGuide(
  ctx: ServiceContext,
  actor: SessionUser,
  shipmentId: number,
  guide: { serie: string; numero: number },
): Promise<SenderGuide> {
  return ctx.db.transaction(async (tx) => {
    const shipment = await findRow(tx, { id: shipmentId });
    if (!shipment) throw notFound(SHIPMENT_MESSAGES.notFound);
    if (!canManage(actor, shipment.originBranchId)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
    const [before] = await tx
      .select({ series: shipmentSenderGuides.series, number: shipmentSenderGuides.number })
      .from(shipmentSenderGuides)
      .where(eq(shipmentSenderGuides.shipmentId, shipmentId))
      .for('update');
    const values = { series: guide.serie, number: guide.numero, recordedBy: actor.id, recordedAt: ctx.now() };
    await tx
      .insert(shipmentSenderGuides)
      .values({ shipmentId, ...values })
      .onConflictDoUpdate({ target: shipmentSenderGuides.shipmentId, set: values });
    await audit(tx, {
      userId: actor.id,
      entity: 'shipment',
      entityId: shipmentId,
      action: 'sender_guide.set',
      before: before ?? null,
      after: { series: guide.serie, number: guide.numero },
    });
    return { shipmentId, serie: guide.serie, numero: guide.numero };
  });
}
