import { eq, sql } from 'drizzle-orm';
import { AUTH_MESSAGES, loginWaitMessage, normalizeUsername, type ChangePasswordInput, type LoginInput } from '@tramo/domain';
import { users } from '../../db/schema.ts';
import { badRequest, tooManyRequests, unauthorized, unprocessable } from '../../lib/errors.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { audit } from '../../lib/audit.ts';
import { loadSessionUser, signToken } from '../../plugins/auth.ts';
import { sessionChanged } from '../../plugins/session-cache.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';
import { toUserDto } from '../users/index.ts';
import { countAttempt, countSuccess, throttleKeys } from './throttle.ts';

// Verifying against a fixed hash when the user does not exist keeps the answer time the same,
// so timing does not tell which usernames exist.
let decoyHash: Promise<string> | null = null;
const decoy = () => (decoyHash ??= hashPassword('tramo-decoy-password'));

export async function login(ctx: ServiceContext, input: LoginInput, ip: string) {
  const username = normalizeUsername(input.username);
  const keys = throttleKeys(username, ip);
  const verdict = await countAttempt(ctx.db, keys, ctx.now());
  if (verdict.kind === 'locked') throw tooManyRequests(AUTH_MESSAGES.throttled, 'LOGIN_THROTTLED');
  if (verdict.kind === 'wait') throw tooManyRequests(loginWaitMessage(verdict.seconds), 'LOGIN_SLOWED', verdict.seconds);

  const [row] = await ctx.db.select({ id: users.id, passwordHash: users.passwordHash }).from(users).where(eq(users.username, username));
  const ok = await verifyPassword(row?.passwordHash ?? (await decoy()), input.password);
  if (!row || !ok) throw unauthorized(AUTH_MESSAGES.badCredentials);
  await countSuccess(ctx.db, keys);
  const user = await loadSessionUser(ctx, row.id);
  if (!user) throw unauthorized(AUTH_MESSAGES.badCredentials);
  return { user: toUserDto(user), token: signToken(ctx, user) };
}

/**
 * Sets a new password, clears the must-change flag and bumps the token version, which revokes
 * every other session; the caller gets a fresh token for this one.
 */
export async function changePassword(ctx: ServiceContext, me: SessionUser, input: ChangePasswordInput) {
  const [row] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, me.id));
  if (!row) throw unauthorized(AUTH_MESSAGES.sessionExpired);
  if (!me.mustChangePassword) {
    if (!input.currentPassword) {
      throw badRequest(AUTH_MESSAGES.currentRequired, { currentPassword: AUTH_MESSAGES.currentRequired });
    }
    if (!(await verifyPassword(row.passwordHash, input.currentPassword))) {
      throw unprocessable(AUTH_MESSAGES.currentWrong, { currentPassword: AUTH_MESSAGES.currentWrong });
    }
  }
  if (await verifyPassword(row.passwordHash, input.newPassword)) {
    throw unprocessable(AUTH_MESSAGES.samePassword, { newPassword: AUTH_MESSAGES.samePassword });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash, mustChangePassword: false, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: ctx.now() })
      .where(eq(users.id, me.id));
    await audit(tx, { userId: me.id, entity: 'user', entityId: me.id, action: 'change-password' });
    await sessionChanged(tx, me.id);
  });
  ctx.sessions.evict(me.id);
  const user = await loadSessionUser(ctx, me.id);
  if (!user) throw unauthorized(AUTH_MESSAGES.sessionExpired);
  return { user: toUserDto(user), token: signToken(ctx, user) };
}
