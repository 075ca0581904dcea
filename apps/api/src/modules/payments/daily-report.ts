import { centsToNumber, limaDay, PAYMENT_METHOD_NAMES, PAYMENT_METHODS, scopeOf } from '@tramo/domain';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { num } from './access.ts';
import * as repo from './queries/daily-report.ts';

/** The day's totals per branch, user and method (paid) and the voided ones. */
export async function dailyReport(ctx: ServiceContext, user: SessionUser, day: string | undefined) {
  const date = day ?? limaDay(ctx.now());
  const rows = await repo.dailyRows(ctx.db, date, scopeOf(user));
  const paid = rows.filter((r) => r.status === 'paid');
  const canceled = rows.filter((r) => r.status === 'canceled');
  return {
    date,
    rows: paid.map((r) => ({
      branchId: num(r.branch_id),
      branchName: r.branch_name,
      userId: Number(r.user_id),
      userName: r.user_name,
      methodCode: r.method,
      methodName: PAYMENT_METHOD_NAMES[r.method],
      count: Number(r.n),
      amount: centsToNumber(Number(r.cents)),
    })),
    byMethod: PAYMENT_METHODS.map((m) => {
      const mine = paid.filter((r) => r.method === m);
      return {
        methodCode: m,
        methodName: PAYMENT_METHOD_NAMES[m],
        count: mine.reduce((s, r) => s + Number(r.n), 0),
        amount: centsToNumber(mine.reduce((s, r) => s + Number(r.cents), 0)),
      };
    }),
    total: centsToNumber(paid.reduce((s, r) => s + Number(r.cents), 0)),
    canceled: { count: canceled.reduce((s, r) => s + Number(r.n), 0), amount: centsToNumber(canceled.reduce((s, r) => s + Number(r.cents), 0)) },
  };
}
