import {
  centsToNumber,
  closingAnswer,
  closingSummary,
  countedFromDenominations,
  displayName,
  limaDay,
  PAYMENT_MESSAGES,
  type CashSession,
  type CloseCashSessionRequest,
  type PaymentMethod,
  scopeOf,
} from '@tramo/domain';
import type { Tx } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { iso } from './access.ts';
import { ledgerEntries } from './ledger-entries.ts';
import * as repo from './queries/cash-sessions.ts';

/** Cash sessions (DESIGN.md 5a): every payment lands in its collector's open session. */

/** Who a session belongs to: the user collecting, or the collector of a payment the sweep confirms. */
export interface Collector {
  userId: number;
  userName: string;
  branchId: number | null;
}

/** The collector's open session, locked for this transaction; opened with S/ 0.00 when none. */
export async function sessionForPayment(ctx: ServiceContext, tx: Tx, user: SessionUser): Promise<{ id: number; opened: boolean }> {
  return sessionOfCollector(ctx, tx, { userId: user.id, userName: displayName(user), branchId: user.branchId }, user.id);
}

/** sessionForPayment for any collector; `actorId` (null: the server itself) is who the audit names. */
export async function sessionOfCollector(
  ctx: ServiceContext,
  tx: Tx,
  collector: Collector,
  actorId: number | null,
): Promise<{ id: number; opened: boolean }> {
  const open = await repo.lockOpenSession(tx, collector.userId);
  if (open) return { id: open.id, opened: false };
  if (collector.branchId === null) throw unprocessable(PAYMENT_MESSAGES.noBranch);
  const opened = await repo.insertSessionIfNone(tx, {
    userId: collector.userId,
    userName: collector.userName,
    branchId: collector.branchId,
    floatCents: 0,
    openedAt: ctx.now(),
  });
  const session = (await repo.lockOpenSession(tx, collector.userId))!;
  if (opened)
    await audit(tx, { userId: actorId, entity: 'cash_session', entityId: session.id, action: 'open', after: { float: 0, automatic: true } });
  return { id: session.id, opened };
}

interface StoredClosing {
  cashCents: number;
  byMethod: Partial<Record<PaymentMethod, number>>;
}

async function sessionAnswer(ctx: ServiceContext, s: NonNullable<Awaited<ReturnType<typeof repo.findSession>>>): Promise<CashSession> {
  const moves = await repo.movementsOfSession(ctx.db, s.id);
  const entries = ledgerEntries(moves);
  const stored = s.closing as StoredClosing | null;
  const live = closingSummary(s.floatCents, entries, { cashCents: 0 });
  const counted = stored ?? { cashCents: live.lines[0]!.expectedCents, byMethod: {} };
  // Pago en destino collected here (issue 33): charges of this session whose payment still stands.
  const destino = moves.filter((m) => m.m.kind === 'cobro' && m.paymentMoment === 'destino' && m.paymentStatus === 'paid');
  return {
    id: s.id,
    userId: s.userId,
    userName: s.userName,
    branchId: s.branchId,
    branchName: s.branchName,
    openedAt: s.openedAt.toISOString(),
    closedAt: iso(s.closedAt),
    float: centsToNumber(s.floatCents),
    status: s.closedAt ? 'closed' : 'open',
    closing: closingAnswer(closingSummary(s.floatCents, entries, counted)),
    destination: { count: destino.length, amount: centsToNumber(destino.reduce((c, m) => c + m.m.amountCents, 0)) },
    movements: moves.map((m) => ({
      id: m.m.id,
      kind: m.m.kind as 'cobro' | 'anulacion',
      at: m.m.at.toISOString(),
      paymentId: m.m.paymentId,
      shipmentCode: m.shipmentCode,
      methodCode: m.m.method as PaymentMethod,
      amount: centsToNumber(m.m.amountCents),
      adjustment: m.m.kind === 'anulacion' && m.paymentSessionId !== s.id,
      destino: m.paymentMoment === 'destino',
    })),
  };
}

export async function currentSession(ctx: ServiceContext, user: SessionUser) {
  const s = await repo.openSessionOf(ctx.db, user.id);
  return { session: s ? await sessionAnswer(ctx, s) : null };
}

export async function openSession(ctx: ServiceContext, user: SessionUser, floatCents: number): Promise<CashSession> {
  if (user.branchId === null) throw unprocessable(PAYMENT_MESSAGES.noBranch);
  const id = await ctx.db.transaction(async (tx) => {
    const opened = await repo.insertSessionIfNone(tx, {
      userId: user.id,
      userName: displayName(user),
      branchId: user.branchId!,
      floatCents,
      openedAt: ctx.now(),
    });
    if (!opened) throw conflict(PAYMENT_MESSAGES.sessionAlreadyOpen, undefined, 'CASH_SESSION_OPEN');
    const s = (await repo.lockOpenSession(tx, user.id))!;
    await audit(tx, { userId: user.id, entity: 'cash_session', entityId: s.id, action: 'open', after: { floatCents } });
    return s.id;
  });
  return sessionAnswer(ctx, (await repo.findSession(ctx.db, id))!);
}

/** Closes a session once: the conditional update locks it (a payment writing into it finishes first), then the closing is computed and kept. */
export async function closeSession(ctx: ServiceContext, user: SessionUser, id: number, body: CloseCashSessionRequest): Promise<CashSession> {
  const existing = await repo.findSession(ctx.db, id);
  if (!existing) throw notFound(PAYMENT_MESSAGES.sessionNotFound);
  if (existing.userId !== user.id && user.role !== 'admin') throw forbidden(PAYMENT_MESSAGES.sessionNotYours);
  const cashCents = body.denominations ? countedFromDenominations(body.denominations) : body.countedCash!;
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const row = await repo.closeSessionRow(tx, id, {
      closedAt: now,
      closedBy: user.id,
      countedCashCents: cashCents,
      closing: { cashCents, byMethod: body.countedByMethod ?? {} } satisfies StoredClosing,
    });
    if (!row) throw conflict(PAYMENT_MESSAGES.sessionAlreadyClosed, undefined, 'CASH_SESSION_CLOSED');
    const moves = await repo.movementsOfSession(tx, id);
    const closing = closingSummary(row.floatCents, ledgerEntries(moves), { cashCents, byMethod: body.countedByMethod ?? {} });
    await audit(tx, {
      userId: user.id,
      entity: 'cash_session',
      entityId: id,
      action: 'close',
      after: { countedCashCents: cashCents, differenceCents: closing.differenceCents },
    });
  });
  return sessionAnswer(ctx, (await repo.findSession(ctx.db, id))!);
}

export async function sessionsOfDay(ctx: ServiceContext, user: SessionUser, day: string | undefined) {
  const date = day ?? limaDay(ctx.now());
  const sessions = await repo.sessionsOfDay(ctx.db, date, scopeOf(user));
  return { date, items: await Promise.all(sessions.map((s) => sessionAnswer(ctx, s))) };
}
