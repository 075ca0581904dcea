import { PassThrough, type Readable } from 'node:stream';
import {
  centsToNumber,
  csvDialectFor,
  movementCsvLine,
  movementCsvPreamble,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_NAMES,
  PAYMENT_METHODS,
  PAYMENT_STATUS_LABELS,
  PAYMENT_STATUSES,
  type MovementFilters,
  type MovementPage,
  type MovementRow,
  inScope,
  scopeOf,
  tallyPayments,
} from '@tramo/domain';
import { forbidden } from '../../lib/errors.ts';
import type { KeysetRequest } from '../../lib/keyset.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { iso, num } from './access.ts';
import * as repo from './queries/movements.ts';

/** The movements report: a page with the filtered set's totals, and the whole set as CSV. */

function checkBranchFilter(user: SessionUser, filters: MovementFilters) {
  const scope = scopeOf(user);
  if (filters.branchId !== undefined && !inScope(scope, filters.branchId)) throw forbidden(PAYMENT_MESSAGES.branchForbidden);
  // The branch that sold is any branch: an agent sees what her branch collected, whoever sold it.
}

function toMovement(r: repo.MovementSqlRow): MovementRow {
  const drivers = [r.driver1, r.driver2].filter(Boolean).join(' / ') || null;
  return {
    type: 'payment',
    id: Number(r.id),
    date: iso(r.created_at)!,
    branchId: num(r.branch_id),
    branchName: r.branch_name,
    collectedByName: r.user_name,
    collectedByUserId: Number(r.user_id),
    methodName: PAYMENT_METHOD_NAMES[r.method],
    methodCode: r.method,
    amount: centsToNumber(Number(r.amount_cents)),
    currency: r.currency,
    statusLabel: PAYMENT_STATUS_LABELS[r.status],
    status: r.status,
    payerName: r.customer_name,
    customerName: r.customer_name,
    reference: r.reference,
    shipmentId: num(r.shipment_id),
    shipmentCode: r.shipment_code,
    platePrimary: r.plate_primary,
    plateSecondary: r.plate_secondary,
    driver1Name: r.driver1,
    driver2Name: r.driver2,
    drivers,
    senderName: r.sender_name,
    senderDoc: r.sender_doc,
    shipmentDescription: r.description,
    providerTxId: r.provider_tx_id,
    evidenceUrl: null,
    notes: r.cancel_reason,
    soldBranchId: num(r.sold_branch_id),
    soldBranchName: r.sold_branch_name,
    paymentMoment: r.payment_moment,
  };
}

export async function movements(ctx: ServiceContext, user: SessionUser, filters: MovementFilters, request: KeysetRequest): Promise<MovementPage> {
  checkBranchFilter(user, filters);
  const { page, pageSize } = request;
  const { rows, next, prev, groups } = await repo.movementPage(ctx.readDb, filters, scopeOf(user), request);
  const sum = (pick: (g: (typeof groups)[number]) => boolean) => {
    const mine = groups.filter(pick);
    return { count: mine.reduce((s, g) => s + Number(g.n), 0), cents: mine.reduce((s, g) => s + Number(g.cents), 0) };
  };
  const count = sum(() => true).count;
  return {
    items: rows.map(toMovement),
    total: count,
    page,
    pageSize,
    next,
    prev,
    totals: {
      byMethod: PAYMENT_METHODS.map((m) => {
        const s = sum((g) => g.method === m);
        return { methodCode: m, methodName: PAYMENT_METHOD_NAMES[m], count: s.count, amount: centsToNumber(s.cents) };
      }),
      byStatus: PAYMENT_STATUSES.map((st) => {
        const s = sum((g) => g.status === st);
        return { status: st, statusLabel: PAYMENT_STATUS_LABELS[st], count: s.count, amount: centsToNumber(s.cents) };
      }),
      // What came in, by the reports' one rule (tally.ts), as Cierres del día and Mi caja count it.
      paid: centsToNumber(
        tallyPayments(groups.map((g) => ({ method: g.method, status: g.status, count: Number(g.n), cents: Number(g.cents) }))).collected.cents,
      ),
      count,
    },
  };
}

const CSV_BATCH = 1000;

/**
 * The whole filtered set as CSV in batches of 1000, written with back-pressure: memory stays flat
 * whatever the size, and the export stops when the client goes away. PostgreSQL reads through a
 * server-side cursor on its own connection. The embedded engine has a single connection that a
 * transaction would hold for the whole download (a slow client would stall every other request),
 * so there each batch is a seek past the last row, in the same order.
 */
export function movementsCsv(ctx: ServiceContext, user: SessionUser, filters: MovementFilters, locale: string): Readable {
  checkBranchFilter(user, filters);
  const dialect = csvDialectFor(locale);
  const out = new PassThrough();
  const where = repo.movementWhere(filters, scopeOf(user));
  let closed = false;
  out.on('close', () => (closed = true));
  const write = (chunk: string) =>
    out.write(chunk)
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            out.off('close', done);
            resolve();
          };
          out.on('drain', done);
          out.on('close', done);
        });
  const writeBatch = (batch: repo.MovementSqlRow[]) => {
    let chunk = '';
    for (const r of batch) chunk += movementCsvLine(toMovement(r), dialect);
    return write(chunk);
  };
  void (async () => {
    try {
      await write(movementCsvPreamble(dialect));
      if (ctx.dbKind === 'postgres') {
        await ctx.readDb.transaction((tx) =>
          repo.movementsThroughCursor(tx, where, CSV_BATCH, async (batch) => {
            await writeBatch(batch);
            return !closed;
          }),
        );
      } else {
        let after: { key: string; id: number } | null = null;
        while (!closed) {
          const batch = await repo.movementBatchAfter(ctx.readDb, where, after, CSV_BATCH);
          if (batch.length > 0) await writeBatch(batch);
          if (batch.length < CSV_BATCH) break;
          const last = batch[batch.length - 1]!;
          after = { key: last.created_at_key, id: Number(last.id) };
        }
      }
      out.end();
    } catch (err) {
      ctx.log.error({ err }, 'movements CSV export failed');
      out.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  })();
  return out;
}
