import { z } from 'zod';
import { isCleanText, optionalText, PRIMITIVE_MESSAGES } from './primitives.ts';

export const branchSchema = z.object({
  name: z
    .string({ error: 'Nombre es obligatorio' })
    .trim()
    .min(1, { message: 'Nombre es obligatorio', abort: true })
    .min(2, 'Mínimo 2 caracteres')
    .max(80, 'Máximo 80 caracteres')
    .refine((v) => isCleanText(v), PRIMITIVE_MESSAGES.controlChars),
  city: optionalText(80),
  address: optionalText(200),
  /** INEI ubigeo of the district (6 digits), the origin/destination of a dispatch guide; blank clears it, absent keeps it. */
  ubigeo: z
    .string()
    .trim()
    .transform((v) => (v === '' ? null : v))
    .refine((v) => v === null || /^\d{6}$/.test(v), 'El ubigeo debe tener 6 dígitos.')
    .nullish(),
  /** SUNAT establishment code (anexo, 4 digits; '0000' the fiscal address); absent keeps it. */
  establishmentCode: z
    .string()
    .trim()
    .regex(/^\d{4}$/, 'El código de establecimiento SUNAT debe tener 4 dígitos.')
    .optional(),
});
export type BranchInput = z.input<typeof branchSchema>;

export interface Branch {
  id: number;
  name: string;
  city: string | null;
  address: string | null;
  ubigeo?: string | null;
  establishmentCode?: string;
}

export const BRANCH_MESSAGES = {
  duplicate: 'Ya existe una sucursal con este nombre/ciudad.',
  notFound: 'Sucursal no encontrada.',
  inUseByUsers: 'No se puede eliminar la sucursal: tiene usuarios asignados.',
  inUse: 'No se puede eliminar la sucursal: tiene registros asociados.',
} as const;
