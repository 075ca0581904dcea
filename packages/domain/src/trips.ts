import { z } from 'zod';
import { optionalText } from './primitives.ts';
import { normalizeShipmentCode } from './shipments.ts';

/**
 * Trips (issue 17, DESIGN.md 5a): a transport's load departs ('Registrar salida') and arrives
 * ('Registrar llegada'); scanning loads a truck and checks what comes off it (desembarque).
 */
export const TRIP_MESSAGES = {
  maintenance: (plate: string) => `El transporte ${plate} está en mantenimiento: no puede salir.`,
  maintenanceNoLoad: (plate: string) => `El transporte ${plate} está en mantenimiento: no se puede cargar.`,
  noRoute: 'El transporte no tiene origen y destino: indícalos en Transportes antes de registrar la salida.',
  emptyLoad: 'No hay paquetes cargados: carga al menos un envío antes de registrar la salida.',
  /** Issue 36: with 'Salida después de las guías' on, the trip leaves once SUNAT accepted its GRE-T. */
  guidePending: (guides: string[]) =>
    `Guía pendiente en SUNAT: ${guides.join(', ')}. La salida espera a que SUNAT la acepte; vuelve a intentarlo en unos segundos.`,
  alreadyDeparted: (plate: string) => `El transporte ${plate} ya salió: registra su llegada antes de otra salida.`,
  departedNoLoad: (plate: string) => `El transporte ${plate} está en ruta: no se puede cargar ni descargar hasta que llegue.`,
  notDeparted: (plate: string) => `El transporte ${plate} no está en ruta: no hay llegada que registrar.`,
  notCreated: (code: string, status: string) => `No sale: ${code} está ${status}.`,
  overloaded: (loadKg: string, capacityKg: string) =>
    `La carga (${loadKg} kg) supera la capacidad del transporte (${capacityKg} kg). Confirma para salir con sobrecarga.`,
  originOnly: 'Solo la agencia de origen del transporte registra su salida.',
  destinationOnly: 'Solo la agencia de destino del viaje registra su llegada.',
  codeRequired: 'Escanea o escribe un código de envío.',
  codeInvalid: 'Código inválido: se espera TMT-000123.',
  unknownCode: (code: string) => `No existe el envío ${code}.`,
  departed: (plate: string, destination: string) => `Salida registrada: ${plate} hacia ${destination}.`,
  arrived: (destination: string) => `Llegada registrada en ${destination}.`,
  scanOverload: (code: string, loadKg: string, capacityKg: string) =>
    `Con ${code} la carga llegaría a ${loadKg} kg y supera la capacidad (${capacityKg} kg). ¿Cargarlo igual?`,
  notOnTrip: (code: string) => `${code} no viaja en este transporte: queda como sobrante.`,
} as const;

/** History lines written on each shipment of the trip. */
export const departedEventName = (plate: string, destination: string) => `Salió en ${plate} hacia ${destination}`;
export const arrivedEventName = (destination: string) => `Llegó a agencia ${destination}`;
/** The scan's refusal, word for word as issue 17 asks. */
export const wrongDestination = (code: string, shipmentDestination: string, transportDestination: string) =>
  `El envío ${code} va a ${shipmentDestination}, este transporte va a ${transportDestination}`;

const KG = new Intl.NumberFormat('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** A weight as every message shows it: es-PE, 2 decimals ('1,234.50'). */
export const formatKg = (kg: number) => KG.format(kg);

/** Loaded weight as a percentage of the capacity, rounded down; null when the capacity is unknown or 0. */
export function loadPercent(loadedKg: number, capacityKg: number | null | undefined): number | null {
  if (capacityKg === null || capacityKg === undefined || capacityKg <= 0) return null;
  return Math.floor((loadedKg * 100) / capacityKg);
}

/** Would loading `addKg` more go beyond the capacity? Unknown capacity never warns. */
export function wouldOverload(loadedKg: number, addKg: number, capacityKg: number | null | undefined): boolean {
  return capacityKg !== null && capacityKg !== undefined && Math.round((loadedKg + addKg) * 100) > Math.round(capacityKg * 100);
}

export const departureSchema = z.object({
  /** The second confirmation of a departure beyond the capacity. */
  confirmOverload: z.boolean({ error: 'confirmOverload debe ser verdadero o falso' }).default(false),
});

const scannedCode = z
  .string({ error: TRIP_MESSAGES.codeRequired })
  .trim()
  .min(1, { message: TRIP_MESSAGES.codeRequired, abort: true })
  .max(40, TRIP_MESSAGES.codeInvalid)
  .transform((v, ctx) => {
    const code = normalizeShipmentCode(v);
    if (!code) {
      ctx.addIssue({ code: 'custom', message: TRIP_MESSAGES.codeInvalid });
      return z.NEVER;
    }
    return code;
  });

export const scanSchema = z.object({
  code: scannedCode,
  /** Load it even though the truck would go beyond its capacity (asked after an 'overload' answer). */
  confirmOverload: z.boolean({ error: 'confirmOverload debe ser verdadero o falso' }).default(false),
});

/** 'all': everything on the trip came off; 'scanned': the unload check decides (missing ones get an incident). */
export const arrivalSchema = z.object({
  receive: z.enum(['all', 'scanned'], { error: "receive debe ser 'all' o 'scanned'" }).default('all'),
});

export const INCIDENT_REASONS = [
  'dañado',
  'extraviado',
  'faltante en desembarque',
  'dirección errada',
  'destinatario ausente',
  'rechazado',
  'otro',
] as const;
export type IncidentReason = (typeof INCIDENT_REASONS)[number];

export const INCIDENT_REASON_LABELS: Record<IncidentReason, string> = {
  dañado: 'Dañado',
  extraviado: 'Extraviado',
  'faltante en desembarque': 'Faltante en desembarque',
  'dirección errada': 'Dirección errada',
  'destinatario ausente': 'Destinatario ausente',
  rechazado: 'Rechazado',
  otro: 'Otro',
};

export const missingOnUnloadNote = (plate: string) => `No bajó de ${plate} en el desembarque.`;

// ---- answers -----------------------------------------------------------------------------------

export const tripAnswerSchema = z.object({
  id: z.number(),
  transportId: z.number(),
  plate: z.string(),
  originBranchId: z.number(),
  originName: z.string(),
  destinationBranchId: z.number(),
  destinationName: z.string(),
  weightKg: z.number(),
  billableWeightKg: z.number(),
  capacityKg: z.number().nullable(),
  overloaded: z.boolean(),
  departedAt: z.string(),
  departedByName: z.string().nullable(),
  arrivedAt: z.string().nullable(),
  arrivedByName: z.string().nullable(),
  shipmentCount: z.number(),
  /** The admin's exception to the document gate this departure used (issue 36), printed on the manifest. */
  complianceOverride: z.object({ reason: z.string(), refusal: z.string(), byName: z.string(), at: z.string() }).nullable(),
});
export type Trip = z.infer<typeof tripAnswerSchema>;

/** 'overload': not loaded, the truck would go beyond its capacity; the screen asks before loading it. */
export const SCAN_OUTCOMES = ['loaded', 'already', 'overload'] as const;
export const scanAnswerSchema = z.object({
  outcome: z.enum(SCAN_OUTCOMES),
  code: z.string(),
  message: z.string(),
  /** Beyond the capacity after this scan (or, for 'overload', if it were loaded). */
  overCapacity: z.boolean(),
});
export type ScanAnswer = z.infer<typeof scanAnswerSchema>;

const checkRow = z.object({ shipmentId: z.number().nullable(), code: z.string(), recipientName: z.string().nullable() });
/** The unload check of an open trip: expected, scanned, and the two differences. */
export const unloadCheckSchema = z.object({
  trip: tripAnswerSchema,
  expected: z.array(checkRow),
  scanned: z.array(checkRow),
  missing: z.array(checkRow),
  extra: z.array(checkRow),
});
export type UnloadCheck = z.infer<typeof unloadCheckSchema>;

export const UNLOAD_SCAN_OUTCOMES = ['scanned', 'already', 'extra'] as const;
export const unloadScanAnswerSchema = z.object({
  outcome: z.enum(UNLOAD_SCAN_OUTCOMES),
  code: z.string(),
  message: z.string(),
  check: unloadCheckSchema,
});
export type UnloadScanAnswer = z.infer<typeof unloadScanAnswerSchema>;

/** The photo's bytes are decoded on the server (issue 31): a file that is not the image it claims to be. */
export const INCIDENT_PHOTO_INVALID = 'La foto no es una imagen válida.';

export const incidentSchema = z.object({
  reason: z.enum(INCIDENT_REASONS, { error: 'Selecciona un motivo.' }),
  note: optionalText(500, { multiline: true }),
  /** An optional photo as a data URL (JPEG/PNG/WebP), at most about 1.5 MB. */
  photo: z
    .string()
    .max(2_000_000, 'La foto es demasiado grande (máximo 1.5 MB).')
    .regex(/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$/, 'La foto debe ser una imagen JPEG, PNG o WebP.')
    .nullish()
    .transform((v) => v ?? null),
});
export type IncidentInput = z.input<typeof incidentSchema>;

export const incidentAnswerSchema = z.object({
  id: z.number(),
  shipmentId: z.number(),
  shipmentCode: z.string(),
  reason: z.enum(INCIDENT_REASONS),
  note: z.string().nullable(),
  hasPhoto: z.boolean(),
  /** The photo itself (a data URL), in a shipment's own list only: the Panel's list stays light. */
  photo: z.string().nullable().optional(),
  tripId: z.number().nullable(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  closedAt: z.string().nullable(),
  closedByName: z.string().nullable(),
  /** Loss or damage: what the liability clause pays (issue 34), in a shipment's own list; null for other reasons. */
  compensation: z
    .object({ amount: z.number(), basis: z.enum(['declarado', 'tope']), description: z.string() })
    .nullable()
    .optional(),
});
export type Incident = z.infer<typeof incidentAnswerSchema>;
