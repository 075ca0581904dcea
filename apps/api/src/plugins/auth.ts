import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createSigner, createVerifier } from 'fast-jwt';
import { eq } from 'drizzle-orm';
import { AUTH_MESSAGES, isRole, type Role } from '@tramo/domain';
import { branches, users } from '../db/schema.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import type { SessionUser } from '../types.ts';

export interface TokenClaims {
  sub: number;
  /** The user's token version when signed; a bump (password change, reset) revokes the token. */
  tv: number;
}

export interface GuardOptions {
  roles?: readonly Role[];
  /** Only the session endpoints stay usable while the user must still change the password. */
  allowMustChange?: boolean;
}

export async function loadSessionUser(app: Pick<FastifyInstance, 'db'>, id: number): Promise<SessionUser | null> {
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

/** Signs and checks the session tokens (HS256, with the app's secret). */
export interface SessionTokens {
  sign(claims: TokenClaims): string;
  /** The claims of a valid token; throws on a bad signature or algorithm, no expiry, an expired or not yet valid token. */
  verify(token: string): TokenClaims;
}

/** A bound on the memory the verified tokens hold. */
const MAX_VERIFIED = 10_000;

/**
 * fast-jwt straight, not through @fastify/jwt, which built a new verifier (key object, decoder,
 * merged options) on every check that passed options, and our checks must pass the clock: the
 * app's own, which tests move. So the verifier is built once and checks the signature, the
 * algorithm and that an expiry is there; the times are checked here against `app.now()` as
 * fast-jwt checks them (milliseconds, no tolerance): exp a number and not past, nbf (we never sign
 * one) a number and reached. A signer is made per token, with the clock of its signing: a login or
 * a password change, not every request.
 *
 * A session sends the same token on every request: its claims are kept by its text once its
 * signature checks out (the same text verifies the same way; the secret does not change while the
 * process runs), and only the times are checked again. The HMAC and decoding were ~40 µs of each
 * request (issue 19). A token refused is not kept; revocation is the token version's, checked
 * against the session on every request.
 */
function sessionTokens(app: FastifyInstance, secret: string): SessionTokens {
  const verified = new Map<string, TokenClaims & { exp?: unknown; nbf?: unknown }>();
  const verifySignature = createVerifier({
    key: secret,
    algorithms: ['HS256'],
    // A token without an expiry would be a session for ever: refused, even when signed with our secret.
    requiredClaims: ['exp'],
    ignoreExpiration: true,
    ignoreNotBefore: true,
  });
  return {
    sign: (claims) =>
      createSigner({ key: secret, algorithm: 'HS256', expiresIn: app.config.tokenTtlSeconds * 1000, clockTimestamp: app.now().getTime() })(claims),
    verify: (token) => {
      let claims = verified.get(token);
      if (!claims) {
        claims = verifySignature(token) as TokenClaims & { exp?: unknown; nbf?: unknown };
        if (verified.size >= MAX_VERIFIED) verified.clear();
        verified.set(token, claims);
      }
      const now = app.now().getTime();
      if (typeof claims.exp !== 'number' || now > claims.exp * 1000) throw new Error('token expired');
      if ('nbf' in claims && (typeof claims.nbf !== 'number' || now < claims.nbf * 1000)) throw new Error('token not active yet');
      return claims;
    },
  };
}

export function registerAuth(app: FastifyInstance, secret: string) {
  app.decorate('sessionTokens', sessionTokens(app, secret));
  app.decorateRequest('sessionUser', null);
  authenticateFirst(app);
}

export function signToken(app: Pick<FastifyInstance, 'sessionTokens'>, user: Pick<SessionUser, 'id' | 'tokenVersion'>): string {
  return app.sessionTokens.sign({ sub: user.id, tv: user.tokenVersion });
}

const AUTH_GUARD = Symbol('auth guard');
type Guard = ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) & { [AUTH_GUARD]: true };
const isGuard = (hook: unknown): hook is Guard => typeof hook === 'function' && AUTH_GUARD in hook;

/**
 * A valid, unrevoked bearer token; optionally one of `roles`. Routes declare it as `preHandler`,
 * but it always runs as an `onRequest` hook (see `authenticateFirst`).
 */
export function guard(app: FastifyInstance, options: GuardOptions = {}): Guard {
  const check = async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
    if (!token) throw unauthorized('No autorizado');
    let claims: TokenClaims;
    try {
      claims = app.sessionTokens.verify(token);
    } catch {
      throw unauthorized(AUTH_MESSAGES.sessionExpired);
    }
    const id = Number(claims.sub);
    const load = () => loadSessionUser(app, id);
    let user = await app.sessions.get(id, load);
    // A token newer than this process's copy (the password changed on another process whose notice
    // has not arrived yet) is checked against the database, never refused on the stale copy.
    if (user && user.tokenVersion < claims.tv) {
      app.sessions.evict(id);
      user = await app.sessions.get(id, load);
    }
    if (!user || user.tokenVersion !== claims.tv) throw unauthorized(AUTH_MESSAGES.sessionExpired);
    request.sessionUser = user;
    if (user.mustChangePassword && !options.allowMustChange) {
      throw forbidden(AUTH_MESSAGES.mustChange, 'MUST_CHANGE_PASSWORD');
    }
    if (options.roles && !options.roles.includes(user.role)) throw forbidden(AUTH_MESSAGES.forbidden);
  };
  return Object.assign(check, { [AUTH_GUARD]: true as const });
}

/**
 * Authentication comes before validation: a guard declared as a route's `preHandler` is moved to
 * its `onRequest` hooks, which run before the body is parsed and the schema checked, so an
 * anonymous caller learns nothing about a route's fields (401, never a 400 listing them).
 */
function authenticateFirst(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const preHandlers = [route.preHandler ?? []].flat();
    const guards = preHandlers.filter(isGuard);
    if (guards.length === 0) return;
    const rest = preHandlers.filter((hook) => !isGuard(hook));
    route.preHandler = rest.length ? rest : undefined;
    route.onRequest = [...guards, ...[route.onRequest ?? []].flat()];
  });
}
