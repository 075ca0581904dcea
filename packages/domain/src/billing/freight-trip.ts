import { z } from 'zod';
import { centsToString, type Cents } from '../money.ts';
import { bigToCents, decimalPlaces, parseDecimal } from './amounts.ts';

/*
 * The trip a freight detracción factura (operation 1004, SPOT 027) declares (SUNAT.md "Detracción"):
 * origin and destination ubigeo and address, the trip detail, and the three reference values of the
 * MTC table (servicio de transporte, carga efectiva, carga útil nominal). UBL writes it on every line
 * (`cac:Delivery`, three `cac:DeliveryTerms`); Nubefact takes one per document, in eight fields named
 * as the payload's `viaje` is. SUNAT refuses a 1004 factura without the origin (3116) or without a
 * reference value (3124 to 3126); Nubefact limits addresses and the detail to 100 characters.
 */

export const FREIGHT_TRIP_TEXT_MAX = 100;

export const freightTripSchema = z.object({
  ubigeo_origen: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .default(''),
  direccion_origen: z.string().trim().default(''),
  ubigeo_destino: z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .default(''),
  direccion_destino: z.string().trim().default(''),
  detalle_viaje: z.string().trim().default(''),
  val_ref_serv_trans: z.union([z.number(), z.string()]).nullish(),
  val_ref_carga_efec: z.union([z.number(), z.string()]).nullish(),
  val_ref_carga_util: z.union([z.number(), z.string()]).nullish(),
});
export type FreightTripInput = z.input<typeof freightTripSchema>;

/** The checked trip: reference values in céntimos. */
export interface FreightTrip {
  originUbigeo: string;
  originAddress: string;
  destinationUbigeo: string;
  destinationAddress: string;
  detail: string;
  serviceReferenceCents: Cents;
  effectiveLoadReferenceCents: Cents;
  nominalLoadReferenceCents: Cents;
}

export const FREIGHT_TRIP_MESSAGES = {
  originUbigeo: 'Viaje: el ubigeo de origen debe tener 6 dígitos (SUNAT 3116).',
  originAddress: `Viaje: la dirección de origen es obligatoria (hasta ${FREIGHT_TRIP_TEXT_MAX} caracteres).`,
  destinationUbigeo: 'Viaje: el ubigeo de destino debe tener 6 dígitos.',
  destinationAddress: `Viaje: la dirección de destino es obligatoria (hasta ${FREIGHT_TRIP_TEXT_MAX} caracteres).`,
  detail: `Viaje: el detalle del viaje es obligatorio (hasta ${FREIGHT_TRIP_TEXT_MAX} caracteres).`,
  serviceReference: 'Viaje: el valor referencial del servicio de transporte debe ser mayor que 0, con hasta 2 decimales (SUNAT 3124).',
  effectiveLoadReference: 'Viaje: el valor referencial de la carga efectiva debe ser mayor que 0, con hasta 2 decimales (SUNAT 3125).',
  nominalLoadReference: 'Viaje: el valor referencial de la carga útil nominal debe ser mayor que 0, con hasta 2 decimales (SUNAT 3126).',
  referenceValueMismatch: (service: string) =>
    `Detracción: el valor referencial debe ser el del servicio de transporte del viaje (S/ ${service}) o quedar vacío.`,
} as const;

const UBIGEO = /^\d{6}$/;

function referenceCents(value: string | number | null | undefined): Cents | null {
  if (value === null || value === undefined || value === '') return null;
  const parsed = parseDecimal(value);
  if (!parsed || !parsed.gt(0) || decimalPlaces(parsed) > 2) return null;
  return bigToCents(parsed);
}

const text = (value: string) => value !== '' && value.length <= FREIGHT_TRIP_TEXT_MAX;

/**
 * Every rule the trip of a freight detracción factura breaks, as 'Corrige:' lines, or the checked
 * trip. A detracción factura without any trip is refused too: every missing part is named (SUNAT
 * answers 3116 and 3124 to 3126 to the same factura).
 */
export function checkFreightTrip(sent: z.output<typeof freightTripSchema> | null | undefined, problems: string[]): FreightTrip | null {
  const input = sent ?? freightTripSchema.parse({});
  const before = problems.length;
  if (!UBIGEO.test(input.ubigeo_origen)) problems.push(FREIGHT_TRIP_MESSAGES.originUbigeo);
  if (!text(input.direccion_origen)) problems.push(FREIGHT_TRIP_MESSAGES.originAddress);
  if (!UBIGEO.test(input.ubigeo_destino)) problems.push(FREIGHT_TRIP_MESSAGES.destinationUbigeo);
  if (!text(input.direccion_destino)) problems.push(FREIGHT_TRIP_MESSAGES.destinationAddress);
  if (!text(input.detalle_viaje)) problems.push(FREIGHT_TRIP_MESSAGES.detail);
  const service = referenceCents(input.val_ref_serv_trans);
  if (service === null) problems.push(FREIGHT_TRIP_MESSAGES.serviceReference);
  const effective = referenceCents(input.val_ref_carga_efec);
  if (effective === null) problems.push(FREIGHT_TRIP_MESSAGES.effectiveLoadReference);
  const nominal = referenceCents(input.val_ref_carga_util);
  if (nominal === null) problems.push(FREIGHT_TRIP_MESSAGES.nominalLoadReference);
  if (problems.length > before || service === null || effective === null || nominal === null) return null;
  return {
    originUbigeo: input.ubigeo_origen,
    originAddress: input.direccion_origen,
    destinationUbigeo: input.ubigeo_destino,
    destinationAddress: input.direccion_destino,
    detail: input.detalle_viaje,
    serviceReferenceCents: service,
    effectiveLoadReferenceCents: effective,
    nominalLoadReferenceCents: nominal,
  };
}

/** The trip as the printed factura and the register describe it. */
export function freightTripText(trip: FreightTrip): string {
  return (
    `Viaje: ${trip.detail}. Origen ${trip.originUbigeo} ${trip.originAddress}; destino ${trip.destinationUbigeo} ${trip.destinationAddress}. ` +
    `Valores referenciales: servicio S/ ${centsToString(trip.serviceReferenceCents)}, carga efectiva S/ ${centsToString(trip.effectiveLoadReferenceCents)}, ` +
    `carga útil nominal S/ ${centsToString(trip.nominalLoadReferenceCents)}.`
  );
}

/**
 * A route's reference values (valor referencial, D.S. 010-2006-MTC and its updated tables): the
 * value of the transport service per TM on the route, and the loads of the vehicle that usually
 * runs it, in TM: the effective load (carga efectiva, what it actually carries) and the nominal
 * payload (carga útil nominal of its vehicle configuration). See docs/sunat-rules.md.
 */
export interface RouteReferenceConfig {
  servicePerTmCents: Cents;
  /** Decimal text, TM, up to 2 decimals. */
  effectiveLoadTm: string;
  nominalLoadTm: string;
}

/** The three reference values a 1004 factura declares, in céntimos. */
export interface TripReferenceValues {
  serviceCents: Cents;
  effectiveLoadCents: Cents;
  nominalLoadCents: Cents;
}

/**
 * The route's three reference values: per TM × effective load, per TM × nominal payload, and the
 * service's, which is the greater of the two (the detracción's base is never below it), each rounded
 * half up to the céntimo. Null when the configuration is incomplete.
 */
export function routeReferenceValues(config: RouteReferenceConfig): TripReferenceValues | null {
  const effective = parseDecimal(config.effectiveLoadTm);
  const nominal = parseDecimal(config.nominalLoadTm);
  if (!effective || !nominal || !effective.gt(0) || !nominal.gt(0) || config.servicePerTmCents <= 0) return null;
  const effectiveLoadCents = bigToCents(effective.times(config.servicePerTmCents).div(100));
  const nominalLoadCents = bigToCents(nominal.times(config.servicePerTmCents).div(100));
  return { serviceCents: Math.max(effectiveLoadCents, nominalLoadCents), effectiveLoadCents, nominalLoadCents };
}

export const ROUTE_REFERENCE_MESSAGES = {
  servicePerTm: 'El valor referencial por TM debe ser un importe mayor que 0, con hasta 2 decimales.',
  effectiveLoad: 'La carga efectiva (TM) debe ser mayor que 0, con hasta 2 decimales.',
  nominalLoad: 'La carga útil nominal (TM) debe ser mayor que 0, con hasta 2 decimales.',
  effectiveAboveNominal: 'La carga efectiva no puede superar la carga útil nominal del vehículo.',
  sameBranch: 'El origen y el destino de la ruta deben ser sucursales distintas.',
} as const;

/** `PUT /pricing/reference-values`: one route's configuration (amounts and loads as decimals). */
export const routeReferenceInputSchema = z.object({
  originBranchId: z.number().int().positive(),
  destinationBranchId: z.number().int().positive(),
  servicePerTm: z.union([z.number(), z.string()]),
  effectiveLoadTm: z.union([z.number(), z.string()]),
  nominalLoadTm: z.union([z.number(), z.string()]),
});
export type RouteReferenceInput = z.input<typeof routeReferenceInputSchema>;

/** The problems of a route's configuration, or the configuration to store. */
export function checkRouteReference(
  input: z.output<typeof routeReferenceInputSchema>,
): { ok: true; config: RouteReferenceConfig } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const decimal2 = (v: string | number) => {
    const parsed = parseDecimal(v);
    return parsed && parsed.gt(0) && decimalPlaces(parsed) <= 2 ? parsed : null;
  };
  const perTm = decimal2(input.servicePerTm);
  const effective = decimal2(input.effectiveLoadTm);
  const nominal = decimal2(input.nominalLoadTm);
  if (input.originBranchId === input.destinationBranchId) problems.push(ROUTE_REFERENCE_MESSAGES.sameBranch);
  if (!perTm) problems.push(ROUTE_REFERENCE_MESSAGES.servicePerTm);
  if (!effective) problems.push(ROUTE_REFERENCE_MESSAGES.effectiveLoad);
  if (!nominal) problems.push(ROUTE_REFERENCE_MESSAGES.nominalLoad);
  if (effective && nominal && effective.gt(nominal)) problems.push(ROUTE_REFERENCE_MESSAGES.effectiveAboveNominal);
  if (problems.length > 0 || !perTm || !effective || !nominal) return { ok: false, problems };
  return { ok: true, config: { servicePerTmCents: bigToCents(perTm), effectiveLoadTm: effective.toFixed(2), nominalLoadTm: nominal.toFixed(2) } };
}

/** `GET /pricing/reference-values`: every configured route with its three computed reference values (S/). */
export const routeReferenceAnswerSchema = z.object({
  originBranchId: z.number().int(),
  destinationBranchId: z.number().int(),
  originName: z.string(),
  destinationName: z.string(),
  servicePerTm: z.number(),
  effectiveLoadTm: z.number(),
  nominalLoadTm: z.number(),
  service: z.number(),
  effectiveLoad: z.number(),
  nominalLoad: z.number(),
});
export type RouteReferenceAnswer = z.infer<typeof routeReferenceAnswerSchema>;
