import { describe, expect, it } from 'vitest';
import {
  branchSchema,
  changePasswordFormSchema,
  isIsoDay,
  limaDay,
  limaDayEnd,
  limaDayStart,
  loginDelaySeconds,
  loginSchema,
  loginWaitMessage,
  menuFor,
  normalizeUsername,
  userSchema,
} from '../src/index.ts';

/** The first message per field, as the form and the API show it. */
function messages(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[issue.path.join('.')] ??= issue.message;
  return out;
}

describe('login rules (spec section 5)', () => {
  it('trims the username and accepts letters, digits, . _ -', () => {
    expect(loginSchema.parse({ username: '  agente_1.x-y ', password: '123456' }).username).toBe('agente_1.x-y');
  });
  it.each([
    [{ username: 'ab', password: '123456' }, { username: 'Mínimo 3 caracteres' }],
    [{ username: 'a'.repeat(33), password: '123456' }, { username: 'Máximo 32 caracteres' }],
    [{ username: 'ana maría', password: '123456' }, { username: 'Sólo letras, números, . _ -' }],
    [{ username: 'ANA', password: '12345' }, { password: 'Mínimo 6 caracteres' }],
  ])('%j → %j', (input, expected) => {
    expect(messages(loginSchema.safeParse(input))).toEqual(expected);
  });
});

describe('change password rules', () => {
  it('asks for the current password only when required', () => {
    const withCurrent = changePasswordFormSchema(true);
    expect(messages(withCurrent.safeParse({ currentPassword: '', newPassword: 'nuevo1', confirmPassword: 'nuevo1' }))).toEqual({
      currentPassword: 'Mínimo 6 caracteres',
    });
    const flagged = changePasswordFormSchema(false);
    expect(flagged.safeParse({ newPassword: 'nuevo1', confirmPassword: 'nuevo1' }).success).toBe(true);
  });
  it('needs matching passwords of at least 6', () => {
    const schema = changePasswordFormSchema(false);
    expect(messages(schema.safeParse({ newPassword: 'nuevo1', confirmPassword: 'nuevo2' }))).toEqual({
      confirmPassword: 'Las contraseñas no coinciden',
    });
    expect(messages(schema.safeParse({ newPassword: '123', confirmPassword: '123' }))).toEqual({
      newPassword: 'Mínimo 6 caracteres',
      confirmPassword: 'Mínimo 6 caracteres',
    });
  });
});

describe('user rules', () => {
  it('stores the username uppercase without spaces', () => {
    expect(normalizeUsername(' agente  dos ')).toBe('AGENTEDOS');
    expect(userSchema.parse({ username: 'caja 1', role: 'agent', branchId: 2 })).toMatchObject({ username: 'CAJA1', branchId: 2 });
  });
  it.each([
    [{ role: 'agent' }, { username: 'Usuario es obligatorio' }],
    [{ username: '', role: 'agent' }, { username: 'Usuario es obligatorio' }],
    [{ username: 'a b', role: 'agent' }, { username: 'Mínimo 3 caracteres' }],
    [{ username: 'PEPE' }, { role: 'Rol es obligatorio' }],
    [{ username: 'PEPE', role: 'gerente' }, { role: 'Rol es obligatorio' }],
  ])('%j → %j', (input, expected) => {
    expect(messages(userSchema.safeParse(input))).toEqual(expected);
  });
  it('blank optional fields become null', () => {
    expect(userSchema.parse({ username: 'PEPE', role: 'admin', email: ' ', firstName: '' })).toMatchObject({
      email: null,
      firstName: null,
      branchId: null,
    });
    expect(messages(userSchema.safeParse({ username: 'PEPE', role: 'admin', email: 'no-es-correo' }))).toEqual({ email: 'Correo inválido' });
  });
});

describe('branch rules', () => {
  it.each([
    [{}, { name: 'Nombre es obligatorio' }],
    [{ name: '   ' }, { name: 'Nombre es obligatorio' }],
    [{ name: 'A' }, { name: 'Mínimo 2 caracteres' }],
  ])('%j → %j', (input, expected) => {
    expect(messages(branchSchema.safeParse(input))).toEqual(expected);
  });
  it('trims and nulls the optional fields', () => {
    expect(branchSchema.parse({ name: ' Ica ', city: '', address: ' Av. Grau 1 ' })).toEqual({ name: 'Ica', city: null, address: 'Av. Grau 1' });
  });
});

describe('menu by role (spec section 2)', () => {
  it('admin sees everything, agent no Sucursales/Usuarios, courier the four operational entries', () => {
    expect(menuFor('admin')).toHaveLength(18);
    expect(menuFor('agent').map((m) => m.label)).not.toContain('Usuarios');
    expect(menuFor('agent').map((m) => m.label)).not.toContain('Sucursales');
    expect(menuFor('courier').map((m) => m.label)).toEqual(['Panel', 'Envíos', 'Entregas', 'Rastreo']);
  });
  it('a user without a known role is a guest with no entries', () => {
    expect(menuFor(null)).toEqual([]);
    expect(menuFor('cajero')).toEqual([]);
  });
});

describe('Lima calendar days', () => {
  it('a Lima day runs from 05:00 UTC to 05:00 UTC the next day', () => {
    expect(limaDayStart('2026-11-22').toISOString()).toBe('2026-11-22T05:00:00.000Z');
    expect(limaDayEnd('2026-11-22').toISOString()).toBe('2026-11-23T05:00:00.000Z');
    expect(limaDay(new Date('2026-11-23T04:59:59Z'))).toBe('2026-11-22');
    expect(limaDay(new Date('2026-11-23T05:00:00Z'))).toBe('2026-11-23');
  });
  it('validates YYYY-MM-DD strictly', () => {
    expect(isIsoDay('2026-02-28')).toBe(true);
    expect(isIsoDay('2026-02-30')).toBe(false);
    expect(isIsoDay('22/11/2026')).toBe(false);
  });
});

describe('loginDelaySeconds: the wait repeated wrong passwords earn (issue 31)', () => {
  it('none for the first two failures, then 1 s doubling up to 60 s', () => {
    expect([0, 1, 2, 3, 4, 5, 8, 9, 10, 30].map(loginDelaySeconds)).toEqual([0, 0, 0, 1, 2, 4, 32, 60, 60, 60]);
    expect(loginWaitMessage(1)).toBe('Demasiados intentos. Espera 1 segundo.');
    expect(loginWaitMessage(8)).toBe('Demasiados intentos. Espera 8 segundos.');
  });
});
