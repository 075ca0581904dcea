import { z } from 'zod';

import { LOGIN_FIELD_MESSAGES, PASSWORD_MAX, PASSWORD_MIN } from './login-rules.ts';
import { isCleanText, PRIMITIVE_MESSAGES, usernameRule } from './primitives.ts';

export const usernameField = usernameRule(z.string().trim());

export const passwordField = z
  .string()
  .min(PASSWORD_MIN, LOGIN_FIELD_MESSAGES.passwordMin)
  .max(PASSWORD_MAX, LOGIN_FIELD_MESSAGES.passwordMax)
  .refine((v) => isCleanText(v), PRIMITIVE_MESSAGES.controlChars);

export const loginSchema = z.object({
  username: usernameField,
  password: passwordField,
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The form: confirm must match, current only when the user is not flagged must-change. */
export function changePasswordFormSchema(requireCurrent: boolean) {
  return z
    .object({
      currentPassword: requireCurrent ? passwordField : z.string().optional(),
      newPassword: passwordField,
      confirmPassword: passwordField,
    })
    .refine((v) => v.newPassword === v.confirmPassword, {
      message: 'Las contraseñas no coinciden',
      path: ['confirmPassword'],
    });
}
export type ChangePasswordForm = z.infer<ReturnType<typeof changePasswordFormSchema>>;

/** What travels to POST /auth/change-password. */
export const changePasswordSchema = z.object({
  currentPassword: passwordField.optional(),
  newPassword: passwordField,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const AUTH_MESSAGES = {
  badCredentials: 'Usuario o contraseña incorrectos.',
  throttled: 'Demasiados intentos fallidos. Intenta nuevamente en 15 minutos.',
  currentRequired: 'Ingresa tu contraseña actual.',
  currentWrong: 'La contraseña actual no es correcta.',
  samePassword: 'La nueva contraseña debe ser distinta de la actual.',
  sessionExpired: 'Tu sesión expiró. Ingresa nuevamente.',
  mustChange: 'Debes cambiar tu contraseña antes de continuar.',
  forbidden: 'No tienes permiso para esta sección.',
  changeFailed: 'No se pudo cambiar la contraseña',
} as const;

/**
 * Login throttling inside a 15-minute window: 10 failures lock a username; a client address gets
 * more room because a whole branch's counter PCs may share one public address.
 */
export const LOGIN_THROTTLE = {
  maxFailuresPerUser: 10,
  maxFailuresPerAddress: 30,
  windowMinutes: 15,
  delayFromFailures: 3,
  maxDelaySeconds: 60,
} as const;

/**
 * Issue 31, F9: before they lock, a username's failures slow it down. From the 3rd failure in a
 * row the next attempt waits 1 s after the last one, then 2, 4, 8… (at most 60 s), so a guesser
 * gets a handful of tries a minute while its owner, mistyping twice, is not held up.
 */
export function loginDelaySeconds(failures: number): number {
  if (failures < LOGIN_THROTTLE.delayFromFailures) return 0;
  return Math.min(2 ** (failures - LOGIN_THROTTLE.delayFromFailures), LOGIN_THROTTLE.maxDelaySeconds);
}

export const loginWaitMessage = (seconds: number) => `Demasiados intentos. Espera ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}.`;
