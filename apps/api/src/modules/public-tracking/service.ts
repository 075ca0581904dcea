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
import { forbidden, notFound, tooManyRequests, unprocessable } from '../../lib/errors.ts';
import { findEvents, findRow, isFreightPaid } from '../shipments/index.ts';
import { renderProofPdf } from '../deliveries/index.ts';
import type { ServiceContext } from '../../types.ts';

const windowMs = PUBLIC_TRACKING_LIMIT.windowSeconds * 1000;

/**
 * Counts one lookup for the address in one statement (parallel lookups each get their own count),
 * and refuses past the limit with a 429. A window that has expired starts again at 1; opening a
 * window also clears the addresses whose window ended long ago, so the table stays small.
 */
async function countLookup(ctx: ServiceContext, address: string, weight = 1): Promise<void> {
  const now = ctx.now();
  const windowOpenedAfter = sql`${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const inWindow = sql`${publicRateLimits.windowStart} > ${windowOpenedAfter}`;
  const [counted] = await ctx.db
    .insert(publicRateLimits)
    .values({ key: `tracking:${address}`, hits: weight, windowStart: now })
    .onConflictDoUpdate({
      target: publicRateLimits.key,
      set: {
        hits: sql`case when ${inWindow} then ${publicRateLimits.hits} + ${weight} else ${weight} end`,
        windowStart: sql`case when ${inWindow} then ${publicRateLimits.windowStart} else ${now.toISOString()}::timestamptz end`,
      },
    })
    .returning({ hits: publicRateLimits.hits });
  if (counted!.hits === weight) {
    await ctx.db.delete(publicRateLimits).where(lt(publicRateLimits.windowStart, new Date(now.getTime() - 10 * windowMs)));
  }
  if (counted!.hits > PUBLIC_TRACKING_LIMIT.maxPerWindow) throw tooManyRequests(PUBLIC_TRACKING_MESSAGES.tooManyRequests, 'RATE_LIMITED');
}

/**
 * A shipment as its sender and recipient may see it. Unknown and malformed codes take the same
 * path to the same 404, so the answer tells nothing about which codes exist or how they look.
 */
async function findPublic(ctx: ServiceContext, address: string, rawCode: string) {
  await countLookup(ctx, address);
  const code = normalizeShipmentCode(rawCode);
  const row = code ? await findRow(ctx.db, { code }) : null;
  if (!row) throw notFound(PUBLIC_TRACKING_MESSAGES.notFound);
  return row;
}

/** What a public lookup brings besides the code: the link's key, or the recipient's document digits. */
export interface PublicAccess {
  k?: string | undefined;
  doc?: string | undefined;
}

/**
 * Whether the lookup may see more than the status (issue 31, F10): the link's key, or the last 3
 * digits of the recipient's document. Wrong digits are a 422, and weigh on the address's limit.
 */
async function verified(ctx: ServiceContext, address: string, row: { code: string; recipientDoc: string }, access: PublicAccess) {
  if (ctx.trackingLinks.verify(row.code, access.k)) return true;
  if (access.doc === undefined) return false;
  if (row.recipientDoc.trim().slice(-3) === access.doc) return true;
  await countLookup(ctx, address, PUBLIC_TRACKING_LIMIT.wrongDocumentWeight);
  const message = PUBLIC_TRACKING_MESSAGES.documentWrong;
  throw unprocessable(message, { doc: message }, 'DOCUMENT_MISMATCH');
}

export async function publicTracking(ctx: ServiceContext, address: string, rawCode: string, access: PublicAccess): Promise<PublicTracking> {
  const row = await findPublic(ctx, address, rawCode);
  const status = { code: row.code, status: row.status, tone: statusTone(row.status) };
  if (!(await verified(ctx, address, row, access))) return { ...status, verified: false };
  const events = await findEvents(ctx.db, row.id);
  const destination = row.destinationCity ?? row.destinationName;
  const deliveredAt = (row.deliveredInfo as { deliveredAt?: string } | null)?.deliveredAt ?? null;
  // The recipient brings the freight to the counter: the page says how much while it is still owed.
  const owesAtDestination =
    row.paymentMoment === 'destino' && ['Creado', 'En tránsito', 'En agencia'].includes(row.status) && !(await isFreightPaid(ctx.db, row.id));
  return {
    ...status,
    verified: true,
    origin: { name: row.originName, city: row.originCity },
    destination: { name: row.destinationName, city: row.destinationCity },
    senderName: maskName(row.senderName),
    recipientName: maskName(row.recipientName),
    registeredAt: row.createdAt.toISOString(),
    deliveredAt: row.status === 'Entregado' ? deliveredAt : null,
    nextStep: nextStep(row.status, destination),
    dueAtDestination: owesAtDestination ? Number(row.quotedPrice) : null,
    events: events.flatMap((e) => {
      const name = publicEventName({ kind: e.kind, name: e.name, statusTo: e.statusTo, visibleToCustomer: e.visibleToCustomer });
      return name === null ? [] : [{ name, at: e.at.toISOString() }];
    }),
  };
}

/**
 * The customer's copy of the proof of delivery: masked names, no document, photo or signature.
 * A shipment not delivered answers the same 404 as an unknown code; without the link's key or the
 * document digits, a 403.
 */
export async function publicProofPdf(
  ctx: ServiceContext,
  address: string,
  rawCode: string,
  access: PublicAccess,
): Promise<{ pdf: Buffer; code: string }> {
  const row = await findPublic(ctx, address, rawCode);
  if (row.status !== 'Entregado' || !row.deliveredInfo) throw notFound(PUBLIC_TRACKING_MESSAGES.notFound);
  if (!(await verified(ctx, address, row, access))) {
    throw forbidden(PUBLIC_TRACKING_MESSAGES.documentFormat, 'VERIFICATION_REQUIRED');
  }
  const shipment = { ...row, deliveredInfo: row.deliveredInfo as DeliveredInfo };
  const pdf = await renderProofPdf({ shipment, photo: null, signature: null }, 'public');
  return { pdf, code: row.code };
}
