import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyJwt from '@fastify/jwt';
import { eq } from 'drizzle-orm';
import { AUTH_MESSAGES, isRole, type Role } from '@tramo/domain';
import { branches, users } from '../db/schema.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import type { SessionUser } from '../types.ts';

interface TokenClaims {
  sub: number;
  /** The user's token version when signed; a bump (password change, reset) revokes the token. */
  tv: number;
}

export interface GuardOptions {
  roles?: readonly Role[];
  /** Only the session endpoints stay usable while the user must still change the password. */
  allowMustChange?: boolean;
}

export async function loadSessionUser(app: FastifyInstance, id: number): Promise<SessionUser | null> {
  const [row] = await app.db
    .select({
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
      branchId: users.branchId,
      branchName: branches.name,
      mustChangePassword: users.mustChangePassword,
      tokenVersion: users.tokenVersion,
    })
    .from(users)
    .leftJoin(branches, eq(branches.id, users.branchId))
    .where(eq(users.id, id));
  if (!row || !isRole(row.role)) return null;
  return { ...row, role: row.role };
}

export async function registerAuth(app: FastifyInstance, secret: string) {
  await app.register(fastifyJwt, {
    secret,
    sign: { algorithm: 'HS256', expiresIn: app.config.tokenTtlSeconds },
    verify: { algorithms: ['HS256'] },
  });
  app.decorateRequest('sessionUser', null);
}

export function signToken(app: FastifyInstance, user: Pick<SessionUser, 'id' | 'tokenVersion'>): string {
  const claims: TokenClaims = { sub: user.id, tv: user.tokenVersion };
  return app.jwt.sign(claims, { clockTimestamp: app.now().getTime() });
}

/** preHandler: a valid, unrevoked bearer token; optionally one of `roles`. */
export function guard(app: FastifyInstance, options: GuardOptions = {}) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
    if (!token) throw unauthorized('No autorizado');
    let claims: TokenClaims;
    try {
      claims = app.jwt.verify<TokenClaims>(token, { clockTimestamp: app.now().getTime() });
    } catch {
      throw unauthorized(AUTH_MESSAGES.sessionExpired);
    }
    const user = await loadSessionUser(app, Number(claims.sub));
    if (!user || user.tokenVersion !== claims.tv) throw unauthorized(AUTH_MESSAGES.sessionExpired);
    request.sessionUser = user;
    if (user.mustChangePassword && !options.allowMustChange) {
      throw forbidden(AUTH_MESSAGES.mustChange, 'MUST_CHANGE_PASSWORD');
    }
    if (options.roles && !options.roles.includes(user.role)) throw forbidden(AUTH_MESSAGES.forbidden);
  };
}
