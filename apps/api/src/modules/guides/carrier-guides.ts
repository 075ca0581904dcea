import { createHash } from 'node:crypto';
import { checkGuide, formatDocumentNumber, GUIDE_API_MESSAGES, limaDay, type CarrierGuidesAnswer, type GuideDraft } from '@tramo/domain';
import { AppError, conflict, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { findByIdempotencyKey, issueOther, liveDocumentOfShipment, refusal, type IssueAnswer } from '../billing/index.ts';
import { getCompany } from '../company/index.ts';
import { transportCompliance } from '../fleet/index.ts';
import { carrierGuideOf, loadOf, pairsOf, pendingPairs, visibleTransport, type LoadedShipment } from './carrier-guide.ts';
import { guideIssue, withCompanyMtc } from './service.ts';

/*
 * Issuing the carrier guides of a load (issue 36): the reviewed guide of one remitente/destinatario
 * pair (`POST /transports/{id}/carrier-guide`), or 'Emitir guías' (`POST …/carrier-guides`), one
 * GRE-T per pair still without one. Each links the shipments it carries (document_shipments,
 * role 'guia'), so the load listing, the departure and each shipment's documents see it.
 */

/** Refuses a shipment already carried under a live guide (409), naming it and the guide. */
async function checkNotOnGuide(ctx: ServiceContext, load: { shipmentId: number; code: string }[]) {
  for (const s of load) {
    const live = await liveDocumentOfShipment(ctx.db, s.shipmentId, 'guia');
    if (live) throw conflict(GUIDE_API_MESSAGES.shipmentOnGuide(s.code, formatDocumentNumber(live.series, live.number)), undefined, 'ON_GUIDE');
  }
}

/** The shipments a reviewed guide covers: the pending pair its remitente and destinatario name (the only one, if one). */
function shipmentsOfGuide(draft: GuideDraft, pending: LoadedShipment[][], load: LoadedShipment[]): LoadedShipment[] | null {
  if (pending.length === 0) return pairsOf(load)[0] ?? null;
  if (pending.length === 1) return pending[0]!;
  const senderOf = (s: LoadedShipment) => s.senderDoc ?? s.senderName;
  return pending.find((p) => senderOf(p[0]!) === draft.client.docNumber && p[0]!.recipientDoc === draft.recipient?.docNumber) ?? null;
}

/** `POST /transports/{id}/carrier-guide`: issues the reviewed GRE-T and links the shipments of its pair. */
export async function issueCarrierGuide(ctx: ServiceContext, user: SessionUser, transportId: number, payload: unknown): Promise<IssueAnswer> {
  await visibleTransport(ctx, user, transportId);
  const load = await loadOf(ctx, transportId);
  if (load.length === 0) return { statusCode: 422, result: refusal([GUIDE_API_MESSAGES.emptyLoad]) };
  // Issue 36: no GRE-T for a truck or driver whose required documents expired (unless overridden),
  // answered in this route's issue-result shape with the gate's own sentence.
  const gate = await transportCompliance(ctx, transportId);
  if (gate.refusal && !gate.override) return { statusCode: 422, result: { ...refusal([gate.refusal]), error: gate.refusal } };
  const check = checkGuide(payload, { today: limaDay(ctx.now()) });
  if (!check.ok) return { statusCode: 422, result: refusal(check.problems) };
  if (check.draft.type !== '31') return { statusCode: 422, result: refusal([GUIDE_API_MESSAGES.notCarrierGuide]) };
  const draft = await withCompanyMtc(ctx, check.draft);
  // A retry of the same guide (its codigo_unico) is answered by the guide already issued, not refused.
  const retry = await findByIdempotencyKey(ctx.db, user.branchId, draft.uniqueCode);
  const carried = retry ? load : shipmentsOfGuide(draft, await pendingPairs(ctx, load), load);
  if (!carried) return { statusCode: 422, result: refusal([GUIDE_API_MESSAGES.noShipmentsOfPair]) };
  if (!retry) await checkNotOnGuide(ctx, carried);
  return issueOther(
    ctx,
    user,
    guideIssue(
      draft,
      carried.map((s) => s.shipmentId),
      () => checkNotOnGuide(ctx, carried),
    ),
  );
}

/** A retry-safe key for a pair's guide: the same content again finds the guide issued, a corrected one is new. */
const pairKey = (content: unknown) => `G${createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 19).toUpperCase()}`;

/** `POST /transports/{id}/carrier-guides` ('Emitir guías'): one GRE-T per remitente/destinatario pair without one. */
export async function issueCarrierGuides(ctx: ServiceContext, user: SessionUser, transportId: number): Promise<CarrierGuidesAnswer> {
  const t = await visibleTransport(ctx, user, transportId);
  const load = await loadOf(ctx, transportId);
  if (load.length === 0) throw unprocessable(GUIDE_API_MESSAGES.emptyLoad, undefined, 'EMPTY_LOAD');
  const gate = await transportCompliance(ctx, transportId);
  if (gate.refusal && !gate.override) throw unprocessable(gate.refusal, undefined, 'DOCUMENT_EXPIRED');
  const pairs = await pendingPairs(ctx, load);
  if (pairs.length === 0) throw conflict(GUIDE_API_MESSAGES.allOnGuides, undefined, 'ON_GUIDE');
  const company = await getCompany(ctx);
  const today = limaDay(ctx.now());
  const guides: CarrierGuidesAnswer['guides'] = [];
  for (const pair of pairs) {
    const built = carrierGuideOf(t, pair, company, today, []);
    const shipmentCodes = pair.map((s) => s.code);
    const check = checkGuide({ ...built, codigo_unico: pairKey(built) }, { today });
    if (!check.ok) {
      guides.push({ shipmentCodes, ok: false, id: null, serie: null, numero: null, status: null, error: check.problems.join(' ') });
      continue;
    }
    try {
      const { result: r } = await issueOther(
        ctx,
        user,
        guideIssue(
          check.draft,
          pair.map((s) => s.shipmentId),
          () => checkNotOnGuide(ctx, pair),
        ),
      );
      guides.push({ shipmentCodes, ok: r.ok, id: r.id, serie: r.serie, numero: r.numero, status: r.status, error: r.error });
    } catch (err) {
      // One pair's refusal (a shipment taken meanwhile) does not stop the others.
      if (!(err instanceof AppError)) throw err;
      guides.push({ shipmentCodes, ok: false, id: null, serie: null, numero: null, status: null, error: err.message });
    }
  }
  return { guides };
}
