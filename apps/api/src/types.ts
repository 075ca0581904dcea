import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Role } from '@tramo/domain';
import type { Config } from './config.ts';
import type { Db, DbKind } from './db/client.ts';
import type { TrackingLinks } from './lib/tracking-links.ts';
import type { SecretCodes } from './lib/secret-codes.ts';
import type { SessionTokens } from './plugins/auth.ts';
import type { ReferenceCache } from './plugins/reference-cache.ts';
import type { SessionCache } from './plugins/session-cache.ts';
import type { Providers } from './providers/index.ts';

/** The logged-in user as every handler sees it (cached per process, evicted on every change). */
export interface SessionUser {
  id: number;
  username: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  role: Role;
  branchId: number | null;
  branchName: string | null;
  mustChangePassword: boolean;
  tokenVersion: number;
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/**
 * What a service needs of the server (DESIGN.md 2): the database, the clock, the log, the
 * configuration, the providers and the caches; not the HTTP instance, so a use case cannot register
 * a route or a hook, and a script or a test can build one without Fastify. The app has all of these,
 * so a route hands its `app` over as it is.
 */
export type ServiceContext = Pick<
  App,
  'db' | 'readDb' | 'dbKind' | 'now' | 'log' | 'config' | 'providers' | 'references' | 'sessions' | 'sessionTokens' | 'secretCodes' | 'trackingLinks'
>;

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** Reports read here: the streaming replica when DATABASE_READ_URL is set, else `db` (db/client.ts). */
    readDb: Db;
    dbKind: DbKind;
    config: Config;
    /** Injectable clock: tests move time instead of sleeping. */
    now: () => Date;
    providers: Providers;
    /** Hashes and checks shipment secret codes with the server's key (never in the database). */
    secretCodes: SecretCodes;
    /** Keys of the public tracking links (the label's QR, the messages): lib/tracking-links.ts. */
    trackingLinks: TrackingLinks;
    /** Session users by id, evicted across processes by LISTEN/NOTIFY (plugins/session-cache.ts). */
    sessions: SessionCache;
    /** Branches and route price tables a creation reads, evicted across processes by LISTEN/NOTIFY (plugins/reference-cache.ts). */
    references: ReferenceCache;
    /** Signs and checks session tokens with the app's secret and clock (plugins/auth.ts). */
    sessionTokens: SessionTokens;
  }
  interface FastifyRequest {
    sessionUser: SessionUser | null;
  }
}

/** The authenticated user of a request that passed an auth guard. */
export function currentUser(request: { sessionUser: SessionUser | null }): SessionUser {
  if (!request.sessionUser) throw new Error('auth guard missing on this route');
  return request.sessionUser;
}
