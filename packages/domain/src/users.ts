import { z } from 'zod';
import { ROLES } from './roles.ts';
import { normalizeUsername, optionalRecordId, optionalText, usernameRule } from './primitives.ts';

export const userSchema = z.object({
  username: z
    .string({ error: 'Usuario es obligatorio' })
    .transform(normalizeUsername)
    .pipe(usernameRule(z.string().min(1, { message: 'Usuario es obligatorio', abort: true }))),
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
  branchId: optionalRecordId('Sucursal inválida'),
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
  /** In the users list: until when wrong passwords lock the user out of login (issue 31), null = not locked. */
  lockedUntil?: string | null;
}

export function displayName(u: { firstName?: string | null; lastName?: string | null; username: string }): string {
  const full = [u.firstName, u.lastName].filter(Boolean).join(' ').trim();
  return full || u.username;
}
