/*
 * SUNAT's answer codes Tramo can meet, each with the Spanish explanation of how to fix it at the
 * counter. One map for both paths: the sandbox answers a document SUNAT would refuse with the code
 * and this explanation, and the Nubefact adapter turns a real rejection (a SUNAT code in its answer,
 * or the field its error 20 names) into the same words. docs/sunat-rules.md lists each code with the
 * test that covers it.
 */

export const SUNAT_HINTS: Readonly<Record<string, string>> = {
  '1001':
    'La serie debe tener 4 caracteres: F o B seguida de 3 letras o números (FFF1, BBB1), o 4 dígitos en contingencia. Corrige la serie y emite de nuevo.',
  '1036':
    'El archivo XML debe llamarse con el mismo número que el comprobante (cbc:ID), sin ceros a la izquierda. Descarga el XML desde el registro.',
  '2119': 'El documento que modifica la nota no está en SUNAT: elige en el registro un comprobante aceptado del cliente.',
  '2120': 'El documento que modifica la nota está anulado: no se le emiten notas de crédito.',
  '2121': 'El documento que modifica la nota fue rechazado por SUNAT: no se le emiten notas; emite un comprobante nuevo.',
  '2800':
    'El tipo de documento del cliente no corresponde al comprobante: una factura va a un RUC; una boleta, a un DNI, carné de extranjería, pasaporte o sin documento.',
  '3116':
    'Falta el origen del viaje de la detracción de transporte de carga: completa el ubigeo (6 dígitos) y la dirección de origen en el bloque Detracción.',
  '3124': 'Falta el valor referencial del servicio de transporte: configúralo en la ruta o escríbelo en el bloque Detracción.',
  '3125': 'Falta el valor referencial de la carga efectiva: configúralo en la ruta o escríbelo en el bloque Detracción.',
  '3126': 'Falta el valor referencial de la carga útil nominal: configúralo en la ruta o escríbelo en el bloque Detracción.',
  '3265': 'La suma de las cuotas debe ser exactamente el monto pendiente de pago (total menos detracción): ajusta los importes de las cuotas.',
  '3267': 'Cada cuota debe vencer después de la fecha de emisión: corrige las fechas de pago.',
  'direccion-cliente': 'La factura requiere la dirección del cliente: búscala por su RUC o escríbela en el bloque Cliente.',
};

/** The explanation of a SUNAT code (or Tramo's key for a Nubefact-only rule), or null when Tramo has none. */
export function sunatHint(code: string | null | undefined): string | null {
  if (!code) return null;
  return SUNAT_HINTS[code.trim()] ?? null;
}

/** SUNAT's description followed by how to fix it, when the code is one Tramo explains. */
export function explainSunatAnswer(code: string | null | undefined, description: string | null): string | null {
  const hint = sunatHint(code);
  if (!hint) return description;
  const said = description?.trim() ? `${description.trim().replace(/\.$/, '')} (SUNAT ${code}). ` : `SUNAT ${code}: `;
  return `${said}Cómo corregirlo: ${hint}`;
}

/** The Nubefact fields whose refusal is one of SUNAT's rules above. */
const FIELD_CODES: readonly (readonly [RegExp, string])[] = [
  [/\bubigeo_origen\b|\bdireccion_origen\b/, '3116'],
  [/\bval_ref_serv_trans\b/, '3124'],
  [/\bval_ref_carga_efec\b/, '3125'],
  [/\bval_ref_carga_util\b/, '3126'],
  [/\bcliente_direccion\b/, 'direccion-cliente'],
  [/\bserie\b.*\b4\b|\bserie\b.*caracteres/i, '1001'],
  [/\bventa_al_credito\b.*(suma|total)|(suma|total).*\bventa_al_credito\b/i, '3265'],
  [/\bfecha_de_pago\b/, '3267'],
];

/**
 * The codes a provider's error text points at: SUNAT codes written in it ('3116', 'código 2119',
 * 'ERROR 3265'), then the Nubefact fields it names; each once, in that order.
 */
export function sunatCodesIn(text: string): string[] {
  const codes: string[] = [];
  for (const m of text.matchAll(/\b(\d{4})\b/g)) if (SUNAT_HINTS[m[1]!] && !codes.includes(m[1]!)) codes.push(m[1]!);
  for (const [pattern, code] of FIELD_CODES) if (pattern.test(text) && !codes.includes(code)) codes.push(code);
  return codes;
}

/** A provider's error text followed by the explanation of every rule it points at (unchanged when none). */
export function explainProviderError(text: string): string {
  const hints = sunatCodesIn(text).map((code) => SUNAT_HINTS[code]!);
  return hints.length === 0 ? text : `${text.trim().replace(/\.$/, '')}. Cómo corregirlo: ${hints.join(' ')}`;
}
