import { z } from 'zod';
import { ROLES } from './roles.ts';
import { SHIPMENT_STATUSES } from './shipments.ts';
import { shipmentLinkSchema } from './returns.ts';
import { PRODUCT_TYPES } from './pricing.ts';
import { PAYERS, PAYMENT_MOMENTS } from './who-pays.ts';
import { TRANSPORT_STATUSES, VEHICLE_TYPES } from './fleet.ts';
import { DOC_TYPES } from './customers.ts';
import { CHARGE_BASES } from './tariffs.ts';
import { priceComponentAnswerSchema } from './tariff-fields.ts';

/**
 * The API's answers as zod schemas: the routes declare them (Fastify serializes with them, the
 * OpenAPI document shows them) and the web infers its types from them. An answer carries exactly
 * these keys: a field missing here never leaves the server.
 */

const isoDateTime = z.string();
const isoDay = z.string();
const productType = z.enum(PRODUCT_TYPES);

/** Every refusal: `{ error, code, fields? }`, Spanish `error`, `fields` by form field. */
export const errorAnswerSchema = z.object({
  error: z.string(),
  code: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorAnswer = z.infer<typeof errorAnswerSchema>;

/** `{ items, total, page, pageSize }` of a paged list. */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number(), page: z.number(), pageSize: z.number() });

/** What a large list's page adds (shipments, movements, payments, documents): a capped count and keyset cursors. */
export const keysetPageFields = {
  /** `total` is a lower bound: there are more (the count stopped there). */
  totalCapped: z.boolean().optional(),
  /** Cursor of the next page (further down the list), null at the end; pass it as `after`. */
  next: z.string().nullable().optional(),
  /** Cursor of the previous page (further up the list), null at the start; pass it as `before`. */
  prev: z.string().nullable().optional(),
};

// ---- shipments -------------------------------------------------------------------------------

const tierAnswer = z.object({ from_kg: z.number(), to_kg: z.number(), factor_per_kg: z.number() });

export const shipmentLineAnswerSchema = z.object({
  productType,
  weightKg: z.number(),
  billableWeightKg: z.number(),
  factorPerKg: z.number(),
  price: z.number(),
  currency: z.string(),
  tier: tierAnswer.nullable(),
  usingReverse: z.boolean(),
  // Issue 34: absent on lines stored before it.
  packages: z.number().optional(),
  basis: z.enum(CHARGE_BASES).optional(),
  lengthCm: z.number().nullable().optional(),
  widthCm: z.number().nullable().optional(),
  heightCm: z.number().nullable().optional(),
  volumetricKg: z.number().nullable().optional(),
  chargeableKg: z.number().optional(),
  articleId: z.number().nullable().optional(),
  articleName: z.string().nullable().optional(),
});

export const shipmentEventSchema = z.object({
  id: z.number(),
  name: z.string(),
  at: isoDateTime,
  userName: z.string().nullable(),
  /** 'status', 'cancel', 'edit', 'secret', 'description' are the shipment's record; only 'event' is deletable. */
  kind: z.string(),
  note: z.string().nullable(),
  statusFrom: z.string().nullable(),
  statusTo: z.string().nullable(),
  /** A staff event marked 'visible para el cliente' (issue #38): the public timeline shows it. */
  visibleToCustomer: z.boolean(),
});
export type ShipmentEvent = z.infer<typeof shipmentEventSchema>;

export const deliveredInfoSchema = z.object({
  receiverName: z.string().optional(),
  receiverDoc: z.string().optional(),
  deliveredByName: z.string().optional(),
  deliveredAt: z.string().optional(),
  notes: z.string().nullable().optional(),
  /** Proof of delivery stored (issue 18): the images themselves come from GET /shipments/{id}/proof. */
  hasPhoto: z.boolean().optional(),
  hasSignature: z.boolean().optional(),
});

const branchRef = z.object({ name: z.string(), city: z.string().nullable() });

/** A shipment as the list answers it (spec section 3 plus the caller's permissions). */
export const shipmentListRowSchema = z.object({
  id: z.number(),
  code: z.string(),
  status: z.enum(SHIPMENT_STATUSES),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  createdByName: z.string().nullable(),
  originBranchId: z.number(),
  destinationBranchId: z.number(),
  originBranch: branchRef,
  destinationBranch: branchRef,
  senderCustomerId: z.number().nullable(),
  senderName: z.string(),
  recipientFirstName: z.string(),
  recipientLastName: z.string(),
  recipientName: z.string(),
  recipientDoc: z.string(),
  productType,
  weightKg: z.number(),
  billableWeightKg: z.number(),
  description: z.string().nullable(),
  quotedPrice: z.number(),
  quotedCurrency: z.string(),
  quotedFactorPerKg: z.number(),
  usingReverse: z.boolean(),
  multiLineDetail: z.array(shipmentLineAnswerSchema).nullable(),
  /** Issue 34: the stored breakdown (null before it), declared value in soles, insurance, surcharge codes. */
  priceComponents: z.array(priceComponentAnswerSchema).nullable().optional(),
  declaredValue: z.number().nullable().optional(),
  insured: z.boolean().optional(),
  surcharges: z.array(z.string()).optional(),
  deliveredInfo: deliveredInfoSchema.nullable(),
  /** Who pays the freight and when (issue 33); a third party's document and name, else null. */
  payer: z.enum(PAYERS),
  paymentMoment: z.enum(PAYMENT_MOMENTS),
  payerDocType: z.number().nullable(),
  payerDocNumber: z.string().nullable(),
  payerName: z.string().nullable(),
  payerCustomerId: z.number().nullable(),
  canManage: z.boolean().optional(),
  canEdit: z.boolean().optional(),
});
export type ShipmentListRow = z.infer<typeof shipmentListRowSchema>;

/**
 * GET /shipments/search (tracking and Entregas): no more than those screens show — code, recipient,
 * document, route, status, date. Every branch's staff can search, so prices, sender and the caller's
 * permissions stay out; opening a result asks /shipments/code/{code}, which applies the usual rules.
 */
export const shipmentSearchRowSchema = shipmentListRowSchema.pick({
  id: true,
  code: true,
  status: true,
  createdAt: true,
  originBranch: true,
  destinationBranch: true,
  recipientName: true,
  recipientDoc: true,
});
export type ShipmentSearchRow = z.infer<typeof shipmentSearchRowSchema>;

/** GET /shipments/{id}: the row plus its history. */
export const shipmentSchema = shipmentListRowSchema.extend({
  checkpoints: z.array(shipmentEventSchema).optional(),
  /** This shipment is the return leg of that one (DESIGN.md 5a). */
  returnOf: shipmentLinkSchema.nullable().optional(),
  /** This shipment was returned to its origin as that one. */
  returnedAs: shipmentLinkSchema.nullable().optional(),
  /** Its freight has a paid payment (issue 33: what pago en destino still owes, and whether delivery waits). */
  freightPaid: z.boolean().optional(),
});
export type Shipment = z.infer<typeof shipmentSchema>;

/** POST /shipments/{id}/return: the original, now 'Devuelto', and its return leg. */
export const returnAnswerSchema = z.object({ original: shipmentSchema, returnShipment: shipmentSchema });
export type ReturnAnswer = z.infer<typeof returnAnswerSchema>;

export const shipmentPageSchema = pageSchema(shipmentListRowSchema).extend(keysetPageFields);
export type ShipmentPage = z.infer<typeof shipmentPageSchema>;

const statusCounts = z.object(
  Object.fromEntries(SHIPMENT_STATUSES.map((s) => [s, z.number()])) as Record<(typeof SHIPMENT_STATUSES)[number], z.ZodNumber>,
);

export const dashboardSchema = z.object({
  dateFrom: isoDay,
  dateTo: isoDay,
  bucket: z.enum(['day', 'week', 'month', 'year']),
  counters: statusCounts.extend({ total: z.number() }),
  /**
   * With a text search matching more than DASHBOARD_SEARCH_CAP shipments: counters and series are
   * those of the newest DASHBOARD_SEARCH_CAP matches, and there are more.
   */
  totalCapped: z.boolean().optional(),
  series: z.array(z.object({ day: isoDay, total: z.number(), byStatus: statusCounts })),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

// ---- people and places -----------------------------------------------------------------------

/** A user as the API answers it: never a hash. */
export const userAnswerSchema = z.object({
  id: z.number(),
  username: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  name: z.string(),
  email: z.string().nullable(),
  role: z.enum(ROLES),
  branchId: z.number().nullable(),
  branchName: z.string().nullable(),
  mustChangePassword: z.boolean(),
  /** In the users list: until when wrong passwords lock the user out of login (issue 31), null = not locked. */
  lockedUntil: z.string().nullable().optional(),
});
export const createdUserSchema = z.object({ user: userAnswerSchema, tempPassword: z.string() });
export const tempPasswordSchema = z.object({ tempPassword: z.string() });
export const sessionSchema = z.object({ user: userAnswerSchema, token: z.string() });

export const branchAnswerSchema = z.object({
  id: z.number(),
  name: z.string(),
  city: z.string().nullable(),
  address: z.string().nullable(),
  /** INEI ubigeo (6 digits) and SUNAT establishment code (4 digits): where a dispatch guide starts or ends. */
  ubigeo: z.string().nullable().optional(),
  establishmentCode: z.string().optional(),
});

export const customerAnswerSchema = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string().nullable(),
  doc_type: z.union(DOC_TYPES.map((d) => z.literal(d))),
  doc_number: z.string(),
  dni: z.string(),
  address: z.string().nullable(),
  ubigeo: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
});
export const customerPageSchema = pageSchema(customerAnswerSchema);

export const lookupAnswerSchema = z.object({
  docType: z.enum(['dni', 'ruc']),
  docNumber: z.string(),
  name: z.string(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  address: z.string().optional(),
  ubigeo: z.string().optional(),
  estado: z.string().optional(),
  condicion: z.string().optional(),
  source: z.string(),
});

export const healthSchema = z.object({
  status: z.literal('ok'),
  db: z.string(),
  demo: z.boolean(),
  /** PUBLIC_URL: the origin of the public tracking links (labels' QR, messages); null = the server's own. */
  publicUrl: z.string().nullable(),
});

// ---- fleet -----------------------------------------------------------------------------------

const driverRef = z.object({ id: z.number(), full_name: z.string() });

export const driverAnswerSchema = z.object({
  id: z.number(),
  full_name: z.string(),
  dni: z.string(),
  license_number: z.string(),
  license_class: z.string().nullable(),
  license_expires_on: z.string().nullable(),
  phone: z.string().nullable(),
  note: z.string().nullable(),
});

export const transportAnswerSchema = z.object({
  id: z.number(),
  plate_primary: z.string(),
  plate_secondary: z.string().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  capacity_kg: z.number().nullable(),
  net_weight_kg: z.number().nullable(),
  status: z.enum(TRANSPORT_STATUSES),
  route: z.string().nullable(),
  origin_branch_id: z.number().nullable(),
  destination_branch_id: z.number().nullable(),
  driver_id_1: z.number().nullable(),
  driver_id_2: z.number().nullable(),
  driver1: driverRef.nullable(),
  driver2: driverRef.nullable(),
  vehicle_type: z.enum(VEHICLE_TYPES),
  tuc_number: z.string().nullable(),
  configuration: z.string().nullable(),
  payload_kg: z.number().nullable(),
  axles: z.number().nullable(),
  trailer_id: z.number().nullable(),
  trailer_plate: z.string().nullable(),
  loaded_count: z.number(),
  loaded_weight_kg: z.number(),
});
export const transportPageSchema = pageSchema(transportAnswerSchema);

export const transportLoadSchema = z.object({
  items: z.array(
    z.object({
      id: z.number(),
      shipmentId: z.number(),
      code: z.string(),
      status: z.string(),
      createdAt: isoDateTime,
      loaded_at: isoDateTime,
      senderName: z.string(),
      recipientName: z.string(),
      recipientDoc: z.string(),
      weightKg: z.number(),
      billableWeightKg: z.number().optional(),
      destinationName: z.string().optional(),
      /** The live carrier guide (GRE-T) the shipment travels under: its id in the register and 'VVV1-00000003'; null when none. */
      guideId: z.number().nullable().optional(),
      guideNumber: z.string().nullable().optional(),
    }),
  ),
  totalWeightKg: z.number(),
  /** Sum of the billable (whole-kg) weights: what the load is charged on. */
  totalBillableWeightKg: z.number().optional(),
  capacityKg: z.number().nullable(),
  netWeightKg: z.number().nullable().optional(),
});

export const loadableShipmentSchema = z.object({
  id: z.number(),
  code: z.string(),
  createdAt: isoDateTime,
  senderName: z.string(),
  recipientName: z.string(),
  recipientDoc: z.string(),
  weightKg: z.number(),
  originName: z.string(),
  destinationName: z.string(),
});

export type DriverRef = z.infer<typeof driverRef>;
export type Driver = z.infer<typeof driverAnswerSchema>;
export type Transport = z.infer<typeof transportAnswerSchema>;
export type TransportLoad = z.infer<typeof transportLoadSchema>;
/** One package on a load; its `id` is the assignment id (what DELETE /transports/{id}/assignments/{assignmentId} takes). */
export type LoadedShipment = TransportLoad['items'][number];
export type LoadableShipment = z.infer<typeof loadableShipmentSchema>;

// ---- pricing and deliveries ------------------------------------------------------------------

export const quoteAnswerSchema = z.object({
  price: z.number(),
  currency: z.string(),
  factorPerKg: z.number(),
  tier: tierAnswer,
  billableWeightKg: z.number(),
  usingReverse: z.boolean(),
});

const weightTierAnswer = tierAnswer.extend({ sort_order: z.number() });

export const weightFactorTableSchema = z.object({
  id: z.number(),
  origin_branch_id: z.number(),
  destination_branch_id: z.number(),
  origin_name: z.string(),
  destination_name: z.string(),
  product_type: productType,
  name: z.string(),
  currency: z.string(),
  active: z.boolean(),
  tiers: z.array(weightTierAnswer),
});

export const weightFactorSummarySchema = z.object({
  id: z.number(),
  origin_branch_id: z.number(),
  destination_branch_id: z.number(),
  origin_name: z.string(),
  destination_name: z.string(),
  product_type: productType,
  name: z.string(),
  currency: z.string(),
  tier_count: z.number(),
  min_kg: z.number().nullable(),
  max_kg: z.number().nullable(),
  price_1kg: z.number().nullable(),
  price_10kg: z.number().nullable(),
});

export const deliveryAgentSchema = z.object({
  id: z.number(),
  username: z.string().nullable(),
  name: z.string().nullable(),
  role: z.enum(['agent', 'courier']),
  branchId: z.number().nullable(),
  branchName: z.string().nullable(),
});

/** Declares a route's answers: its 2xx schemas, and the error shape for every 4xx/5xx. */
export function answers<T extends Record<number, z.ZodType>>(ok: T) {
  return { ...ok, '4xx': errorAnswerSchema, '5xx': errorAnswerSchema };
}

/** GET /shipments/{id}/assignment: the transport a shipment is on, or null. */
export const shipmentAssignmentSchema = z
  .object({
    id: z.number(),
    assignmentId: z.number(),
    plate_primary: z.string(),
    plate_secondary: z.string().nullable(),
    status: z.enum(TRANSPORT_STATUSES),
    route: z.string().nullable(),
    driver1: driverRef.nullable(),
    driver2: driverRef.nullable(),
    loaded_at: isoDateTime,
  })
  .nullable();
/** What /shipments/{id} shows: the transport a shipment is loaded on. */
export type ShipmentAssignment = NonNullable<z.infer<typeof shipmentAssignmentSchema>>;

/** A 204: nothing in the body. */
export const noContentSchema = z.null().describe('Sin contenido');
