import type { FastifyInstance } from 'fastify';
import { lt, sql } from 'drizzle-orm';
import {
  maskName,
  nextStep,
  normalizeShipmentCode,
  PUBLIC_TRACKING_LIMIT,
  PUBLIC_TRACKING_MESSAGES,
  statusTone,
  publicEventName,
  type DeliveredInfo,
  type PublicTracking,
} from '@tramo/domain';
import { publicRateLimits } from '../../db/schema.ts';
import { notFound, tooManyRequests } from '../../lib/errors.ts';
import { findEvents, findRow } from '../shipments/index.ts';
import { renderProofPdf } from '../deliveries/index.ts';

const windowMs = PUBLIC_TRACKING_LIMIT.windowSeconds * 1000;

/**
 * Counts one lookup for the address in one statement (parallel lookups each get their own count),
 * and refuses past the limit with a 429. A window that has expired starts again at 1; opening a
 * window also clears the addresses whose window ended long ago, so the table stays small.
 */
async function countLookup(app: FastifyInstance, address: string): Promise<void> {
  const now = app.now();
  const windowOpenedAfter = sql`${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const inWindow = sql`${publicRateLimits.windowStart} > ${windowOpenedAfter}`;
  const [counted] = await app.db
    .insert(publicRateLimits)
    .values({ key: `tracking:${address}`, hits: 1, windowStart: now })
    .onConflictDoUpdate({
      target: publicRateLimits.key,
      set: {
        hits: sql`case when ${inWindow} then ${publicRateLimits.hits} + 1 else 1 end`,
        windowStart: sql`case when ${inWindow} then ${publicRateLimits.windowStart} else ${now.toISOString()}::timestamptz end`,
      },
    })
    .returning({ hits: publicRateLimits.hits });
  if (counted!.hits === 1) {
    await app.db.delete(publicRateLimits).where(lt(publicRateLimits.windowStart, new Date(now.getTime() - 10 * windowMs)));
  }
  if (counted!.hits > PUBLIC_TRACKING_LIMIT.maxPerWindow) throw tooManyRequests(PUBLIC_TRACKING_MESSAGES.tooManyRequests, 'RATE_LIMITED');
}

/**
 * A shipment as its sender and recipient may see it. Unknown and malformed codes take the same
 * path to the same 404, so the answer tells nothing about which codes exist or how they look.
 */
async function findPublic(app: FastifyInstance, address: string, rawCode: string) {
  await countLookup(app, address);
  const code = normalizeShipmentCode(rawCode);
  const row = code ? await findRow(app.db, { code }) : null;
  if (!row) throw notFound(PUBLIC_TRACKING_MESSAGES.notFound);
  return row;
}

export async function publicTracking(app: FastifyInstance, address: string, rawCode: string): Promise<PublicTracking> {
  const row = await findPublic(app, address, rawCode);
  const events = await findEvents(app.db, row.id);
  const destination = row.destinationCity ?? row.destinationName;
  const deliveredAt = (row.deliveredInfo as { deliveredAt?: string } | null)?.deliveredAt ?? null;
  return {
    code: row.code,
    status: row.status,
    tone: statusTone(row.status),
    origin: { name: row.originName, city: row.originCity },
    destination: { name: row.destinationName, city: row.destinationCity },
    senderName: maskName(row.senderName),
    recipientName: maskName(row.recipientName),
    registeredAt: row.createdAt.toISOString(),
    deliveredAt: row.status === 'Entregado' ? deliveredAt : null,
    nextStep: nextStep(row.status, destination),
    events: events.flatMap((e) => {
      const name = publicEventName({ kind: e.kind, name: e.name, statusTo: e.statusTo });
      return name === null ? [] : [{ name, at: e.at.toISOString() }];
    }),
  };
}

/**
 * The customer's copy of the proof of delivery: masked names, no document, photo or signature.
 * A shipment not delivered answers the same 404 as an unknown code.
 */
export async function publicProofPdf(app: FastifyInstance, address: string, rawCode: string): Promise<{ pdf: Buffer; code: string }> {
  const row = await findPublic(app, address, rawCode);
  if (row.status !== 'Entregado' || !row.deliveredInfo) throw notFound(PUBLIC_TRACKING_MESSAGES.notFound);
  const shipment = { ...row, deliveredInfo: row.deliveredInfo as DeliveredInfo };
  const pdf = await renderProofPdf({ shipment, photo: null, signature: null }, 'public');
  return { pdf, code: row.code };
}
