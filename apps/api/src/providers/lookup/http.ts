import { and, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import { CUSTOMER_MESSAGES, DAY_MS, type LookupResult } from '@tramo/domain';
import { lookupCache } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import type { LookupContext, LookupKind, LookupProvider } from './types.ts';

export interface HttpLookupOptions {
  /** Base address of an apis.net.pe v2 compatible service, e.g. https://api.apis.net.pe */
  url: string;
  token: string;
  timeoutMs?: number;
  cacheDays?: number;
}

const SOURCE = 'apis.net.pe';

/*
 * The upstream failing is not the caller's fault, yet the issue forbids turning it into a 5xx of
 * ours: 424 (failed dependency) tells the client "a service we depend on failed, fill it by hand".
 */
const unavailable = () => new AppError(424, 'LOOKUP_UNAVAILABLE', CUSTOMER_MESSAGES.lookupUnavailable);
const timedOut = () => new AppError(424, 'LOOKUP_TIMEOUT', CUSTOMER_MESSAGES.lookupTimeout);

const text = z
  .string()
  .nullish()
  .transform((v) => {
    const t = v?.trim();
    return t && t !== '-' ? t : undefined;
  });

const dniAnswer = z.object({
  nombres: z.string().trim().min(1),
  apellidoPaterno: text,
  apellidoMaterno: text,
});

const rucAnswer = z.object({
  razonSocial: z.string().trim().min(1),
  direccion: text,
  distrito: text,
  provincia: text,
  departamento: text,
  ubigeo: text,
  estado: text,
  condicion: text,
});

function normalise(kind: LookupKind, number: string, body: unknown): LookupResult {
  if (kind === 'dni') {
    const parsed = dniAnswer.safeParse(body);
    if (!parsed.success) throw unavailable();
    const { nombres, apellidoPaterno, apellidoMaterno } = parsed.data;
    const lastName = [apellidoPaterno, apellidoMaterno].filter(Boolean).join(' ');
    const result: LookupResult = {
      docType: 'dni',
      docNumber: number,
      name: [nombres, lastName].filter(Boolean).join(' '),
      firstName: nombres,
      source: SOURCE,
    };
    if (lastName) result.lastName = lastName;
    return result;
  }
  const parsed = rucAnswer.safeParse(body);
  if (!parsed.success) throw unavailable();
  const r = parsed.data;
  const address = [r.direccion, r.distrito, r.provincia, r.departamento].filter(Boolean).join(', ');
  const result: LookupResult = { docType: 'ruc', docNumber: number, name: r.razonSocial, firstName: r.razonSocial, source: SOURCE };
  if (address) result.address = address;
  if (r.ubigeo && /^\d{6}$/.test(r.ubigeo)) result.ubigeo = r.ubigeo;
  if (r.estado) result.estado = r.estado;
  if (r.condicion) result.condicion = r.condicion;
  return result;
}

async function cached(kind: LookupKind, number: string, ctx: LookupContext, days: number): Promise<LookupResult | null> {
  const since = new Date(ctx.now().getTime() - days * DAY_MS);
  const [row] = await ctx.db
    .select({ payload: lookupCache.payload })
    .from(lookupCache)
    .where(and(eq(lookupCache.kind, kind), eq(lookupCache.number, number), gt(lookupCache.fetchedAt, since)));
  return row ? (row.payload as LookupResult) : null;
}

async function remember(kind: LookupKind, number: string, result: LookupResult, ctx: LookupContext) {
  const fetchedAt = ctx.now();
  await ctx.db
    .insert(lookupCache)
    .values({ kind, number, payload: result, fetchedAt })
    .onConflictDoUpdate({ target: [lookupCache.kind, lookupCache.number], set: { payload: result, fetchedAt } });
}

/**
 * apis.net.pe v2: GET /v2/reniec/dni?numero= and /v2/sunat/ruc?numero= with a bearer token.
 * Found answers are kept 30 days; unknown numbers are asked again next time (they may appear).
 * The token only travels in the Authorization header: no error message or log line carries it.
 */
export function httpLookup(options: HttpLookupOptions): LookupProvider {
  const base = options.url.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 5000;
  const cacheDays = options.cacheDays ?? 30;
  return {
    name: 'http',
    async find(kind, number, ctx) {
      const hit = await cached(kind, number, ctx, cacheDays);
      if (hit) return hit;
      const path = kind === 'dni' ? '/v2/reniec/dni' : '/v2/sunat/ruc';
      let res: Response;
      let body: unknown;
      try {
        res = await fetch(`${base}${path}?numero=${encodeURIComponent(number)}`, {
          headers: { Authorization: `Bearer ${options.token}`, Accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
        // 404/422 carry no answer worth reading; anything else must be read within the same deadline.
        if (res.status === 404 || res.status === 422) {
          await res.body?.cancel();
          return null;
        }
        if (!res.ok) {
          await res.body?.cancel();
          throw unavailable();
        }
        body = await res.json();
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) throw timedOut();
        throw unavailable();
      }
      const result = normalise(kind, number, body);
      await remember(kind, number, result, ctx);
      return result;
    },
  };
}
