import { PAYMENT_MESSAGES, receiptKey } from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import { runInBackground } from '../../lib/background.ts';
import type { App, ServiceContext } from '../../types.ts';
import { findByIdempotencyKey } from '../billing/index.ts';
import { sessionOfCollector } from './cash-sessions.ts';
import { lockSession } from './queries/cash-sessions.ts';
import * as repo from './queries/payments.ts';

/**
 * Recovery of payments a request left 'pending' when it died between its steps (stored, receipt
 * issued, confirmed): such a payment holds its shipment's one live payment forever. Once untouched
 * for the lease (config.payments.leaseMs) it is confirmed when its receipt exists (accepted, or
 * pending at SUNAT), else voided, which frees the shipment. A payment whose receipt failed carries
 * its error: its request answered, and the cashier retries or voids it. Every process sweeps; the
 * row lock (SKIP LOCKED) gives each payment to one of them.
 */

const SWEEP_BATCH = 50;

/** Rolls back a recovery that found its payment taken after opening a session for it. */
class Taken extends Error {}

type Receipt = { id: number; status: string } | null;

async function receiptOf(ctx: ServiceContext, p: repo.PaymentRecord): Promise<Receipt> {
  if (p.documentId) {
    const view = await repo.paymentById(ctx.db, p.id);
    return view?.docStatus ? { id: p.documentId, status: view.docStatus } : null;
  }
  // The request may have died after billing stored the receipt and before the payment kept its id.
  const doc = await findByIdempotencyKey(ctx.db, p.branchId, receiptKey(p.id, p.receiptAttempts));
  return doc ? { id: doc.id, status: doc.status } : null;
}

async function recover(ctx: ServiceContext, candidate: repo.PaymentRecord, before: Date): Promise<'paid' | 'canceled' | null> {
  const receipt = await receiptOf(ctx, candidate);
  const issued = receipt !== null && (receipt.status === 'aceptado' || receipt.status === 'pendiente');
  try {
    return await ctx.db.transaction(async (tx) => {
      const now = ctx.now();
      // As everywhere in the module, the session is locked before the payment (see lifecycle's confirm).
      let sessionId: number | null = null;
      if (issued) {
        const own = await lockSession(tx, candidate.cashSessionId);
        const collector = { userId: candidate.userId, userName: candidate.userName, branchId: candidate.branchId };
        sessionId = own && !own.closedAt ? own.id : (await sessionOfCollector(ctx, tx, collector, null)).id;
      }
      const p = await repo.lockStalePending(tx, candidate.id, before);
      if (!p) throw new Taken();
      if (issued) {
        const row = (await repo.markPaid(tx, p.id, now, receipt.id))!;
        await repo.insertMovementAudited(
          tx,
          { paymentId: p.id, kind: 'cobro', method: row.method, amountCents: row.amountCents, cashSessionId: sessionId!, userId: p.userId, at: now },
          {
            userId: null,
            action: 'recover-confirm',
            before: { status: 'pending' },
            after: { status: 'paid', documentId: receipt.id, documentStatus: receipt.status },
          },
        );
        return 'paid' as const;
      }
      await repo.markCanceled(tx, p.id, 'pending', PAYMENT_MESSAGES.recoveredVoid, now);
      await audit(tx, {
        userId: null,
        entity: 'payment',
        entityId: p.id,
        action: 'recover-void',
        before: { status: 'pending' },
        after: {
          status: 'canceled',
          reason: PAYMENT_MESSAGES.recoveredVoid,
          documentId: receipt?.id ?? null,
          documentStatus: receipt?.status ?? null,
        },
      });
      return 'canceled' as const;
    });
  } catch (err) {
    if (err instanceof Taken) return null;
    throw err;
  }
}

/** One round: every payment past its lease, a batch at a time. Answers how many were confirmed and voided. */
export async function recoverStalePayments(ctx: ServiceContext): Promise<{ paid: number; canceled: number }> {
  const before = new Date(ctx.now().getTime() - ctx.config.payments.leaseMs);
  const done = { paid: 0, canceled: 0 };
  for (;;) {
    const candidates = await repo.stalePendingPayments(ctx.db, before, SWEEP_BATCH);
    let moved = 0;
    for (const c of candidates) {
      const outcome = await recover(ctx, c, before);
      if (outcome) {
        done[outcome] += 1;
        moved += 1;
      }
    }
    // A batch all taken by other processes ends the round: they work through the rest.
    if (candidates.length < SWEEP_BATCH || moved === 0) return done;
  }
}

/** Runs the recovery every config.payments.sweepMs while the app runs (0: never), one round at a time. */
export function recoverPaymentsInBackground(app: App) {
  const everyMs = app.config.payments.sweepMs;
  if (everyMs > 0) runInBackground(app, everyMs, () => recoverStalePayments(app), 'No se pudieron recuperar los pagos pendientes');
}
