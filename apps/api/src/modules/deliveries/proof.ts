import { eq } from 'drizzle-orm';
import {
  canSee,
  parseProofDataUrl,
  PROOF_MESSAGES,
  SHIPMENT_MESSAGES,
  type DeliveredInfo,
  type DeliveryProof,
  type DeliverySettings,
  type ProofImageType,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { deliveryProofs, settings, shipments } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { reencodeImage } from '../../lib/images.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';

/** Proof of delivery (issue 18): the photo and signature taken at the handover, and the company's rule about them. */

const PROOF_REQUIRED_KEY = 'delivery_proof_required';

export interface ProofImage {
  type: ProofImageType;
  bytes: Buffer;
}

/**
 * A validated data URL (the schema checked its type and size) as the bytes to store: decoded and
 * encoded again (lib/images.ts), refused with a Spanish 400 on its field when they are not a whole
 * image of the type the URL names.
 */
export async function decodeProofImage(dataUrl: string | null, field: 'photo' | 'signature'): Promise<ProofImage | null> {
  if (dataUrl === null) return null;
  const message = field === 'photo' ? PROOF_MESSAGES.photoType : PROOF_MESSAGES.signatureType;
  const parsed = parseProofDataUrl(dataUrl);
  if (!parsed) throw badRequest(message, { [field]: message });
  const bytes = await reencodeImage(Buffer.from(parsed.base64, 'base64'), parsed.type);
  if (!bytes) throw badRequest(message, { [field]: message });
  return { type: parsed.type, bytes };
}

export async function proofRequired(db: Db | Tx): Promise<boolean> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, PROOF_REQUIRED_KEY));
  return row?.value === 'true';
}

/** Refuses (400, nothing written) a delivery without the proof the company requires. */
export function checkRequiredProof(required: boolean, photo: ProofImage | null, signature: ProofImage | null): void {
  if (!required) return;
  const fields: Record<string, string> = {};
  if (!photo) fields.photo = PROOF_MESSAGES.photoRequired;
  if (!signature) fields.signature = PROOF_MESSAGES.signatureRequired;
  const first = Object.values(fields)[0];
  if (first) throw badRequest(first, fields);
}

export async function storeProof(tx: Tx, shipmentId: number, photo: ProofImage | null, signature: ProofImage | null, at: Date): Promise<void> {
  if (!photo && !signature) return;
  await tx.insert(deliveryProofs).values({
    shipmentId,
    photo: photo?.bytes ?? null,
    photoType: photo?.type ?? null,
    signature: signature?.bytes ?? null,
    signatureType: signature?.type ?? null,
    createdAt: at,
  });
}

export async function getDeliverySettings(ctx: ServiceContext): Promise<DeliverySettings> {
  return { proofRequired: await proofRequired(ctx.db) };
}

export async function updateDeliverySettings(ctx: ServiceContext, actor: SessionUser, input: DeliverySettings): Promise<DeliverySettings> {
  return ctx.db.transaction(async (tx) => {
    const before = await proofRequired(tx);
    const value = String(input.proofRequired);
    await tx.insert(settings).values({ key: PROOF_REQUIRED_KEY, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
    await audit(tx, {
      userId: actor.id,
      entity: 'settings',
      entityId: PROOF_REQUIRED_KEY,
      action: 'update',
      before: { proofRequired: before },
      after: input,
    });
    return { proofRequired: input.proofRequired };
  });
}

export interface StoredProof {
  shipment: {
    id: number;
    code: string;
    recipientName: string;
    originBranchId: number;
    destinationBranchId: number;
    deliveredInfo: DeliveredInfo;
  };
  photo: ProofImage | null;
  signature: ProofImage | null;
}

const image = (bytes: Uint8Array | null, type: string | null): ProofImage | null =>
  bytes && type ? { type: type as ProofImageType, bytes: Buffer.from(bytes) } : null;

/**
 * A delivered shipment's proof, for staff who may see the shipment (admin, or its origin or
 * destination branch): another branch's agent or courier gets a 403, a shipment not delivered a 404.
 */
export async function loadProof(ctx: ServiceContext, actor: SessionUser, id: number): Promise<StoredProof> {
  const [row] = await ctx.db
    .select({
      id: shipments.id,
      code: shipments.code,
      recipientName: shipments.recipientName,
      originBranchId: shipments.originBranchId,
      destinationBranchId: shipments.destinationBranchId,
      deliveredInfo: shipments.deliveredInfo,
      photo: deliveryProofs.photo,
      photoType: deliveryProofs.photoType,
      signature: deliveryProofs.signature,
      signatureType: deliveryProofs.signatureType,
    })
    .from(shipments)
    .leftJoin(deliveryProofs, eq(deliveryProofs.shipmentId, shipments.id))
    .where(eq(shipments.id, id));
  if (!row) throw notFound(SHIPMENT_MESSAGES.notFound);
  if (!canSee(actor, row)) throw forbidden(SHIPMENT_MESSAGES.notVisible);
  if (!row.deliveredInfo) throw notFound(PROOF_MESSAGES.notDelivered);
  return {
    shipment: {
      id: row.id,
      code: row.code,
      recipientName: row.recipientName,
      originBranchId: row.originBranchId,
      destinationBranchId: row.destinationBranchId,
      deliveredInfo: row.deliveredInfo as DeliveredInfo,
    },
    photo: image(row.photo, row.photoType),
    signature: image(row.signature, row.signatureType),
  };
}

const dataUrl = (img: ProofImage | null) => (img ? `data:${img.type};base64,${img.bytes.toString('base64')}` : null);

export async function getProof(ctx: ServiceContext, actor: SessionUser, id: number): Promise<DeliveryProof> {
  const proof = await loadProof(ctx, actor, id);
  return { photo: dataUrl(proof.photo), signature: dataUrl(proof.signature) };
}
