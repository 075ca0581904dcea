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
});
export type BranchInput = z.input<typeof branchSchema>;

export interface Branch {
  id: number;
  name: string;
  city: string | null;
  address: string | null;
}

export const BRANCH_MESSAGES = {
  duplicate: 'Ya existe una sucursal con este nombre/ciudad.',
  notFound: 'Sucursal no encontrada.',
  inUseByUsers: 'No se puede eliminar la sucursal: tiene usuarios asignados.',
  inUse: 'No se puede eliminar la sucursal: tiene registros asociados.',
} as const;
