import { sql } from 'drizzle-orm';
import { AGEING_BUCKETS, ageingBucket, ageingTotals, centsToNumber, emptyAgeing, limaDay, toCents, type AgeingTotals } from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import type { ServiceContext } from '../../types.ts';
import { invoiceOpen } from './accounts.ts';
import * as repo from './repository.ts';

const money = (t: AgeingTotals) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, centsToNumber(v)])) as Record<keyof AgeingTotals, number>;

/**
 * The branch a factura's debt belongs to: the branch that issued it, else (an admin without a
 * branch issued it, as 'Facturar periodo' does) the branch where its first shipment originated.
 */
async function invoiceBranches(db: Db, documentIds: number[]): Promise<Map<number, { id: number | null; name: string }>> {
  if (documentIds.length === 0) return new Map();
  const result = await db.execute(sql`
    select d.id, b.id as branch_id, b.name as branch_name
    from documents d
    left join lateral (
      select s.origin_branch_id from document_shipments ds join shipments s on s.id = ds.shipment_id
      where ds.document_id = d.id and ds.role = 'comprobante' order by s.id limit 1
    ) first_shipment on true
    left join branches b on b.id = coalesce(d.branch_id, first_shipment.origin_branch_id)
    where d.id in (${sql.join(
      documentIds.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  return new Map(
    (result.rows as Record<string, unknown>[]).map((r) => [
      Number(r.id),
      r.branch_id === null ? { id: null, name: 'Sin sucursal' } : { id: Number(r.branch_id), name: String(r.branch_name) },
    ]),
  );
}

/**
 * GET /credit/ageing: open facturas per account in ageing buckets (Lima days), the account's
 * balance against its limit, and the totals of the accounts shown for the company and per branch.
 */
export async function ageing(ctx: ServiceContext, options: { overLimitOnly?: boolean } = {}) {
  const db = ctx.readDb;
  const today = limaDay(ctx.now());
  const accounts = await repo.accounts(db);
  // Three statements for all the accounts, not three per account (issue 37).
  const ids = accounts.map((a) => a.customerId);
  const [invoicesByDoc, uninvoiced, unappliedByCustomer] = await Promise.all([
    repo.invoicesOfMany(db, accounts, { openOnly: true }),
    repo.uninvoicedCentsOfMany(db, ids),
    repo.unappliedCentsOfMany(db, ids),
  ]);
  const items = accounts.map((a) => {
    const open = (invoicesByDoc.get(a.docNumber) ?? []).map((i) => ({ id: i.id, dueDate: i.dueDate, openCents: invoiceOpen(i) }));
    const buckets = ageingTotals(open, today);
    const balanceCents = buckets.total + (uninvoiced.get(a.customerId) ?? 0) - (unappliedByCustomer.get(a.customerId) ?? 0);
    const limitCents = toCents(a.creditLimit);
    return { a, open, buckets, balanceCents, overLimit: balanceCents > limitCents, limitCents };
  });
  const shown = options.overLimitOnly ? items.filter((i) => i.overLimit) : items;
  const totals = emptyAgeing();
  for (const i of shown) for (const b of [...AGEING_BUCKETS, 'total' as const]) totals[b] += i.buckets[b];
  const branchOf = await invoiceBranches(
    db,
    shown.flatMap((i) => i.open.map((o) => o.id)),
  );
  const perBranch = new Map<string, { branchId: number | null; branchName: string; totals: AgeingTotals }>();
  for (const invoice of shown.flatMap((i) => i.open)) {
    const branch = branchOf.get(invoice.id) ?? { id: null, name: 'Sin sucursal' };
    const key = String(branch.id);
    const entry = perBranch.get(key) ?? { branchId: branch.id, branchName: branch.name, totals: emptyAgeing() };
    entry.totals[ageingBucket(invoice.dueDate, today)] += invoice.openCents;
    entry.totals.total += invoice.openCents;
    perBranch.set(key, entry);
  }
  return {
    items: shown.map((i) => ({
      customerId: i.a.customerId,
      customerName: i.a.customerName,
      docNumber: i.a.docNumber,
      limit: centsToNumber(i.limitCents),
      balance: centsToNumber(i.balanceCents),
      overLimit: i.overLimit,
      ...money(i.buckets),
    })),
    totals: money(totals),
    branches: [...perBranch.values()]
      .sort((x, y) => x.branchName.localeCompare(y.branchName, 'es'))
      .map((b) => ({ branchId: b.branchId, branchName: b.branchName, ...money(b.totals) })),
  };
}
