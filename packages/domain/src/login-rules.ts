/**
 * The login fields' rules (spec section 5) with no dependency: the light /login page (apps/web/src/public)
 * checks a field when it is left without downloading zod, and the schemas in auth.ts and primitives.ts
 * are built from the same numbers and words.
 */

export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

export const LOGIN_FIELD_MESSAGES = {
  usernameMin: `Mínimo ${USERNAME_MIN} caracteres`,
  usernameMax: `Máximo ${USERNAME_MAX} caracteres`,
  usernamePattern: 'Sólo letras, números, . _ -',
  passwordMin: `Mínimo ${PASSWORD_MIN} caracteres`,
  passwordMax: `Máximo ${PASSWORD_MAX} caracteres`,
} as const;

/** The first rule a login field breaks, in the order loginSchema reports them; null when it breaks none. */
export function loginFieldProblem(field: 'username' | 'password', raw: string): string | null {
  if (field === 'password') {
    if (raw.length < PASSWORD_MIN) return LOGIN_FIELD_MESSAGES.passwordMin;
    return raw.length > PASSWORD_MAX ? LOGIN_FIELD_MESSAGES.passwordMax : null;
  }
  const value = raw.trim();
  if (value.length < USERNAME_MIN) return LOGIN_FIELD_MESSAGES.usernameMin;
  if (value.length > USERNAME_MAX) return LOGIN_FIELD_MESSAGES.usernameMax;
  return USERNAME_PATTERN.test(value) ? null : LOGIN_FIELD_MESSAGES.usernamePattern;
}
