import { z } from 'zod';
import { isCleanText, optionalText, PRIMITIVE_MESSAGES } from './primitives.ts';

/** SUNAT catalogue 06, the identity documents a customer may have. */
export const DOC_TYPES = [1, 4, 6, 7] as const;
export type DocType = (typeof DOC_TYPES)[number];

export const DOC_TYPE_LABELS: Record<DocType, string> = {
  1: 'DNI',
  4: 'Carné de extranjería',
  6: 'RUC',
  7: 'Pasaporte',
};

/** Short labels for tables (spec section 9: 1 DNI, 4 CE, 6 RUC, 7 PAS). */
export const DOC_TYPE_SHORT: Record<DocType, string> = { 1: 'DNI', 4: 'CE', 6: 'RUC', 7: 'PAS' };

/** Longest document number each type accepts; the form caps its input at this length. */
export const DOC_MAX_LENGTH: Record<DocType, number> = { 1: 8, 4: 15, 6: 11, 7: 15 };

export const RUC_PREFIXES = ['10', '15', '17', '20'] as const;
const RUC_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2] as const;

export const CUSTOMER_MESSAGES = {
  firstNameRequired: 'Nombres es obligatorio',
  docTypeRequired: 'Tipo de documento es obligatorio',
  docTypeInvalid: 'Tipo de documento inválido',
  docNumberRequired: 'Número de documento es obligatorio',
  digitsOnly: 'Solo se permiten dígitos',
  dniLength: 'DNI debe tener 8 dígitos',
  rucLength: 'RUC debe tener 11 dígitos',
  rucPrefix: 'RUC inválido: debe empezar con 10, 15, 17 o 20',
  rucCheckDigit: 'RUC inválido: el dígito verificador no corresponde',
  ubigeo: 'Ubigeo debe tener 6 dígitos',
  phone: 'Teléfono inválido',
  email: 'Correo inválido',
  /** What the API answers for a taken (doc_type, doc_number). */
  duplicate: 'Documento ya registrado para otro cliente.',
  /** What the form shows for it (spec section 8). */
  duplicateForm: 'Ya existe un cliente con este documento.',
  notFound: 'Cliente no encontrado.',
  inUse: 'No se puede eliminar el cliente: tiene envíos u otros registros asociados.',
  lookupNotFound: 'No se encontraron datos para este documento.',
  lookupUnavailable: 'El servicio de consulta DNI/RUC no está disponible. Complete los datos a mano.',
  lookupTimeout: 'El servicio de consulta DNI/RUC no respondió a tiempo. Complete los datos a mano.',
} as const;

export function isDocType(value: unknown): value is DocType {
  return typeof value === 'number' && (DOC_TYPES as readonly number[]).includes(value);
}

/** The SUNAT modulo-11 check digit of the first ten digits of a RUC. */
export function rucCheckDigit(firstTen: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += Number(firstTen[i]) * RUC_WEIGHTS[i]!;
  const r = 11 - (sum % 11);
  return r === 10 ? 0 : r === 11 ? 1 : r;
}

export function rucError(ruc: string): string | null {
  if (!/^\d*$/.test(ruc)) return CUSTOMER_MESSAGES.digitsOnly;
  if (ruc.length !== 11) return CUSTOMER_MESSAGES.rucLength;
  if (!(RUC_PREFIXES as readonly string[]).includes(ruc.slice(0, 2))) return CUSTOMER_MESSAGES.rucPrefix;
  if (rucCheckDigit(ruc) !== Number(ruc[10])) return CUSTOMER_MESSAGES.rucCheckDigit;
  return null;
}

export const isValidRuc = (ruc: string) => rucError(ruc) === null;

export function dniError(dni: string): string | null {
  if (!/^\d*$/.test(dni)) return CUSTOMER_MESSAGES.digitsOnly;
  if (dni.length !== 8) return CUSTOMER_MESSAGES.dniLength;
  return null;
}

/** Every document rule of spec section 5 for one (type, number); null when the number is acceptable. */
export function documentError(docType: DocType, docNumber: string): string | null {
  if (docNumber === '') return CUSTOMER_MESSAGES.docNumberRequired;
  if (!/^\d+$/.test(docNumber)) return CUSTOMER_MESSAGES.digitsOnly;
  if (docType === 1) return dniError(docNumber);
  if (docType === 6) return rucError(docNumber);
  const max = DOC_MAX_LENGTH[docType];
  return docNumber.length > max ? `Máximo ${max} dígitos` : null;
}

const docTypeField = z.union([z.number(), z.string()], { error: CUSTOMER_MESSAGES.docTypeRequired }).transform((raw, ctx): DocType => {
  if (typeof raw === 'string' && raw.trim() === '') {
    ctx.addIssue({ code: 'custom', message: CUSTOMER_MESSAGES.docTypeRequired });
    return z.NEVER;
  }
  const code = Number(raw);
  if (!isDocType(code)) {
    ctx.addIssue({ code: 'custom', message: CUSTOMER_MESSAGES.docTypeInvalid });
    return z.NEVER;
  }
  return code;
});

export const customerSchema = z
  .object({
    firstName: z
      .string({ error: CUSTOMER_MESSAGES.firstNameRequired })
      .trim()
      .min(1, CUSTOMER_MESSAGES.firstNameRequired)
      .max(150, 'Máximo 150 caracteres')
      .refine((v) => isCleanText(v), PRIMITIVE_MESSAGES.controlChars),
    lastName: optionalText(100),
    doc_type: docTypeField,
    doc_number: z
      .string({ error: CUSTOMER_MESSAGES.docNumberRequired })
      .trim()
      .min(1, CUSTOMER_MESSAGES.docNumberRequired)
      .regex(/^\d+$/, CUSTOMER_MESSAGES.digitsOnly)
      .max(15, 'Máximo 15 dígitos'),
    address: optionalText(200),
    ubigeo: optionalText(6).pipe(
      z
        .string()
        .regex(/^\d{6}$/, CUSTOMER_MESSAGES.ubigeo)
        .nullable(),
    ),
    phone: optionalText(20).pipe(
      z
        .string()
        .regex(/^\+?[\d\s()-]{6,20}$/, CUSTOMER_MESSAGES.phone)
        .nullable(),
    ),
    email: optionalText(120).pipe(z.email(CUSTOMER_MESSAGES.email).nullable()),
  })
  .superRefine(
    (c, ctx) => {
      const message = documentError(c.doc_type, c.doc_number);
      if (message) ctx.addIssue({ code: 'custom', path: ['doc_number'], message });
    },
    {
      // Checked as soon as both document fields are readable, so the form shows it with the others.
      when: (payload) => {
        const v = payload.value as { doc_type?: unknown; doc_number?: unknown };
        return isDocType(v?.doc_type) && typeof v?.doc_number === 'string' && /^\d+$/.test(v.doc_number);
      },
    },
  );

export type CustomerInput = z.input<typeof customerSchema>;
export type CustomerData = z.output<typeof customerSchema>;

/** A customer as the API returns it (spec section 3; `dni` repeats the document number). */
export interface Customer {
  id: number;
  firstName: string;
  lastName: string | null;
  doc_type: DocType;
  doc_number: string;
  dni: string;
  address: string | null;
  ubigeo: string | null;
  phone: string | null;
  email: string | null;
}

export function customerName(c: { firstName: string; lastName?: string | null }): string {
  return [c.firstName, c.lastName].filter(Boolean).join(' ');
}

/** `DNI 45871236`, `RUC 20100070970`. */
export function customerDocument(c: { doc_type: DocType; doc_number: string }): string {
  return `${DOC_TYPE_SHORT[c.doc_type]} ${c.doc_number}`;
}

/** The normalised answer of GET /lookup/dni/{n} and /lookup/ruc/{n}, whatever the provider. */
export interface LookupResult {
  docType: 'dni' | 'ruc';
  docNumber: string;
  name: string;
  firstName?: string;
  lastName?: string;
  address?: string;
  ubigeo?: string;
  estado?: string;
  condicion?: string;
  source: string;
}

/** SUNAT flags a taxpayer one should not invoice without checking: not ACTIVO or not HABIDO. */
export function rucNeedsAttention(r: Pick<LookupResult, 'estado' | 'condicion'>): boolean {
  return (!!r.estado && r.estado.toUpperCase() !== 'ACTIVO') || (!!r.condicion && r.condicion.toUpperCase() !== 'HABIDO');
}
