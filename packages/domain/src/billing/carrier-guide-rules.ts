import type { GuideDraft } from './guides.ts';

/*
 * What SUNAT's GRE transportista validation (ValidaExprRegGreTransportista, and validation 3617 in
 * force since 1 June 2026) refuses or observes in a carrier guide that Tramo's form lets through:
 * the sandbox answers a GRE-T with the first of these as SUNAT would, code and Spanish hint, and
 * the carrier guide's review warns about the same before anything is numbered. Kept here, per
 * guide, until billing has one code → hint map for every document.
 */
export const CARRIER_GUIDE_SUNAT_HINTS = {
  '2566': 'Falta la placa del vehículo principal.',
  '3357': 'Falta el conductor principal (con su licencia).',
  '3617': 'Falta la fecha de entrega de los bienes al transportista (obligatoria desde el 01/06/2026).',
  '4389': 'La guía admite hasta 2 vehículos secundarios.',
  '4376': 'La guía admite hasta 2 conductores secundarios.',
  '4391': 'Falta el número de registro MTC del transportista: indícalo en Configuración › Empresa.',
  '4399': 'Falta la TUC o el Certificado de Habilitación Vehicular del vehículo principal: indícalo en Transportes.',
} as const;
export type CarrierGuideSunatCode = keyof typeof CARRIER_GUIDE_SUNAT_HINTS;

export interface SunatProblem {
  code: CarrierGuideSunatCode;
  hint: string;
}

type CarrierGuideFields = Pick<GuideDraft, 'plate' | 'driver' | 'secondaryPlates' | 'secondaryDrivers'> &
  Partial<Pick<GuideDraft, 'mtcRegistration' | 'vehicleTuc' | 'goodsDeliveredOn'>>;

/** SUNAT's objections to a GRE-T, in the order SUNAT checks them (empty: nothing to object). */
export function carrierGuideSunatProblems(g: CarrierGuideFields): SunatProblem[] {
  const codes: CarrierGuideSunatCode[] = [];
  if (!g.mtcRegistration) codes.push('4391');
  if (!g.plate) codes.push('2566');
  else if (!g.vehicleTuc) codes.push('4399');
  if (g.secondaryPlates.length > 2) codes.push('4389');
  if (!g.driver) codes.push('3357');
  if (g.secondaryDrivers.length > 2) codes.push('4376');
  if (!g.goodsDeliveredOn) codes.push('3617');
  return codes.map((code) => ({ code, hint: CARRIER_GUIDE_SUNAT_HINTS[code] }));
}
