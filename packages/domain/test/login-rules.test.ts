import { describe, expect, it } from 'vitest';
import { loginSchema } from '../src/auth.ts';
import { loginFieldProblem } from '../src/login-rules.ts';

/** The light /login page checks fields with loginFieldProblem; it must say what the schema the API runs says. */
describe('loginFieldProblem', () => {
  const usernames = ['', 'ab', ' ab ', 'abc', 'AGENTE1', 'ab$cd', 'a b c', 'x'.repeat(32), 'x'.repeat(33), 'ñandú', 'A.B_C-D'];
  const passwords = ['', '12345', '123456', 'x'.repeat(128), 'x'.repeat(129)];

  it.each(usernames)('username %j: the first message of loginSchema, or none', (username) => {
    const parsed = loginSchema.safeParse({ username, password: 'valida123' });
    const expected = parsed.success ? null : (parsed.error.issues.find((i) => i.path[0] === 'username')?.message ?? null);
    expect(loginFieldProblem('username', username)).toBe(expected);
  });

  it.each(passwords)('password of %# characters: the first message of loginSchema, or none', (password) => {
    const parsed = loginSchema.safeParse({ username: 'AGENTE1', password });
    const expected = parsed.success ? null : (parsed.error.issues.find((i) => i.path[0] === 'password')?.message ?? null);
    expect(loginFieldProblem('password', password)).toBe(expected);
  });

  it("says the spec's words", () => {
    expect(loginFieldProblem('username', 'ab')).toBe('Mínimo 3 caracteres');
    expect(loginFieldProblem('username', 'ab$cd')).toBe('Sólo letras, números, . _ -');
    expect(loginFieldProblem('password', '123')).toBe('Mínimo 6 caracteres');
  });
});
