import { centsToNumber, countsAsCollected, limaDay, PAYMENT_METHOD_NAMES, PAYMENT_METHODS, scopeOf, tallyPayments } from '@tramo/domain';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { num } from './access.ts';
import * as repo from './queries/daily-report.ts';

/** The day's totals per branch, user and method (paid) and the voided ones. */
export async function dailyReport(ctx: ServiceContext, user: SessionUser, day: string | undefined) {
  const date = day ?? limaDay(ctx.now());
  const rows = await repo.dailyRows(ctx.db, date, scopeOf(user));
  // The reports' one rule (tally.ts): a voided payment is 'Anulado' on the day it was taken.
  const tally = tallyPayments(rows.map((r) => ({ method: r.method, status: r.status, count: Number(r.n), cents: Number(r.cents) })));
  return {
    date,
    rows: rows
      .filter((r) => countsAsCollected(r.status))
      .map((r) => ({
        branchId: num(r.branch_id),
        branchName: r.branch_name,
        userId: Number(r.user_id),
        userName: r.user_name,
        methodCode: r.method,
        methodName: PAYMENT_METHOD_NAMES[r.method],
        count: Number(r.n),
        amount: centsToNumber(Number(r.cents)),
      })),
    byMethod: PAYMENT_METHODS.map((m) => ({
      methodCode: m,
      methodName: PAYMENT_METHOD_NAMES[m],
      count: tally.byMethod[m].count,
      amount: centsToNumber(tally.byMethod[m].cents),
    })),
    total: centsToNumber(tally.collected.cents),
    canceled: { count: tally.voided.count, amount: centsToNumber(tally.voided.cents) },
  };
}
