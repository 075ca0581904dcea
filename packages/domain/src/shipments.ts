import { z } from 'zod';
import {
  decimalNumber,
  optionalRecordId,
  optionalText,
  keysetChecks,
  keysetCursorFields,
  pageNumber,
  PAGING_MESSAGES,
  recordId,
  recordIdFilter,
  requiredText,
  searchTerm,
} from './primitives.ts';
import { INVALID_DAY_MESSAGE, isIsoDay } from './dates.ts';
import { centsToNumber, sumCents, toCents, type Cents } from './money.ts';
import { billableWeightKg, dominantProductType, productTypeSchema, type ProductType } from './pricing.ts';
import { quoteBodyFields, tariffLineFields, tariffShipmentFields } from './tariff-fields.ts';
import type { ChargeBasis } from './tariffs.ts';
import { whoPaysFields } from './who-pays.ts';

/** DESIGN.md section 5a: Creado → En tránsito → En agencia → Entregado; Anulado and Devuelto end a shipment early. */
export const SHIPMENT_STATUSES = ['Creado', 'En tránsito', 'En agencia', 'Entregado', 'Anulado', 'Devuelto'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export function isShipmentStatus(value: unknown): value is ShipmentStatus {
  return typeof value === 'string' && (SHIPMENT_STATUSES as readonly string[]).includes(value);
}

/** Still moving: the list's `active=true` filter and the "open" shipments of the counters. */
export const ACTIVE_STATUSES: readonly ShipmentStatus[] = ['Creado', 'En tránsito', 'En agencia'];
export const FINAL_STATUSES: readonly ShipmentStatus[] = ['Entregado', 'Anulado', 'Devuelto'];

/** `TMT-` + the sequence value, at least 6 digits (never truncated past 999999). */
export function formatShipmentCode(n: number): string {
  return `TMT-${String(n).padStart(6, '0')}`;
}

/** 'tmt-123', 'TMT000123' or '123' → 'TMT-000123'; anything else → null. */
export function normalizeShipmentCode(raw: string): string | null {
  const m = /^\s*(?:tmt-?)?(\d{1,10})\s*$/i.exec(raw);
  return m ? formatShipmentCode(Number(m[1])) : null;
}

export const SHIPMENT_MESSAGES = {
  notFound: 'Envío no encontrado.',
  forbidden: 'No tienes permiso para gestionar este envío.',
  notVisible: 'No tienes acceso a este envío.',
  originNotOwn: 'Solo puedes registrar envíos con origen en tu agencia.',
  createFailed: 'No se pudo crear el envío.',
  alreadyCancelled: 'El envío ya está anulado.',
  cannotCancelDelivered: 'No se puede anular un envío entregado.',
  cannotCancelInTransit: 'No se puede anular un envío en tránsito.',
  selectStatus: 'Selecciona un estado.',
  sameStatusNeedsNote: 'El estado es el mismo. Agrega una nota o elige otro estado.',
  deliveredOnlyByDelivery: 'El estado Entregado solo se registra al confirmar la entrega.',
  returnedOnlyByReturn: 'El estado Devuelto solo se registra al devolver el envío a su origen.',
  eventRequired: 'Ingresa una descripción del evento.',
  eventVisibility: "'Visible para el cliente' debe ser sí o no.",
  onlyManualEventsDeletable: 'Solo se pueden eliminar los eventos agregados manualmente.',
  eventNotFound: 'Evento no encontrado.',
  editOnlyCreated: 'Solo se puede editar un envío en estado Creado.',
  statusUpdated: 'Estado actualizado.',
  searchTermRequired: 'Ingresa un código, documento o nombre para buscar.',
  searchTermTooShort: 'Ingresa al menos 3 caracteres para buscar.',
  descriptionMissing: 'Indica la descripción (vacía o null para borrarla).',
  eventAdded: 'Evento agregado.',
  eventDeleted: 'Evento eliminado.',
  cancelled: 'Envío anulado.',
  /** Issue 30: a live payment or document stands on the shipment. */
  paidNotCancellable: 'Anula primero el pago del envío.',
  /** Issue 31: what was charged is what the shipment weighs, where it goes and what class it is. */
  paidNotRepriceable: 'El envío ya tiene un pago: anúlalo antes de cambiar peso, ruta o tipo.',
  originNotFound: 'La sucursal de origen no existe.',
  destinationNotFound: 'La sucursal de destino no existe.',
  senderNotFound: 'El remitente seleccionado no existe.',
  invalidRange: 'Rango de fechas inválido: "Desde" no puede ser posterior a "Hasta".',
  invalidDate: INVALID_DAY_MESSAGE,
} as const;

export const cannotCancelInStatus = (status: string) => `No se puede anular un envío en estado '${status}'`;
/** DESIGN.md section 5 and 5a: 'Entregado', 'Anulado' and 'Devuelto' are final; the history of a closed shipment is never rewritten. */
export const closedShipmentMessage = (status: string) => `El envío está '${status}': su historial, descripción y clave ya no cambian.`;
export function closedShipmentRefusal(status: string): string | null {
  return (FINAL_STATUSES as readonly string[]).includes(status) ? closedShipmentMessage(status) : null;
}

export const cannotLeaveStatus = (from: string, to: string) => `No se puede pasar de '${from}' a '${to}'.`;

/**
 * How a transition happens: 'manual' is the status select of the detail screen, 'trip' a transport's
 * departure or arrival, 'delivery' the secret-code handover, 'return' the return to the origin.
 */
export type TransitionVia = 'manual' | 'trip' | 'delivery' | 'return';

/**
 * DESIGN.md sections 5 and 5a, the one table of every status change: Creado → En tránsito → En
 * agencia → Entregado, forward only. Entregado is reached only by delivery (from Creado, En tránsito
 * or En agencia), Anulado only from Creado, Devuelto only by a return from En tránsito or En
 * agencia. Entregado, Anulado and Devuelto are final (no row leaves them).
 */
export const STATUS_TRANSITION_TABLE: readonly { from: ShipmentStatus; to: ShipmentStatus; via: readonly TransitionVia[] }[] = [
  { from: 'Creado', to: 'En tránsito', via: ['manual', 'trip'] },
  { from: 'Creado', to: 'Entregado', via: ['delivery'] },
  { from: 'Creado', to: 'Anulado', via: ['manual'] },
  { from: 'En tránsito', to: 'En agencia', via: ['manual', 'trip'] },
  { from: 'En tránsito', to: 'Entregado', via: ['delivery'] },
  { from: 'En tránsito', to: 'Devuelto', via: ['return'] },
  { from: 'En agencia', to: 'Entregado', via: ['delivery'] },
  { from: 'En agencia', to: 'Devuelto', via: ['return'] },
];

/** The table as 'from → the statuses it may reach' (by any way). */
const reachableFrom = (from: ShipmentStatus) => STATUS_TRANSITION_TABLE.filter((t) => t.from === from).map((t) => t.to);
export const SHIPMENT_TRANSITIONS: Readonly<Record<ShipmentStatus, readonly ShipmentStatus[]>> = {
  Creado: reachableFrom('Creado'),
  'En tránsito': reachableFrom('En tránsito'),
  'En agencia': reachableFrom('En agencia'),
  Entregado: reachableFrom('Entregado'),
  Anulado: reachableFrom('Anulado'),
  Devuelto: reachableFrom('Devuelto'),
};

/** True when the table has the edge from → to for this way of changing status. */
export function canTransition(from: ShipmentStatus, to: ShipmentStatus, via: TransitionVia): boolean {
  return STATUS_TRANSITION_TABLE.some((t) => t.from === from && t.to === to && t.via.includes(via));
}

/** The cancel refusal for a status, or null when cancelling is allowed (only from Creado). */
export function cancelRefusal(status: string): string | null {
  switch (status) {
    case 'Creado':
      return null;
    case 'Anulado':
      return SHIPMENT_MESSAGES.alreadyCancelled;
    case 'Entregado':
      return SHIPMENT_MESSAGES.cannotCancelDelivered;
    case 'En tránsito':
      return SHIPMENT_MESSAGES.cannotCancelInTransit;
    default:
      return cannotCancelInStatus(status);
  }
}

export type StatusChangeCheck =
  | { ok: true; sameStatus: boolean }
  /** `kind: 'input'` is a form error (400); `'rule'` a business refusal (422). */
  | { ok: false; kind: 'input' | 'rule'; message: string };

/**
 * A status change requested from the detail screen. The same status again is allowed with a note
 * (it becomes a history event, even on a final shipment: it changes nothing but the history).
 */
export function checkStatusChange(
  from: ShipmentStatus,
  to: string | null | undefined,
  note: string | null | undefined,
  via: TransitionVia = 'manual',
): StatusChangeCheck {
  if (!to || !isShipmentStatus(to)) return { ok: false, kind: 'input', message: SHIPMENT_MESSAGES.selectStatus };
  if (to === from) {
    return note?.trim() ? { ok: true, sameStatus: true } : { ok: false, kind: 'input', message: SHIPMENT_MESSAGES.sameStatusNeedsNote };
  }
  if (to === 'Anulado' && via === 'manual') {
    const refusal = cancelRefusal(from);
    return refusal ? { ok: false, kind: 'rule', message: refusal } : { ok: true, sameStatus: false };
  }
  if (to === 'Entregado' && via !== 'delivery') {
    return { ok: false, kind: 'rule', message: SHIPMENT_MESSAGES.deliveredOnlyByDelivery };
  }
  if (to === 'Devuelto' && via !== 'return' && SHIPMENT_TRANSITIONS[from].includes(to)) {
    return { ok: false, kind: 'rule', message: SHIPMENT_MESSAGES.returnedOnlyByReturn };
  }
  if (!canTransition(from, to, via)) return { ok: false, kind: 'rule', message: cannotLeaveStatus(from, to) };
  return { ok: true, sameStatus: false };
}

export type StatusTone = 'delivered' | 'atAgency' | 'inTransit' | 'returned' | 'cancelled' | 'created';

/**
 * Spec section 4: the chip colour comes from the status text (statuses of other flows like
 * 'En agencia' or 'Devuelto' colour right too). 'Anulado' joins the cancel family: shown in the
 * created style it would read as a live shipment.
 */
export function statusTone(status: string | null | undefined): StatusTone {
  const text = (status ?? '').toLowerCase();
  if (text.includes('entregado')) return 'delivered';
  if (text.includes('agencia')) return 'atAgency';
  if (text.includes('tránsito') || text.includes('transito')) return 'inTransit';
  if (text.includes('devuelto')) return 'returned';
  if (text.includes('cancel') || text.includes('anulado')) return 'cancelled';
  return 'created';
}

const LINE_WEIGHT_MAX_KG = 100_000;

/** A weight line as the form sends it; 0.01 kg steps, rounded to 2 decimals. */
export const shipmentLineInputSchema = z.object({
  productType: productTypeSchema,
  // A blank weight is an empty line of the form (0, filtered out before pricing).
  weightKg: z
    .preprocess((v) => (v === '' || v === null ? 0 : v), decimalNumber('Peso inválido'))
    .pipe(z.number().min(0, 'Peso inválido').max(LINE_WEIGHT_MAX_KG, 'Peso demasiado alto'))
    .transform((w) => Math.round(w * 100) / 100),
  // Issue 34: bultos, size, basis and article; absent, the line is charged by weight as the spec's.
  ...tariffLineFields,
});
export type ShipmentLineInput = z.output<typeof shipmentLineInputSchema>;

export const SECRET_CODE_PATTERN = /^[A-Za-z0-9._-]+$/;

export const secretCodeSchema = z
  .string({ error: 'Mínimo 4 caracteres' })
  .trim()
  .min(4, 'Mínimo 4 caracteres')
  .max(12, 'Máximo 12 caracteres')
  .regex(SECRET_CODE_PATTERN, 'Solo letras, números y - _ .');

export const shipmentDescriptionSchema = optionalText(500, { multiline: true });

const branchIdField = recordId;

/**
 * The form's lines, or for callers of the spec's payload `multiLineDetail`, or a single
 * `productType` + `weightKg`. Client prices in any of them are dropped: the API requotes.
 */
function linesFromPayload(value: unknown): unknown {
  if (!value || typeof value !== 'object') return recipientFromPayload(value);
  const v = recipientFromPayload(value) as Record<string, unknown>;
  if (v.lines !== undefined) return v;
  if (Array.isArray(v.multiLineDetail)) return { ...v, lines: v.multiLineDetail };
  if (v.weightKg !== undefined && v.productType !== undefined) {
    return { ...v, lines: [{ productType: v.productType, weightKg: v.weightKg }] };
  }
  return v;
}

/**
 * Spec section 7 sends the recipient as one `recipientName` (the full name); the form sends first
 * and last names. The full name is kept as sent; first and last come from it (first word, the rest)
 * when they were not sent.
 */
function recipientFromPayload(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const v = value as Record<string, unknown>;
  if (typeof v.recipientName !== 'string' || v.recipientFirstName !== undefined || v.recipientLastName !== undefined) return value;
  const [first = '', ...rest] = v.recipientName.trim().split(/\s+/);
  return { ...v, recipientFirstName: first, recipientLastName: rest.join(' ') };
}

const shipmentLinesSchema = z
  .array(shipmentLineInputSchema, { error: 'Agrega al menos una línea con peso mayor a 0.' })
  .max(50, 'Máximo 50 líneas')
  // Empty lines stay in the form (one is always kept) but carry nothing to price.
  .transform((lines) => lines.filter((l) => l.weightKg > 0))
  .refine((lines) => lines.length > 0, 'Agrega al menos una línea con peso mayor a 0.');

/** POST /quotes: what sets a shipment's price, the shipment's own fields (issue 34). */
export const tariffQuoteBodySchema = z.preprocess(
  linesFromPayload,
  z.object({ ...quoteBodyFields, lines: shipmentLinesSchema, ...tariffShipmentFields }),
);
export type TariffQuoteBody = z.output<typeof tariffQuoteBodySchema>;

const shipmentFields = {
  senderName: requiredText('Remitente requerido', 120),
  senderCustomerId: optionalRecordId('Remitente inválido'),
  recipientDoc: z
    .string({ error: 'DNI/RUC inválido' })
    .trim()
    .regex(/^\d*$/, 'DNI/RUC inválido')
    .min(6, 'DNI/RUC inválido')
    .max(15, 'DNI/RUC demasiado largo'),
  recipientFirstName: requiredText('Nombres requeridos'),
  recipientLastName: requiredText('Apellidos requeridos'),
  /** The full name as the spec's payload sends it (else first + last). */
  recipientName: optionalText(200),
  originBranchId: branchIdField('Seleccione origen'),
  destinationBranchId: branchIdField('Seleccione destino'),
  description: shipmentDescriptionSchema,
  lines: shipmentLinesSchema,
  ...tariffShipmentFields,
};

const differentBranches = {
  check: (v: { originBranchId: number; destinationBranchId: number }) => v.originBranchId !== v.destinationBranchId,
  params: { message: 'El origen y destino no pueden ser la misma sucursal.', path: ['destinationBranchId'] },
};

/** Where the recipient hears about the shipment (issue 18, notifications): both optional. */
const recipientContactFields = {
  recipientPhone: optionalText(20).pipe(
    z
      .string()
      .regex(/^\+?[\d\s()-]{6,20}$/, 'Teléfono inválido')
      .nullable(),
  ),
  recipientEmail: optionalText(120).pipe(z.email('Correo inválido').nullable()),
};

/** POST /shipments and the new-shipment form. */
export const newShipmentSchema = z.preprocess(
  linesFromPayload,
  z
    .object({ ...shipmentFields, ...recipientContactFields, ...whoPaysFields, secretCode: secretCodeSchema })
    .refine(differentBranches.check, differentBranches.params),
);
export type NewShipmentInput = z.input<typeof newShipmentSchema>;
export type NewShipment = z.output<typeof newShipmentSchema>;

/** PUT /shipments/{id}: the same form; the secret code is changed only when sent. */
export const shipmentUpdateSchema = z.preprocess(
  linesFromPayload,
  z
    .object({
      ...shipmentFields,
      secretCode: z.preprocess((v) => (v === '' || v === null ? undefined : v), secretCodeSchema.optional()),
    })
    .refine(differentBranches.check, differentBranches.params),
);
export type ShipmentUpdate = z.output<typeof shipmentUpdateSchema>;

export const statusChangeSchema = z.object({
  status: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(SHIPMENT_STATUSES, { error: SHIPMENT_MESSAGES.selectStatus })),
  note: optionalText(500, { multiline: true }),
});

export const checkpointSchema = z.object({
  name: requiredText(SHIPMENT_MESSAGES.eventRequired, 200),
  /** 'Visible para el cliente': shown on /seguimiento; left out, the event stays internal. */
  visibleToCustomer: z.boolean({ error: SHIPMENT_MESSAGES.eventVisibility }).default(false),
});

export const secretCodeChangeSchema = z.object({ secretCode: secretCodeSchema });
/**
 * A description change names the new description: a missing field is refused (a `{}` must not wipe
 * it); an explicit null or empty text clears it.
 */
export const descriptionChangeSchema = z.object({
  description: z
    .custom<string | null | undefined>((v) => v === null || typeof v === 'string', { error: SHIPMENT_MESSAGES.descriptionMissing })
    .pipe(shipmentDescriptionSchema),
});

/** A priced line as stored in multiLineDetail and returned by the API. */
export interface ShipmentLine {
  productType: ProductType;
  weightKg: number;
  billableWeightKg: number;
  factorPerKg: number;
  price: number;
  currency: string;
  /** null on a line charged by article. */
  tier: { from_kg: number; to_kg: number; factor_per_kg: number } | null;
  usingReverse: boolean;
  /** Issue 34; absent on lines stored before it (one package, by weight). */
  packages?: number;
  basis?: ChargeBasis;
  lengthCm?: number | null;
  widthCm?: number | null;
  heightCm?: number | null;
  volumetricKg?: number | null;
  chargeableKg?: number;
  articleId?: number | null;
  articleName?: string | null;
}

export interface LineTotals {
  weightKg: number;
  billableWeightKg: number;
  priceCents: Cents;
  price: number;
  productType: ProductType;
}

/**
 * Totals of the weight lines: weights summed in hundredths of a kg and prices in céntimos, so a
 * total never drifts (0.1 + 0.2 kg is 0.3 kg). Each line is billed on its own billable weight.
 */
export function totalLines(lines: readonly { productType: ProductType; weightKg: number; price?: number | null }[]): LineTotals {
  const hundredths = lines.reduce((acc, l) => acc + Math.round(l.weightKg * 100), 0);
  const priceCents = sumCents(lines.map((l) => (l.price == null ? 0 : toCents(l.price))));
  return {
    weightKg: hundredths / 100,
    billableWeightKg: lines.reduce((acc, l) => acc + billableWeightKg(l.weightKg), 0),
    priceCents,
    price: centsToNumber(priceCents),
    productType: dominantProductType(lines.map((l) => l.productType)),
  };
}

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const optionalBranchFilter = recordIdFilter('Sucursal inválida');
const optionalDay = z.preprocess(emptyToUndefined, z.string().refine(isIsoDay, SHIPMENT_MESSAGES.invalidDate).optional());

/**
 * Shorter terms match a large part of any table (every name holding 'ma') and cost a scan of it;
 * the list, the Panel and tracking ask for at least this many characters (issue 19).
 */
export const SHIPMENT_SEARCH_MIN_LENGTH = 3;

/** A search of shipments: trimmed, blank → undefined, at least SHIPMENT_SEARCH_MIN_LENGTH characters. */
export const shipmentSearchTerm = searchTerm(100).refine(
  (v) => v === undefined || v.length >= SHIPMENT_SEARCH_MIN_LENGTH,
  SHIPMENT_MESSAGES.searchTermTooShort,
);

const filterFields = {
  q: shipmentSearchTerm,
  status: z.preprocess(emptyToUndefined, z.enum(SHIPMENT_STATUSES, { error: 'Estado inválido' }).optional()),
  /** true: still moving (Creado, En tránsito); false: closed (Entregado, Anulado). */
  active: z.preprocess(
    (v) => (v === 'true' || v === '1' || v === true ? true : v === 'false' || v === '0' || v === false ? false : emptyToUndefined(v)),
    z.boolean({ error: 'Valor inválido' }).optional(),
  ),
  dateFrom: optionalDay,
  dateTo: optionalDay,
  originBranchId: optionalBranchFilter,
  destinationBranchId: optionalBranchFilter,
};

const validRange = {
  check: (v: { dateFrom?: string | undefined; dateTo?: string | undefined }) => !v.dateFrom || !v.dateTo || v.dateFrom <= v.dateTo,
  params: { message: SHIPMENT_MESSAGES.invalidRange, path: ['dateTo'] },
};

export const SHIPMENT_PAGE_SIZES = [5, 10, 25, 50] as const;
export const DASHBOARD_PAGE_SIZES = [8, 15, 25] as const;

/**
 * The Panel with a text search counts at most this many matches, the newest first: a common name
 * would otherwise make it count a good part of the table. Past it the counters and the chart are
 * those of the newest DASHBOARD_SEARCH_CAP matches and the total reads "más de" (issue 19).
 */
export const DASHBOARD_SEARCH_CAP = 1000;

/**
 * A list searching one word answers "más de" its count's cap without counting when the names'
 * statistics put the matches at this many times the cap or more: finding the cap's worth of matches
 * of a common word costs in proportion to the table (the index gathers every match), while a
 * sample of 30 000 rows or more is not off by a factor of five about a share that common (issue 19).
 */
export const SEARCH_FLOOR_MARGIN = 5;

/** GET /shipments and the list screen's address query. Any page size 1..100 (the Panel uses 8/15/25). */
export const shipmentListQuerySchema = z
  .object({
    ...filterFields,
    /** 'abierta': only shipments with an open incident (the Panel's counter links here). */
    incidencia: z.preprocess(emptyToUndefined, z.enum(['abierta'], { error: 'Filtro de incidencia inválido' }).optional()),
    page: z.preprocess(emptyToUndefined, pageNumber(PAGING_MESSAGES.invalidPage).default(1)),
    pageSize: z.preprocess(
      emptyToUndefined,
      pageNumber(PAGING_MESSAGES.invalidPageSize, { value: 100, message: 'Máximo 100 por página' }).default(10),
    ),
    ...keysetCursorFields,
  })
  .refine(validRange.check, validRange.params)
  .refine(keysetChecks.oneCursor.check, keysetChecks.oneCursor.params)
  .refine(keysetChecks.numbered(10).check, keysetChecks.numbered(10).params);
export type ShipmentListQuery = z.output<typeof shipmentListQuerySchema>;

/** GET /dashboard: the list filters without paging. */
export const dashboardQuerySchema = z.object(filterFields).refine(validRange.check, validRange.params);
export type DashboardQuery = z.output<typeof dashboardQuerySchema>;

export type ShipmentFilters = Omit<ShipmentListQuery, 'page' | 'pageSize' | 'after' | 'before'>;

/** What sets a shipment's price: its route, its lines and (issue 34) the tariff choices and the sender's discount. */
export interface PricingInputs {
  originBranchId: number;
  destinationBranchId: number;
  lines: readonly {
    productType: ProductType;
    weightKg: number;
    packages?: number;
    basis?: string;
    lengthCm?: number | null;
    widthCm?: number | null;
    heightCm?: number | null;
    articleId?: number | null;
  }[];
  senderCustomerId?: number | null;
  declaredValueCents?: Cents | null;
  insured?: boolean;
  surcharges?: readonly string[];
}

/**
 * Issue 31: an edit reprices a shipment only when it changes what sets the price; any other edit
 * (a description, a recipient) keeps the price charged at registration, whatever today's table says.
 */
export function pricingChanged(stored: PricingInputs, edited: PricingInputs): boolean {
  const hundredths = (kg: number) => Math.round(kg * 100);
  const lineKey = (l: PricingInputs['lines'][number]) =>
    [
      l.productType,
      hundredths(l.weightKg),
      l.packages ?? 1,
      l.basis ?? 'peso',
      l.lengthCm ?? null,
      l.widthCm ?? null,
      l.heightCm ?? null,
      l.articleId ?? null,
    ].join('|');
  const tariffKey = (p: PricingInputs) =>
    [p.senderCustomerId ?? null, p.declaredValueCents ?? null, p.insured ?? false, [...new Set(p.surcharges ?? [])].sort().join(',')].join('|');
  return (
    stored.originBranchId !== edited.originBranchId ||
    stored.destinationBranchId !== edited.destinationBranchId ||
    stored.lines.length !== edited.lines.length ||
    stored.lines.some((line, i) => lineKey(line) !== lineKey(edited.lines[i]!)) ||
    tariffKey(stored) !== tariffKey(edited)
  );
}
