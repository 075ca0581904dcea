import { z } from 'zod';
import { can, type Actor } from './permissions.ts';
import { isCleanText, PRIMITIVE_MESSAGES, recordId } from './primitives.ts';
import { SHIPMENT_STATUSES, SHIPMENT_TRANSITIONS, type ShipmentStatus } from './shipments.ts';

/** DESIGN.md section 5: five wrong codes lock a shipment's delivery for fifteen minutes. */
export const DELIVERY_LOCK = { maxFailures: 5, windowMinutes: 15, lockMinutes: 15 } as const;

export const DELIVERY_MESSAGES = {
  secretRequired: 'Clave requerida',
  wrongSecret: 'Clave secreta inválida',
  locked: 'Demasiados intentos con clave incorrecta. La entrega de este envío está bloqueada por 15 minutos.',
  receiverNameRequired: 'Nombre requerido',
  tooLong: 'Muy largo',
  receiverDocRequired: 'Documento requerido',
  receiverDocInvalid: 'Documento inválido',
  deliveredByRequired: 'Quién entrega',
  notesTooLong: 'Máx. 200 caracteres',
  invalidId: 'Identificador inválido',
  notFound: 'No encontrado.',
  notFoundOrNetwork: 'No encontrado o error de conexión.',
  searchFailed: 'No se pudo buscar.',
  noResults: 'Sin resultados.',
  failed: 'No se pudo confirmar la entrega.',
  agentsFailed: 'No se pudo cargar la lista de agentes.',
  usersFailed: 'Error al cargar usuarios.',
  forbidden: 'Solo la sucursal de destino puede confirmar la entrega de este envío.',
  delivered: 'Entrega confirmada.',
} as const;

/** The refusal for a shipment that is not waiting for delivery (the web looks for its prefix). */
export const cannotDeliverFrom = (status: string) => `No se puede entregar desde el estado '${status}'`;

/** Spec section 4: only shipments still moving can be handed over; the transition table decides. */
export const DELIVERABLE_STATUSES: readonly ShipmentStatus[] = SHIPMENT_STATUSES.filter((s) => SHIPMENT_TRANSITIONS[s].includes('Entregado'));

export const canDeliverFrom = (status: string): boolean => (DELIVERABLE_STATUSES as readonly string[]).includes(status);

/** The warning above the form for a shipment the server will refuse; null when delivery may go ahead. */
export function deliveryWarning(status: string): string | null {
  return canDeliverFrom(status) ? null : `El envío está en estado '${status}': la entrega puede ser rechazada.`;
}

/** DESIGN.md section 4: admin, or staff of the destination branch (agent or courier). */
export function canConfirmDelivery(actor: Actor, destinationBranchId: number): boolean {
  return can(actor, 'deliver', { originBranchId: destinationBranchId, destinationBranchId });
}

const RECEIVER_DOC_PATTERN = /^[A-Za-z0-9.-]+$/;

/**
 * Proof of delivery (issue 18): a photo and a drawn signature, sent as data URLs. The browser
 * resizes the photo before sending; the server refuses anything else past these limits with a 400
 * (and checks the bytes really are the image type the URL claims).
 */
export const PROOF_LIMITS = {
  photo: { maxBytes: 1024 * 1024, label: '1 MB' },
  signature: { maxBytes: 200 * 1024, label: '200 KB' },
  /** The longest side the browser resizes a photo to. */
  photoMaxSide: 1280,
} as const;
export const PROOF_IMAGE_TYPES = ['image/jpeg', 'image/png'] as const;
export type ProofImageType = (typeof PROOF_IMAGE_TYPES)[number];

export const PROOF_MESSAGES = {
  photoType: 'La foto debe ser una imagen JPG o PNG.',
  photoTooLarge: `La foto no puede pesar más de ${PROOF_LIMITS.photo.label}.`,
  signatureType: 'La firma debe ser una imagen PNG o JPG.',
  signatureTooLarge: `La firma no puede pesar más de ${PROOF_LIMITS.signature.label}.`,
  photoRequired: 'La foto de la entrega es obligatoria.',
  signatureRequired: 'La firma de quien recibe es obligatoria.',
  notDelivered: 'El envío aún no fue entregado.',
  settingsSaved: 'Configuración guardada.',
} as const;

const DATA_URL_PATTERN = /^data:(image\/(?:jpeg|png));base64,([A-Za-z0-9+/]+={0,2})$/;

/** A data URL's image type and bytes, or null when it is not a base64 JPEG or PNG data URL. */
export function parseProofDataUrl(value: string): { type: ProofImageType; base64: string; bytes: number } | null {
  const m = DATA_URL_PATTERN.exec(value);
  if (!m || m[2]!.length % 4 !== 0) return null;
  const base64 = m[2]!;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return { type: m[1] as ProofImageType, base64, bytes: (base64.length / 4) * 3 - padding };
}

const proofImage = (kind: 'photo' | 'signature') => {
  const typeMessage = kind === 'photo' ? PROOF_MESSAGES.photoType : PROOF_MESSAGES.signatureType;
  const sizeMessage = kind === 'photo' ? PROOF_MESSAGES.photoTooLarge : PROOF_MESSAGES.signatureTooLarge;
  return z
    .string({ error: typeMessage })
    .refine((v) => parseProofDataUrl(v) !== null, { message: typeMessage, abort: true })
    .refine((v) => parseProofDataUrl(v)!.bytes <= PROOF_LIMITS[kind].maxBytes, sizeMessage)
    .nullish()
    .transform((v) => v ?? null);
};

/** PUT /deliveries/settings: whether 'Confirmar entrega' requires the photo and the signature. */
export const deliverySettingsSchema = z.object({
  proofRequired: z.boolean({ error: 'Indica si la foto y la firma son obligatorias.' }),
});
export type DeliverySettings = z.infer<typeof deliverySettingsSchema>;

/** GET /shipments/{id}/proof: the stored photo and signature as data URLs (staff of the shipment's branches). */
export const deliveryProofSchema = z.object({ photo: z.string().nullable(), signature: z.string().nullable() });
export type DeliveryProof = z.infer<typeof deliveryProofSchema>;

/** POST /shipments/{id}/deliver and the 'Confirmar entrega' form (spec section 5). */
export const deliverySchema = z.object({
  // Trimmed like the code was when the shipment stored it; a code past 64 characters can match nothing.
  secretCode: z
    .string({ error: DELIVERY_MESSAGES.secretRequired })
    .trim()
    .min(4, DELIVERY_MESSAGES.secretRequired)
    .max(64, DELIVERY_MESSAGES.wrongSecret)
    .refine((v) => isCleanText(v), PRIMITIVE_MESSAGES.controlChars),
  receiverName: z
    .string({ error: DELIVERY_MESSAGES.receiverNameRequired })
    .trim()
    .min(2, DELIVERY_MESSAGES.receiverNameRequired)
    .max(80, DELIVERY_MESSAGES.tooLong)
    .refine((v) => isCleanText(v), PRIMITIVE_MESSAGES.controlChars),
  // Empty is "required"; any other wrong value (short, long, other characters) is "invalid".
  receiverDoc: z
    .string({ error: DELIVERY_MESSAGES.receiverDocRequired })
    .trim()
    .min(1, { message: DELIVERY_MESSAGES.receiverDocRequired, abort: true })
    .min(6, DELIVERY_MESSAGES.receiverDocInvalid)
    .max(20, DELIVERY_MESSAGES.receiverDocInvalid)
    .regex(RECEIVER_DOC_PATTERN, DELIVERY_MESSAGES.receiverDocInvalid),
  deliveredByName: z
    .string({ error: DELIVERY_MESSAGES.deliveredByRequired })
    .trim()
    .min(2, DELIVERY_MESSAGES.deliveredByRequired)
    .max(80, DELIVERY_MESSAGES.tooLong)
    .refine((v) => isCleanText(v), PRIMITIVE_MESSAGES.controlChars),
  notes: z
    .string({ error: DELIVERY_MESSAGES.notesTooLong })
    .trim()
    .max(200, DELIVERY_MESSAGES.notesTooLong)
    .refine((v) => isCleanText(v, { multiline: true }), PRIMITIVE_MESSAGES.controlChars)
    .nullish()
    .transform((v) => (v ? v : null)),
  photo: proofImage('photo'),
  signature: proofImage('signature'),
});
export type DeliveryInput = z.input<typeof deliverySchema>;
export type Delivery = z.output<typeof deliverySchema>;

/** The shipment id of the deliver call. */
export const deliveryParamsSchema = z.object({
  id: recordId(DELIVERY_MESSAGES.invalidId),
});

/** What a shipment keeps of its delivery (spec section 3). */
export interface DeliveredInfo {
  receiverName: string;
  receiverDoc: string;
  deliveredByName: string;
  deliveredAt: string;
  notes: string | null;
  /** A photo and a signature were taken at the handover (issue 18); absent on older deliveries. */
  hasPhoto?: boolean;
  hasSignature?: boolean;
}

/** An entry of GET /deliveries/agents: staff who may hand a parcel over (agents and couriers). */
export interface DeliveryAgent {
  id: number;
  username: string | null;
  name: string | null;
  role: 'agent' | 'courier';
  branchId: number | null;
  branchName: string | null;
}

/** Spec section 6: the option label is the username, 'Agente#id' when there is none. */
export function agentOptionLabel(agent: Pick<DeliveryAgent, 'id' | 'username' | 'name'>): string {
  if (!agent.username) return `Agente#${agent.id}`;
  return agent.name ? `${agent.username} — ${agent.name}` : agent.username;
}

/** The name stored as 'delivered by': the person's name, else the label. */
export function agentDeliveredByName(agent: Pick<DeliveryAgent, 'id' | 'username' | 'name'>): string {
  const name = agent.name?.trim();
  return (name && name.length >= 2 ? name : agent.username || `Agente#${agent.id}`).slice(0, 80);
}

/** Options sorted by username (no username last, by id), labelled per spec section 6. */
export function agentOptions(agents: readonly Pick<DeliveryAgent, 'id' | 'username' | 'name'>[]): { value: string; label: string }[] {
  return [...agents]
    .sort((a, b) => {
      if (a.username && b.username) return a.username.localeCompare(b.username, 'es') || a.id - b.id;
      if (a.username) return -1;
      if (b.username) return 1;
      return a.id - b.id;
    })
    .map((a) => ({ value: String(a.id), label: agentOptionLabel(a) }));
}
