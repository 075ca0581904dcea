import { z } from 'zod';
import { decimalNumber, isCleanText, optionalRecordId, optionalText, PRIMITIVE_MESSAGES, recordId, searchTerm } from './primitives.ts';

/** Spec section 4: set freely in the form, no enforced transitions. */
export const TRANSPORT_STATUSES = ['disponible', 'en_ruta', 'mantenimiento'] as const;
export type TransportStatus = (typeof TRANSPORT_STATUSES)[number];

export const TRANSPORT_STATUS_LABELS: Record<TransportStatus, string> = {
  disponible: 'Disponible',
  en_ruta: 'En ruta',
  mantenimiento: 'Mantenimiento',
};

/** Spec section 4 pill tones; the web maps each tone to a Mantine colour. */
export type TransportStatusTone = 'success' | 'primary' | 'warning';
export const TRANSPORT_STATUS_TONES: Record<TransportStatus, TransportStatusTone> = {
  disponible: 'success',
  en_ruta: 'primary',
  mantenimiento: 'warning',
};

/** Issue 36: a semirremolque is pulled by a tracto; the GRE transportista names it as the secondary vehicle. */
export const VEHICLE_TYPES = ['camion', 'tracto', 'semirremolque'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];
export const VEHICLE_TYPE_LABELS: Record<VehicleType, string> = { camion: 'Camión', tracto: 'Tracto', semirremolque: 'Semirremolque' };

export function isTransportStatus(value: unknown): value is TransportStatus {
  return typeof value === 'string' && (TRANSPORT_STATUSES as readonly string[]).includes(value);
}

export const FLEET_MESSAGES = {
  plateRequired: 'La placa es obligatoria',
  plateInvalid: 'Placa inválida: 6 a 8 letras o números, con guion opcional (ABC-123).',
  duplicatePlate: 'Ya existe un transporte con esta placa.',
  sameBranches: 'El origen y destino no pueden ser la misma sucursal.',
  sameDrivers: 'El conductor 2 debe ser distinto del conductor 1.',
  numberInvalid: 'Ingresa un número mayor o igual a 0',
  statusInvalid: 'Estado inválido',
  branchInvalid: 'Sucursal inválida',
  branchNotFound: 'La sucursal seleccionada no existe.',
  driverInvalid: 'Conductor inválido',
  driverNotFound: 'El conductor seleccionado no existe.',
  fullNameRequired: 'Nombre completo es obligatorio',
  dniRequired: 'DNI es obligatorio',
  dniLength: 'El DNI debe tener 8 dígitos.',
  licenseRequired: 'Licencia es obligatoria',
  licenseInvalid: 'Licencia inválida: solo letras, números y guion.',
  duplicateDni: 'Ya existe un conductor con este DNI.',
  transportNotFound: 'Transporte no encontrado.',
  driverMissing: 'Conductor no encontrado.',
  assignmentNotFound: 'El paquete no está cargado en este transporte.',
  driverInUse: 'No se puede eliminar el conductor: está asignado a un transporte.',
  transportHasLoad: 'No se puede eliminar el transporte: tiene paquetes cargados. Quítalos primero en Asignaciones.',
  noShipments: 'Selecciona al menos un envío.',
  tooManyShipments: 'Máximo 200 envíos por carga.',
  shipmentNotFound: 'Uno de los envíos seleccionados no existe.',
  alreadyLoadedRace: 'El envío ya fue cargado en otro transporte. Actualiza y vuelve a intentar.',
  capacityExceeded: 'El peso cargado supera la capacidad del transporte.',
  cancelLoaded: (plate: string) => `No se puede anular un envío cargado en un transporte (${plate}). Descárgalo primero en Transportistas.`,
  // Spec section 8 (operations): the /shipments modal and /shipments/{id}.
  transportsLoadFailed: 'No se pudo cargar transportes.',
  selectTransport: 'Selecciona un transporte.',
  assignmentLoadFailed: 'No se pudo obtener el transporte asignado.',
  // Spec section 8 (billing-payments-fleet): empty loaded list.
  noLoad: 'Sin paquetes asignados.',
  noTransport: 'Sin transporte asignado',
  // Issue 36 master data.
  tucInvalid: 'TUC / CHV inválido: solo letras, números y guion (máximo 30).',
  configurationInvalid: 'Configuración inválida: letras y números como T3S3 (máximo 10).',
  axlesInvalid: 'Ingresa un número de ejes entero entre 1 y 20.',
  trailerInvalid: 'Semirremolque inválido',
  trailerNotFound: 'El semirremolque seleccionado no existe.',
  trailerSelf: 'El semirremolque debe ser otro transporte.',
  trailerNotTrailer: 'El transporte elegido como semirremolque no es de tipo semirremolque.',
  trailerOnTrailer: 'Un semirremolque no lleva otro semirremolque.',
  vehicleTypeInvalid: 'Tipo de vehículo inválido',
  licenseClassInvalid: 'Clase de licencia inválida (por ejemplo A-IIIc).',
  licenseExpiryInvalid: 'Fecha de vencimiento inválida (AAAA-MM-DD).',
} as const;

export const driverInUse = (plates: readonly string[]) =>
  `No se puede eliminar el conductor: está asignado ${plates.length === 1 ? 'al transporte' : 'a los transportes'} ${plates.join(', ')}.`;
export const onlyCreatedLoadable = (code: string, status: string) => `Solo se pueden cargar envíos en estado Creado: ${code} está ${status}.`;
export const alreadyLoadedOn = (code: string, plate: string) =>
  `El envío ${code} ya está cargado en ${plate}. Quítalo de ese transporte antes de cargarlo en otro.`;
/** History entries written on the shipment when it is loaded or unloaded. */
export const loadedEventName = (plate: string) => `Cargado en ${plate}`;
export const unloadedEventName = (plate: string) => `Descargado de ${plate}`;

/**
 * 'abc123', ' abc-123 ' → 'ABC-123'. Spaces go, letters go uppercase, and the common 3+3 plate
 * gets its hyphen, so the same vehicle cannot be registered twice under two spellings.
 */
export function normalizePlate(raw: string): string {
  const compact = raw.trim().toUpperCase().replace(/\s+/g, '');
  return /^[A-Z0-9]{6}$/.test(compact) ? `${compact.slice(0, 3)}-${compact.slice(3)}` : compact;
}

/** 6–8 letters or digits with at most one inner hyphen (spec section 5: plate of 6–8 alphanumerics). */
export function isValidPlate(normalized: string): boolean {
  return /^[A-Z0-9]+(-[A-Z0-9]+)?$/.test(normalized) && normalized.replace('-', '').length >= 6 && normalized.replace('-', '').length <= 8;
}

/** The route text shown in the list: 'Origen – Destino' (en dash), or null without both branches. */
export function routeText(origin: string | null | undefined, destination: string | null | undefined): string | null {
  return origin && destination ? `${origin} – ${destination}` : null;
}

const emptyToNull = (v: unknown) => (v === '' || v === undefined || v === null ? null : v);

const plateField = z
  .string({ error: FLEET_MESSAGES.plateRequired })
  .trim()
  .min(1, { message: FLEET_MESSAGES.plateRequired, abort: true })
  .transform(normalizePlate)
  .refine(isValidPlate, FLEET_MESSAGES.plateInvalid);

const optionalPlate = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z
    .string()
    .transform(normalizePlate)
    .refine(isValidPlate, FLEET_MESSAGES.plateInvalid)
    .nullish()
    .transform((v) => v ?? null),
);

/** A number ≥ 0 with at most 2 decimals, or null when blank; numeric strings from inputs are accepted. */
const optionalKg = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : emptyToNull(v)),
  decimalNumber(FLEET_MESSAGES.numberInvalid)
    .pipe(z.number().min(0, FLEET_MESSAGES.numberInvalid).max(99_999_999, 'Máximo 99 999 999 kg'))
    .nullable()
    .transform((v) => (v === null ? null : Math.round(v * 100) / 100)),
);

const optionalId = optionalRecordId;

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const optionalCode = (pattern: RegExp, max: number, message: string) =>
  z.preprocess(
    blankToNull,
    z
      .string({ error: message })
      .trim()
      .max(max, message)
      .transform((v) => v.toUpperCase())
      .refine((v) => pattern.test(v), message)
      .nullish()
      .transform((v) => v ?? null),
  );

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 does not). */
export const isCalendarDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
export const calendarDay = (message: string) => z.string({ error: message }).trim().refine(isCalendarDay, message);

export const transportSchema = z
  .object({
    plate_primary: plateField,
    plate_secondary: optionalPlate,
    make: optionalText(60),
    model: optionalText(60),
    capacity_kg: optionalKg,
    net_weight_kg: optionalKg,
    status: z.enum(TRANSPORT_STATUSES, { error: FLEET_MESSAGES.statusInvalid }).default('disponible'),
    origin_branch_id: optionalId(FLEET_MESSAGES.branchInvalid),
    destination_branch_id: optionalId(FLEET_MESSAGES.branchInvalid),
    /** Derived from the branches when both are set (the server recomputes it); free text otherwise. */
    route: optionalText(160),
    driver_id_1: optionalId(FLEET_MESSAGES.driverInvalid),
    driver_id_2: optionalId(FLEET_MESSAGES.driverInvalid),
    vehicle_type: z.enum(VEHICLE_TYPES, { error: FLEET_MESSAGES.vehicleTypeInvalid }).default('camion'),
    tuc_number: optionalCode(/^[A-Z0-9-]+$/, 30, FLEET_MESSAGES.tucInvalid),
    configuration: optionalCode(/^[A-Z0-9]+$/, 10, FLEET_MESSAGES.configurationInvalid),
    payload_kg: optionalKg,
    axles: z.preprocess(
      (v) => (typeof v === 'string' ? (v.trim() === '' ? null : Number(v.trim())) : emptyToNull(v)),
      z
        .number({ error: FLEET_MESSAGES.axlesInvalid })
        .int(FLEET_MESSAGES.axlesInvalid)
        .min(1, FLEET_MESSAGES.axlesInvalid)
        .max(20, FLEET_MESSAGES.axlesInvalid)
        .nullable(),
    ),
    trailer_id: optionalId(FLEET_MESSAGES.trailerInvalid),
  })
  .superRefine((t, ctx) => {
    if (t.origin_branch_id !== null && t.origin_branch_id === t.destination_branch_id) {
      ctx.addIssue({ code: 'custom', path: ['destination_branch_id'], message: FLEET_MESSAGES.sameBranches });
    }
    if (t.vehicle_type === 'semirremolque' && t.trailer_id !== null) {
      ctx.addIssue({ code: 'custom', path: ['trailer_id'], message: FLEET_MESSAGES.trailerOnTrailer });
    }
    if (t.driver_id_1 !== null && t.driver_id_1 === t.driver_id_2) {
      ctx.addIssue({ code: 'custom', path: ['driver_id_2'], message: FLEET_MESSAGES.sameDrivers });
    }
  });
export type TransportInput = z.input<typeof transportSchema>;
export type TransportData = z.output<typeof transportSchema>;

export const driverSchema = z.object({
  full_name: z
    .string({ error: FLEET_MESSAGES.fullNameRequired })
    .trim()
    .min(1, FLEET_MESSAGES.fullNameRequired)
    .max(120, 'Máximo 120 caracteres')
    .refine((v) => isCleanText(v), PRIMITIVE_MESSAGES.controlChars),
  dni: z
    .string({ error: FLEET_MESSAGES.dniRequired })
    .trim()
    .min(1, { message: FLEET_MESSAGES.dniRequired, abort: true })
    .regex(/^\d{8}$/, FLEET_MESSAGES.dniLength),
  license_number: z
    .string({ error: FLEET_MESSAGES.licenseRequired })
    .trim()
    .min(1, { message: FLEET_MESSAGES.licenseRequired, abort: true })
    .max(20, 'Máximo 20 caracteres')
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z0-9-]+$/.test(v), FLEET_MESSAGES.licenseInvalid),
  license_class: optionalCode(/^[A-Z]{1,2}(-[A-Z0-9]{1,5})?$/, 10, FLEET_MESSAGES.licenseClassInvalid),
  license_expires_on: z.preprocess(
    blankToNull,
    calendarDay(FLEET_MESSAGES.licenseExpiryInvalid)
      .nullish()
      .transform((v) => v ?? null),
  ),
  phone: optionalText(30),
  note: optionalText(300, { multiline: true }),
});
export type DriverInput = z.input<typeof driverSchema>;
export type DriverData = z.output<typeof driverSchema>;

export const loadShipmentsSchema = z.object({
  shipmentIds: z
    .array(recordId(), {
      error: FLEET_MESSAGES.noShipments,
    })
    .min(1, FLEET_MESSAGES.noShipments)
    .max(200, FLEET_MESSAGES.tooManyShipments),
});

export const transportListQuerySchema = z.object({
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(TRANSPORT_STATUSES, { error: FLEET_MESSAGES.statusInvalid }).optional()),
  route: searchTerm(100),
  page: z.coerce.number().int().min(1, 'Página inválida').default(1),
  limit: z.coerce.number().int().min(1, 'Límite inválido').max(200, 'Máximo 200 por página').default(10),
});
export type TransportListQuery = z.output<typeof transportListQuerySchema>;

export const TRANSPORT_PAGE_SIZES = [10, 25, 50] as const;

/** Non-blocking warning: true when the load weighs more than the capacity (unknown capacity never warns). */
export function exceedsCapacity(loadedKg: number, capacityKg: number | null | undefined): boolean {
  return capacityKg !== null && capacityKg !== undefined && loadedKg > capacityKg;
}
