import path from 'node:path';
import { loadBillingConfig, type BillingConfig } from './providers/billing/index.ts';

/** Everything the API reads from the environment; `.env.example` documents each variable. */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  /** DATABASE_READ_URL: a streaming replica of DATABASE_URL that reports read from; null = they read the primary. */
  databaseReadUrl: string | null;
  dataDir: string;
  demo: boolean;
  jwtSecret: string | null;
  /** Key of the shipment secret codes' HMAC; null = a key file in the data directory. */
  secretCodeKey: string | null;
  adminPassword: string | null;
  tokenTtlSeconds: number;
  webDist: string | null;
  lookupUrl: string | null;
  lookupToken: string | null;
  /** SUNAT documents: Nubefact (NUBEFACT_URL + NUBEFACT_TOKEN, both or neither) or the sandbox, and the issuer. */
  billing: BillingConfig;
  logLevel: string;
  /** Fastify's `trustProxy`: whether X-Forwarded-For/-Proto of a reverse proxy are believed. */
  trustProxy: boolean | string;
  /** PUBLIC_URL: the origin customers reach (QR on labels, links in messages); null = the server's own. */
  publicUrl: string | null;
  /** Notifications (issue 18): the channels configured, none = outbox-only. */
  notify: {
    smtpUrl: string | null;
    smtpFrom: string;
    whatsappApiUrl: string;
    whatsappToken: string | null;
    whatsappPhoneNumberId: string | null;
    timeoutMs: number;
    /** How often the server's worker looks for messages to send; 0 = no worker in this process. */
    pollMs: number;
    /** FLEET_ALERT_EMAIL / FLEET_ALERT_WHATSAPP: who hears of fleet documents expiring in 30, 15 and 7 days (issue 36). */
    fleetAlertEmail: string | null;
    fleetAlertWhatsapp: string | null;
  };
  /** Recovery of payments a request left pending when it died between its steps. */
  payments: {
    /** How often the server's sweep looks for them; 0 = no sweep in this process. */
    sweepMs: number;
    /** How long a pending payment with no error is left to its own request before the sweep takes it. */
    leaseMs: number;
  };
}

/** TRUST_PROXY: empty or `false` = no proxy; `true` = any; else the proxies' addresses (`10.0.0.5,10.1.0.0/16`). */
function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (!value || value === 'false') return false;
  return value === 'true' ? true : value;
}

/** PUBLIC_URL as an origin with no trailing slash (`https://envios.example.pe`); anything else is a start-up error. */
function parsePublicUrl(value: string | undefined): string | null {
  if (!value) return null;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('PUBLIC_URL debe empezar con http:// o https://');
  return url.toString().replace(/\/+$/, '');
}

/**
 * Two variables that only work together (a URL and its token): both or neither. Half of them would
 * silently fall back to the offline provider, so the server refuses to start and says which is missing.
 */
function pairOf(env: NodeJS.ProcessEnv, first: string, second: string, provider: string, fallback: string): [string, string] | null {
  const a = env[first] || null;
  const b = env[second] || null;
  if (a && !b) throw new Error(`${first} está definido pero falta ${second}: define ambos para usar ${provider}, o ninguno para ${fallback}.`);
  if (b && !a) throw new Error(`${second} está definido pero falta ${first}: define ambos para usar ${provider}, o ninguno para ${fallback}.`);
  return a && b ? [a, b] : null;
}

/** A URL variable that must be http(s) (a typo such as `api.example.pe/x` is a start-up error, not a failed call later). */
function httpUrl(name: string, value: string): string {
  if (!/^https?:\/\//.test(value)) throw new Error(`${name} debe empezar con http:// o https://`);
  return value;
}

/** SMTP_URL as nodemailer reads it: smtp:// or smtps://. */
function smtpUrl(value: string | undefined): string | null {
  if (!value) return null;
  if (!/^smtps?:\/\//.test(value)) throw new Error('SMTP_URL debe empezar con smtp:// o smtps://');
  return value;
}

/** A duration in milliseconds (0 or more); anything else is a start-up error rather than a NaN timer. */
function millis(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} debe ser un número entero de milisegundos (0 o más)`);
  return n;
}

/**
 * apps/api: this file sits one level below it both as a source (src/config.ts) and bundled
 * (dist/main.js, scripts/api-build.mjs), so paths to the API's own files start here.
 */
export const apiRoot = path.resolve(import.meta.dirname, '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const root = path.resolve(apiRoot, '../..');
  const lookup = pairOf(env, 'LOOKUP_URL', 'LOOKUP_TOKEN', 'la consulta RENIEC/SUNAT', 'el directorio local');
  const whatsapp = pairOf(env, 'WHATSAPP_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID', 'WhatsApp', 'no enviar por WhatsApp');
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || null,
    databaseReadUrl: env.DATABASE_READ_URL || null,
    dataDir: path.resolve(env.DATA_DIR ?? path.join(root, 'data')),
    demo: env.DEMO !== '0',
    jwtSecret: env.JWT_SECRET || null,
    secretCodeKey: env.SECRET_CODE_KEY || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    tokenTtlSeconds: Number(env.TOKEN_TTL_SECONDS ?? 12 * 3600),
    webDist: path.resolve(env.WEB_DIST ?? path.join(root, 'apps/web/dist')),
    lookupUrl: lookup ? httpUrl('LOOKUP_URL', lookup[0]) : null,
    lookupToken: lookup ? lookup[1] : null,
    billing: loadBillingConfig(env),
    logLevel: env.LOG_LEVEL ?? 'warn',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    notify: {
      smtpUrl: smtpUrl(env.SMTP_URL),
      smtpFrom: env.SMTP_FROM || 'Tramo <no-responder@tramo.pe>',
      whatsappApiUrl: httpUrl('WHATSAPP_API_URL', env.WHATSAPP_API_URL || 'https://graph.facebook.com/v21.0'),
      whatsappToken: whatsapp ? whatsapp[0] : null,
      whatsappPhoneNumberId: whatsapp ? whatsapp[1] : null,
      timeoutMs: millis(env, 'NOTIFY_TIMEOUT_MS', 15_000),
      pollMs: millis(env, 'NOTIFY_POLL_MS', 5_000),
      fleetAlertEmail: env.FLEET_ALERT_EMAIL?.trim() || null,
      fleetAlertWhatsapp: env.FLEET_ALERT_WHATSAPP?.trim() || null,
    },
    payments: {
      sweepMs: Number(env.PAYMENT_SWEEP_MS ?? 30_000),
      leaseMs: Number(env.PAYMENT_LEASE_MS ?? 120_000),
    },
  };
}
