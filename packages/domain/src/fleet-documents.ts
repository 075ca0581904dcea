import { z } from 'zod';
import { addDays, daysBetween } from './calendar.ts';
import { dayText, limaDay } from './dates.ts';
import { calendarDay } from './fleet.ts';

/**
 * Vehicle and driver documents with expiry (DESIGN.md 5b): what keeps an expired truck or driver
 * off the road. Days are Lima calendar days: a document that expires today is valid until 23:59
 * Lima, and expired from the next day's 00:00.
 */
export const VEHICLE_DOCUMENT_TYPES = ['soat', 'citv', 'tuc', 'seguro'] as const;
export const DRIVER_DOCUMENT_TYPES = ['licencia', 'examen_medico'] as const;
export const FLEET_DOCUMENT_TYPES = [...VEHICLE_DOCUMENT_TYPES, ...DRIVER_DOCUMENT_TYPES] as const;
export type FleetDocumentType = (typeof FLEET_DOCUMENT_TYPES)[number];

export const FLEET_DOCUMENT_LABELS: Record<FleetDocumentType, string> = {
  soat: 'SOAT',
  citv: 'CITV (revisión técnica)',
  tuc: 'TUC / CHV',
  seguro: 'Seguro vehicular',
  licencia: 'Licencia de conducir',
  examen_medico: 'Examen médico',
};

/** The documents without which a vehicle or a driver does not leave. */
export const REQUIRED_VEHICLE_DOCUMENTS: readonly FleetDocumentType[] = ['soat', 'citv'];
export const REQUIRED_DRIVER_DOCUMENTS: readonly FleetDocumentType[] = ['licencia'];

/** Alerts go out this many days before expiry, once each. */
export const EXPIRY_ALERT_WINDOWS = [30, 15, 7] as const;
export type ExpiryAlertWindow = (typeof EXPIRY_ALERT_WINDOWS)[number];

export type ExpiryState = 'vigente' | 'por_vencer' | 'vencido';

/** Whole Lima days from `now` until the expiry day (0 = expires today, negative = expired). */
export function daysUntilExpiry(expiresOn: string, now: Date): number {
  return daysBetween(limaDay(now), expiresOn);
}

export function isExpired(expiresOn: string, now: Date): boolean {
  return daysUntilExpiry(expiresOn, now) < 0;
}

export function expiryState(expiresOn: string, now: Date, soonDays = EXPIRY_ALERT_WINDOWS[0]): ExpiryState {
  const days = daysUntilExpiry(expiresOn, now);
  if (days < 0) return 'vencido';
  return days <= soonDays ? 'por_vencer' : 'vigente';
}

/**
 * The alert window a document is in today: the smallest window that has begun (7 within a week,
 * then 15, then 30), or null outside them and once expired. An alert is sent once per window.
 */
export function alertWindow(expiresOn: string, now: Date): ExpiryAlertWindow | null {
  const days = daysUntilExpiry(expiresOn, now);
  if (days < 0) return null;
  return EXPIRY_ALERT_WINDOWS.filter((w) => days <= w).at(-1) ?? null;
}

/** The Lima day a window opens for a document (the day its alert is due). */
export function alertDay(expiresOn: string, window: ExpiryAlertWindow): string {
  return addDays(expiresOn, -window);
}

export interface HeldDocument {
  type: FleetDocumentType;
  number: string | null;
  expiresOn: string;
}

/** 'El SOAT de ABC-123 venció el 20/11/2026.' */
export function expiredDocumentMessage(doc: Pick<HeldDocument, 'type' | 'expiresOn'>, holder: string): string {
  const label = doc.type === 'licencia' ? 'La licencia' : doc.type === 'examen_medico' ? 'El examen médico' : `El ${FLEET_DOCUMENT_LABELS[doc.type]}`;
  return `${label} de ${holder} venció el ${dayText(doc.expiresOn)}.`;
}

export const missingDocumentMessage = (type: FleetDocumentType, holder: string) => `${holder} no tiene ${FLEET_DOCUMENT_LABELS[type]} registrado.`;

/**
 * The first reason a vehicle or driver may not leave today: a required document missing, or
 * expired (of several copies of one type, the one that expires last counts). null = may leave.
 */
export function complianceRefusal(
  documents: readonly HeldDocument[],
  required: readonly FleetDocumentType[],
  holder: string,
  now: Date,
): string | null {
  for (const type of required) {
    const latest = documents.filter((d) => d.type === type).reduce<HeldDocument | null>((a, d) => (!a || d.expiresOn > a.expiresOn ? d : a), null);
    if (!latest) return missingDocumentMessage(type, holder);
    if (isExpired(latest.expiresOn, now)) return expiredDocumentMessage(latest, holder);
  }
  return null;
}

/** A shipment as a load carries it into guides: who sends and who receives. */
export interface LoadParty {
  docType: string;
  docNumber: string;
}
export interface LoadedForGuide<Id = number> {
  id: Id;
  sender: LoadParty;
  recipient: LoadParty;
}

/**
 * A GRE transportista names one remitente and one destinatario: a mixed load is issued as one
 * guide per remitente/destinatario pair, in the order the pairs first appear on the load.
 */
export function groupLoadIntoGuides<Id>(shipments: readonly LoadedForGuide<Id>[]): { sender: LoadParty; recipient: LoadParty; shipmentIds: Id[] }[] {
  const groups = new Map<string, { sender: LoadParty; recipient: LoadParty; shipmentIds: Id[] }>();
  for (const s of shipments) {
    const key = `${s.sender.docType}:${s.sender.docNumber}|${s.recipient.docType}:${s.recipient.docNumber}`;
    const group = groups.get(key) ?? { sender: s.sender, recipient: s.recipient, shipmentIds: [] };
    group.shipmentIds.push(s.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

// ---- the wire (issue 36) -----------------------------------------------------------------------

/** A photo (re-encoded by the server) or a PDF; the PDF is kept as sent, so it is capped and checked. */
export const FLEET_FILE_LIMITS = { maxBytes: 2 * 1024 * 1024, label: '2 MB' } as const;
export const FLEET_FILE_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export type FleetFileType = (typeof FLEET_FILE_TYPES)[number];
/** The JSON body carries the file as a data URL: base64 grows it by a third, plus the fields. */
export const FLEET_DOCUMENT_BODY_LIMIT = Math.ceil((FLEET_FILE_LIMITS.maxBytes * 4) / 3) + 64 * 1024;

export const FLEET_DOCUMENT_MESSAGES = {
  typeInvalid: 'Tipo de documento inválido',
  vehicleType: 'Para un vehículo: SOAT, CITV, TUC / CHV o seguro.',
  driverType: 'Para un conductor: licencia o examen médico.',
  numberRequired: 'El número del documento es obligatorio',
  issuedInvalid: 'Fecha de emisión inválida (AAAA-MM-DD).',
  expiresRequired: 'La fecha de vencimiento es obligatoria (AAAA-MM-DD).',
  issuedAfterExpiry: 'La fecha de emisión no puede ser posterior al vencimiento.',
  fileType: 'El archivo debe ser una foto JPG o PNG o un PDF.',
  fileTooLarge: `El archivo no puede pesar más de ${FLEET_FILE_LIMITS.label}.`,
  documentNotFound: 'Documento no encontrado.',
  noFile: 'El documento no tiene archivo.',
  overrideReasonRequired: 'Indica el motivo de la excepción (mínimo 10 caracteres).',
  overrideNotNeeded: 'El transporte y sus conductores tienen sus documentos vigentes: no hace falta una excepción.',
  overrideExists: 'Ya hay una excepción pendiente para este transporte: se usará en su próxima salida.',
  expiringAlert: (count: number) =>
    count === 1 ? '1 documento de la flota vence en 30 días o ya venció.' : `${count} documentos de la flota vencen en 30 días o ya vencieron.`,
} as const;

const FILE_DATA_URL = /^data:(image\/(?:jpeg|png)|application\/pdf);base64,([A-Za-z0-9+/]+={0,2})$/;

/** A data URL's type and decoded size, or null when it is not a base64 JPEG, PNG or PDF data URL. */
export function parseFleetFileDataUrl(value: string): { type: FleetFileType; base64: string; bytes: number } | null {
  const m = FILE_DATA_URL.exec(value);
  if (!m || m[2]!.length % 4 !== 0) return null;
  const base64 = m[2]!;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return { type: m[1] as FleetFileType, base64, bytes: (base64.length / 4) * 3 - padding };
}

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** POST /transports/{id}/documents and /drivers/{id}/documents; the route checks the type fits the holder. */
export const fleetDocumentSchema = z
  .object({
    type: z.enum(FLEET_DOCUMENT_TYPES, { error: FLEET_DOCUMENT_MESSAGES.typeInvalid }),
    number: z
      .string({ error: FLEET_DOCUMENT_MESSAGES.numberRequired })
      .trim()
      .min(1, FLEET_DOCUMENT_MESSAGES.numberRequired)
      .max(40, 'Máximo 40 caracteres')
      .refine((v) => /^[A-Za-z0-9./ -]+$/.test(v), 'Número inválido: letras, números, punto, guion o barra.'),
    issuedOn: z.preprocess(
      blankToNull,
      calendarDay(FLEET_DOCUMENT_MESSAGES.issuedInvalid)
        .nullish()
        .transform((v) => v ?? null),
    ),
    expiresOn: calendarDay(FLEET_DOCUMENT_MESSAGES.expiresRequired),
    file: z.preprocess(
      blankToNull,
      z
        .string({ error: FLEET_DOCUMENT_MESSAGES.fileType })
        .refine((v) => parseFleetFileDataUrl(v) !== null, { message: FLEET_DOCUMENT_MESSAGES.fileType, abort: true })
        .refine((v) => parseFleetFileDataUrl(v)!.bytes <= FLEET_FILE_LIMITS.maxBytes, FLEET_DOCUMENT_MESSAGES.fileTooLarge)
        .nullish()
        .transform((v) => v ?? null),
    ),
  })
  .superRefine((d, ctx) => {
    if (d.issuedOn !== null && d.issuedOn > d.expiresOn)
      ctx.addIssue({ code: 'custom', path: ['issuedOn'], message: FLEET_DOCUMENT_MESSAGES.issuedAfterExpiry });
  });
export type FleetDocumentInput = z.input<typeof fleetDocumentSchema>;
export type FleetDocumentData = z.output<typeof fleetDocumentSchema>;

export const fleetDocumentAnswerSchema = z.object({
  /** null for the licence kept on the driver's record (edited in the Conductores form, not deletable here). */
  id: z.number().nullable(),
  transportId: z.number().nullable(),
  driverId: z.number().nullable(),
  /** The plate or the driver's name, as the refusals name them. */
  holder: z.string(),
  type: z.enum(FLEET_DOCUMENT_TYPES),
  number: z.string().nullable(),
  issuedOn: z.string().nullable(),
  expiresOn: z.string(),
  fileType: z.enum(FLEET_FILE_TYPES).nullable(),
  /** Lima days until expiry (negative once expired) and the state the screens colour. */
  daysLeft: z.number(),
  state: z.enum(['vigente', 'por_vencer', 'vencido']),
});
export type FleetDocument = z.infer<typeof fleetDocumentAnswerSchema>;

/** POST /transports/{id}/compliance-override: an admin lets one departure through, with a reason. */
export const complianceOverrideSchema = z.object({
  reason: z
    .string({ error: FLEET_DOCUMENT_MESSAGES.overrideReasonRequired })
    .trim()
    .min(10, FLEET_DOCUMENT_MESSAGES.overrideReasonRequired)
    .max(300, 'Máximo 300 caracteres'),
});
export const complianceOverrideAnswerSchema = z.object({
  id: z.number(),
  transportId: z.number(),
  reason: z.string(),
  refusal: z.string(),
  createdByName: z.string(),
  createdAt: z.string(),
  tripId: z.number().nullable(),
});
export type ComplianceOverride = z.infer<typeof complianceOverrideAnswerSchema>;

/** The transport's compliance now: the first refusal (null = may leave) and any unspent override. */
export const complianceAnswerSchema = z.object({
  refusal: z.string().nullable(),
  override: complianceOverrideAnswerSchema.nullable(),
});

export const fleetDocumentQuerySchema = z.object({
  /** Only what expires within this many days (or has expired); absent = every document. */
  within: z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : Number(v)),
    z.union([z.literal(7), z.literal(15), z.literal(30)], { error: 'Indica 7, 15 o 30 días.' }).optional(),
  ),
});
