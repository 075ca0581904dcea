import path from 'node:path';

/** Everything the API reads from the environment; `.env.example` documents each variable. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  demo: boolean;
  jwtSecret: string | null;
  adminPassword: string | null;
  tokenTtlSeconds: number;
  webDist: string | null;
  lookupUrl: string | null;
  lookupToken: string | null;
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const root = path.resolve(import.meta.dirname, '../../..');
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || null,
    dataDir: path.resolve(env.DATA_DIR ?? path.join(root, 'data')),
    demo: env.DEMO !== '0',
    jwtSecret: env.JWT_SECRET || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    tokenTtlSeconds: Number(env.TOKEN_TTL_SECONDS ?? 12 * 3600),
    webDist: path.resolve(env.WEB_DIST ?? path.join(root, 'apps/web/dist')),
    lookupUrl: env.LOOKUP_URL || null,
    lookupToken: env.LOOKUP_TOKEN || null,
    logLevel: env.LOG_LEVEL ?? 'warn',
  };
}
