import { z } from 'zod';
import { ROLES } from './roles.ts';
import { USERNAME_PATTERN } from './auth.ts';

/** Usernames are stored as an uppercase code without spaces: ' agente 1' → 'AGENTE1'. */
export function normalizeUsername(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Máximo ${max} caracteres`)
    .nullish()
    .transform((v) => (v ? v : null));

export const userSchema = z.object({
  username: z
    .string({ error: 'Usuario es obligatorio' })
    .transform(normalizeUsername)
    .pipe(
      z
        .string()
        .min(1, { message: 'Usuario es obligatorio', abort: true })
        .min(3, 'Mínimo 3 caracteres')
        .max(32, 'Máximo 32 caracteres')
        .regex(USERNAME_PATTERN, 'Sólo letras, números, . _ -'),
    ),
  role: z.enum(ROLES, { error: 'Rol es obligatorio' }),
  firstName: optionalText(80),
  lastName: optionalText(80),
  email: z
    .string()
    .trim()
    .max(120, 'Máximo 120 caracteres')
    .nullish()
    .transform((v) => (v ? v : null))
    .pipe(z.email('Correo inválido').nullable()),
  branchId: z.coerce
    .number()
    .int()
    .positive('Sucursal inválida')
    .nullish()
    .transform((v) => v ?? null),
  mustChangePassword: z.boolean().optional(),
});
export type UserInput = z.input<typeof userSchema>;
export type UserData = z.output<typeof userSchema>;

export const USER_MESSAGES = {
  duplicate: 'Username ya registrado',
  duplicateLive: 'Ya existe un usuario con este código.',
  notFound: 'Usuario no encontrado.',
  cannotDeleteSelf: 'No puedes eliminar tu propio usuario.',
  // Resetting your own password would revoke the very session that has to show the temporary one.
  cannotResetSelf: 'No puedes restablecer tu propia contraseña; usa Cambiar contraseña.',
  lastAdmin: 'Debe quedar al menos un administrador.',
  branchNotFound: 'La sucursal seleccionada no existe.',
  inUse: 'No se puede eliminar el usuario: tiene registros asociados.',
  branchRequired: 'Los agentes y repartidores deben tener una sucursal.',
} as const;

/** A user as the API returns it. */
export interface User {
  id: number;
  username: string;
  firstName: string | null;
  lastName: string | null;
  name: string;
  email: string | null;
  role: (typeof ROLES)[number];
  branchId: number | null;
  branchName: string | null;
  mustChangePassword: boolean;
}

export function displayName(u: { firstName?: string | null; lastName?: string | null; username: string }): string {
  const full = [u.firstName, u.lastName].filter(Boolean).join(' ').trim();
  return full || u.username;
}
