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
 * Every rule a trip that was sent breaks, as 'Corrige:' lines, or the checked trip. A detracción
 * without one still passes (null) until the invoice form and 'Facturar envíos' can fill it.
 */
export function checkFreightTrip(input: z.output<typeof freightTripSchema> | null | undefined, problems: string[]): FreightTrip | null {
  if (!input) return null;
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
