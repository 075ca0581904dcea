import {
  CREDIT_MESSAGES,
  endedPeriodsOf,
  limaDay,
  PERIOD_BATCH_MESSAGES,
  periodBatchAnswer,
  sumCents,
  toCents,
  centsToNumber,
  type CreditPeriod,
  type DuePeriod,
  type DuePeriodsAnswer,
  type PeriodBatchRequest,
  type PeriodBatchResult,
  type PeriodGrouping,
} from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { issuePeriodInvoice, periodInvoicePreview } from './period-invoice.ts';
import * as repo from './repository.ts';

/**
 * 'Facturar periodos vencidos' (issue 35): every active account's ended periods that still hold
 * uninvoiced credit shipments. The preview builds each period's factura as 'Facturar periodo'
 * would; the run issues them one at a time through it, so the period's key (a hash of customer and
 * period) and document_shipments_live_uq keep a repeated or racing run from a second factura.
 */

/** GET /credit/period-invoices/due: per account and ended period, what its factura would be. */
export async function duePeriods(ctx: ServiceContext, user: SessionUser, grouping: PeriodGrouping): Promise<DuePeriodsAnswer> {
  const today = limaDay(ctx.now());
  const days = await repo.uninvoicedDaysOfActiveAccounts(ctx.db, today);
  const accounts = await repo.accounts(ctx.db);
  const items: DuePeriod[] = [];
  let needsDetractionAccount = false;
  for (const account of accounts) {
    const accountDays = days.get(account.customerId);
    if (account.status !== 'activa' || !accountDays) continue;
    for (const period of endedPeriodsOf(account.period as CreditPeriod, accountDays, today)) {
      const row = { customerId: account.customerId, customerName: account.customerName, docNumber: account.docNumber, ...period };
      try {
        const preview = await periodInvoicePreview(ctx, user, account.customerId, { ...period, grouping, detractionAccount: null });
        needsDetractionAccount ||= preview.needsDetractionAccount;
        items.push({ ...row, shipments: preview.shipments.length, total: preview.total, detraction: preview.detraction, problem: null });
      } catch (err) {
        // A period the preview cannot build is listed with why; the run would refuse it the same way.
        if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
        items.push({ ...row, shipments: 0, total: 0, detraction: null, problem: err.message });
      }
    }
  }
  return { items, total: centsToNumber(sumCents(items.map((i) => toCents(String(i.total))))), needsDetractionAccount };
}

/** POST /credit/period-invoices: one period factura per previewed period; each answers on its own. */
export async function issueDuePeriods(ctx: ServiceContext, user: SessionUser, body: PeriodBatchRequest, idempotencyKey: string | null) {
  const names = new Map((await repo.accounts(ctx.db)).map((a) => [a.customerId, a.customerName]));
  const items: PeriodBatchResult[] = [];
  for (const period of body.periods) {
    const row = { customerId: period.customerId, customerName: names.get(period.customerId) ?? '', from: period.from, to: period.to };
    items.push({ ...row, ...(await issueOne(ctx, user, body, period)) });
  }
  const answer = periodBatchAnswer(items);
  // The run is audited as a whole; each factura is audited by billing as it is numbered.
  await audit(ctx.db, {
    userId: user.id,
    entity: 'credit_period_batch',
    entityId: idempotencyKey ?? ctx.now().toISOString(),
    action: 'issue',
    after: { issued: answer.issued, already: answer.already, refused: answer.refused, documentIds: items.map((i) => i.documentId) },
  });
  return answer;
}

type Outcome = Omit<PeriodBatchResult, 'customerId' | 'customerName' | 'from' | 'to'>;

async function issueOne(
  ctx: ServiceContext,
  user: SessionUser,
  body: PeriodBatchRequest,
  period: PeriodBatchRequest['periods'][number],
): Promise<Outcome> {
  try {
    if (!(await repo.accountOf(ctx.db, period.customerId))) return refused(CREDIT_MESSAGES.accountNotFound);
    const answer = await issuePeriodInvoice(ctx, user, period.customerId, {
      from: period.from,
      to: period.to,
      grouping: body.grouping,
      detractionAccount: body.detractionAccount,
    });
    const r = answer.result;
    if (r.id === null) return refused(r.error ?? PERIOD_BATCH_MESSAGES.failed);
    return {
      outcome: answer.statusCode === 200 ? 'ya emitida' : 'emitida',
      documentId: r.id,
      number: r.serie && r.numero ? `${r.serie}-${r.numero}` : null,
      status: r.status,
      // A factura numbered but refused or not yet answered by SUNAT says so.
      message: r.error,
    };
  } catch (err) {
    // One account's failure never stops the others: it is answered on its row (and logged when unexpected).
    if (!(err instanceof AppError) || err.statusCode >= 500) ctx.log.error({ err, customerId: period.customerId }, 'period batch: issue failed');
    return refused(err instanceof AppError && err.statusCode < 500 ? err.message : PERIOD_BATCH_MESSAGES.failed);
  }
}

const refused = (message: string): Outcome => ({ outcome: 'rechazada', documentId: null, number: null, status: null, message });
