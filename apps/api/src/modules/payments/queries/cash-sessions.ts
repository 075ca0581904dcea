import { and, eq, getTableColumns, gte, isNull, lt, sql } from 'drizzle-orm';
import { limaDayEnd, limaDayStart, type PaymentStatus, type Scope } from '@tramo/domain';
import type { Db, Tx } from '../../../db/client.ts';
import { branches, cashSessions, paymentMovements, payments, shipments } from '../../../db/schema.ts';
import { branchScopeCondition } from '../../../lib/branch-scope.ts';
import { preparedQuery } from '../../../lib/statements.ts';

export type CashSessionRecord = typeof cashSessions.$inferSelect;

// Both locks are taken by every payment click: built by drizzle once and run prepared (issue 37),
// as the click's reads by id are (queries/payments.ts).
const sessionColumns = getTableColumns(cashSessions);
const openSessionLocked = preparedQuery<CashSessionRecord>('payments_open_session_locked', sessionColumns, (db) =>
  db
    .select(sessionColumns)
    .from(cashSessions)
    .where(and(eq(cashSessions.userId, sql.placeholder('userId')), isNull(cashSessions.closedAt)))
    .for('update'),
);
const sessionLocked = preparedQuery<CashSessionRecord>('payments_session_locked', sessionColumns, (db) =>
  db
    .select(sessionColumns)
    .from(cashSessions)
    .where(eq(cashSessions.id, sql.placeholder('id')))
    .for('update'),
);

/** The user's open session, locked until the transaction ends (a close waits for it). */
export async function lockOpenSession(tx: Tx, userId: number): Promise<CashSessionRecord | null> {
  const [row] = await openSessionLocked(tx, { userId });
  return row ?? null;
}

export async function lockSession(tx: Tx, id: number): Promise<CashSessionRecord | null> {
  const [row] = await sessionLocked(tx, { id });
  return row ?? null;
}

/** Opens a session unless one is open (the partial unique index decides between concurrent openers). */
export async function insertSessionIfNone(tx: Tx, values: typeof cashSessions.$inferInsert): Promise<boolean> {
  const rows = await tx
    .insert(cashSessions)
    .values(values)
    .onConflictDoNothing({ target: cashSessions.userId, where: sql`${cashSessions.closedAt} is null` })
    .returning({ id: cashSessions.id });
  return rows.length > 0;
}

export async function findSession(db: Db | Tx, id: number): Promise<(CashSessionRecord & { branchName: string | null }) | null> {
  const [row] = await db
    .select({ s: cashSessions, branchName: branches.name })
    .from(cashSessions)
    .leftJoin(branches, eq(branches.id, cashSessions.branchId))
    .where(eq(cashSessions.id, id));
  return row ? { ...row.s, branchName: row.branchName } : null;
}

export async function openSessionOf(db: Db, userId: number) {
  const [row] = await db
    .select({ id: cashSessions.id })
    .from(cashSessions)
    .where(and(eq(cashSessions.userId, userId), isNull(cashSessions.closedAt)));
  return row ? findSession(db, row.id) : null;
}

export async function sessionsOfDay(db: Db, day: string, scope: Scope) {
  const rows = await db
    .select({ id: cashSessions.id })
    .from(cashSessions)
    .where(
      and(
        gte(cashSessions.openedAt, limaDayStart(day)),
        lt(cashSessions.openedAt, limaDayEnd(day)),
        branchScopeCondition(scope, cashSessions.branchId),
      ),
    )
    .orderBy(cashSessions.branchId, cashSessions.openedAt);
  return (await Promise.all(rows.map((r) => findSession(db, r.id)))).filter((s) => s !== null);
}

export async function movementsOfSession(db: Db | Tx, sessionId: number) {
  return db
    .select({
      m: paymentMovements,
      shipmentCode: shipments.code,
      paymentSessionId: payments.cashSessionId,
      paymentStatus: sql<PaymentStatus>`${payments.status}`,
      paymentMoment: shipments.paymentMoment,
    })
    .from(paymentMovements)
    .innerJoin(payments, eq(payments.id, paymentMovements.paymentId))
    .innerJoin(shipments, eq(shipments.id, payments.shipmentId))
    .where(eq(paymentMovements.cashSessionId, sessionId))
    .orderBy(paymentMovements.id);
}

/** Closes a session once: the conditional update locks it (a payment writing into it finishes first); null when already closed. */
export async function closeSessionRow(
  tx: Tx,
  id: number,
  values: { closedAt: Date; closedBy: number; countedCashCents: number; closing: unknown },
): Promise<CashSessionRecord | null> {
  const [row] = await tx
    .update(cashSessions)
    .set(values)
    .where(and(eq(cashSessions.id, id), sql`${cashSessions.closedAt} is null`))
    .returning();
  return row ?? null;
}
