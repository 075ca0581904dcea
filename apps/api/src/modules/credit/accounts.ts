import {
  accountBalanceCents,
  ageingBucket,
  anyOverdue,
  centsToNumber,
  CREDIT_MESSAGES,
  creditRefusal,
  invoiceOpenCents,
  limaDay,
  toCents,
  type CreditAccountValues,
  type CreditPosition,
  type CreditRefusal,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import * as repo from './repository.ts';

const ledgerOf = (i: repo.InvoiceRow) => ({
  totalCents: i.totalCents,
  creditedCents: i.creditedCents,
  collectedCents: i.collectedCents,
  detractionCents: i.detractionCents,
  detractionDeposited: i.deposit !== null,
});

export const invoiceOpen = (i: repo.InvoiceRow) => invoiceOpenCents(ledgerOf(i));

/** An account's standing today from its parts: its balance, and whether an invoice is overdue. */
function standingFrom(invoices: repo.InvoiceRow[], uninvoicedCents: number, unapplied: number, today: string) {
  const balanceCents = accountBalanceCents({
    uninvoicedShipmentsCents: uninvoicedCents,
    invoices: invoices.map(ledgerOf),
    unappliedCents: unapplied,
  });
  const overdue = anyOverdue(
    invoices.map((i) => ({ dueDate: i.dueDate, openCents: invoiceOpen(i) })),
    today,
  );
  return { invoices, unapplied, uninvoicedCents, balanceCents, overdue };
}

/** One account's standing today, with the credit shipments no factura carries yet. */
async function standing(db: Db | Tx, account: repo.AccountRow, today: string) {
  const [invoices, shipments, unapplied] = await Promise.all([
    repo.invoicesOf(db, account.docNumber, account.termsDays),
    repo.uninvoicedShipments(db, account.customerId),
    repo.unappliedCents(db, account.customerId),
  ]);
  const uninvoicedCents = shipments.reduce((s, x) => s + x.cents, 0);
  return { ...standingFrom(invoices, uninvoicedCents, unapplied, today), shipments };
}

/**
 * One account's balance and overdue today from what is open now (the sets migration 0101 keeps), not
 * its years of facturas, shipments and collections: what a credit shipment is judged against, and
 * what the counter is shown (issue 37). The same parts as the list of accounts reads.
 */
async function openStanding(db: Db | Tx, account: repo.AccountRow, today: string) {
  const [invoices, uninvoiced, unapplied] = await Promise.all([
    repo.invoicesOfMany(db, [account], { openOnly: true }),
    repo.uninvoicedCentsOfMany(db, [account.customerId]),
    repo.unappliedCentsOfMany(db, [account.customerId]),
  ]);
  return standingFrom(invoices.get(account.docNumber) ?? [], uninvoiced.get(account.customerId) ?? 0, unapplied.get(account.customerId) ?? 0, today);
}

function accountAnswer(account: repo.AccountRow, s: ReturnType<typeof standingFrom>) {
  const limitCents = toCents(account.creditLimit);
  return {
    customerId: account.customerId,
    customerName: account.customerName,
    docNumber: account.docNumber,
    limit: centsToNumber(limitCents),
    termsDays: account.termsDays,
    period: account.period as CreditAccountValues['period'],
    status: account.status as CreditAccountValues['status'],
    contactName: account.contactName,
    contactEmail: account.contactEmail,
    contactPhone: account.contactPhone,
    balance: centsToNumber(s.balanceCents),
    available: centsToNumber(Math.max(limitCents - s.balanceCents, 0)),
    uninvoiced: centsToNumber(s.uninvoicedCents),
    unapplied: centsToNumber(s.unapplied),
    overdue: s.overdue,
  };
}

export async function listAccounts(ctx: ServiceContext) {
  const today = limaDay(ctx.now());
  const rows = await repo.accounts(ctx.readDb);
  // Three statements for all the accounts, not three per account, each over what is open now, not
  // every factura, shipment and collection of the accounts' years (issue 37). A factura with nothing
  // open adds nothing to the balance (the ledger's credit_invoice_balance: never below zero).
  const ids = rows.map((a) => a.customerId);
  const [invoices, uninvoiced, unapplied] = await Promise.all([
    repo.invoicesOfMany(ctx.readDb, rows, { openOnly: true }),
    repo.uninvoicedCentsOfMany(ctx.readDb, ids),
    repo.unappliedCentsOfMany(ctx.readDb, ids),
  ]);
  return rows.map((a) =>
    accountAnswer(a, standingFrom(invoices.get(a.docNumber) ?? [], uninvoiced.get(a.customerId) ?? 0, unapplied.get(a.customerId) ?? 0, today)),
  );
}

export async function accountDetail(ctx: ServiceContext, customerId: number, db: Db = ctx.db) {
  const account = await repo.accountOf(db, customerId);
  if (!account) throw notFound(CREDIT_MESSAGES.accountNotFound);
  const today = limaDay(ctx.now());
  const s = await standing(db, account, today);
  const collections = await repo.collectionsOf(db, customerId);
  return {
    ...accountAnswer(account, s),
    invoices: s.invoices.map((i) => ({
      id: i.id,
      number: `${i.series}-${i.number}`,
      issueDate: i.issueDate,
      dueDate: i.dueDate,
      total: centsToNumber(i.totalCents),
      credited: centsToNumber(i.creditedCents),
      collected: centsToNumber(i.collectedCents),
      detraction: centsToNumber(i.detractionCents),
      detractionStatus: i.detractionCents > 0 ? (i.deposit ? ('depositada' as const) : ('pendiente' as const)) : null,
      constancia: i.deposit?.constancia ?? null,
      open: centsToNumber(invoiceOpen(i)),
      bucket: ageingBucket(i.dueDate, today),
    })),
    collections: collections.map((c) => {
      const applied = c.allocations.filter((a) => a.live).reduce((sum, a) => sum + toCents(a.amount), 0);
      return {
        id: c.id,
        receivedOn: c.receivedOn,
        method: c.method as 'transferencia',
        amount: centsToNumber(toCents(c.amount)),
        bank: c.bank,
        operationNumber: c.operationNumber,
        note: c.note,
        status: c.status as 'vigente' | 'anulado',
        voidReason: c.voidReason,
        applied: centsToNumber(applied),
        unapplied: centsToNumber(c.status === 'vigente' ? toCents(c.amount) - applied : 0),
        allocations: c.allocations.filter((a) => a.live).map((a) => ({ documentId: a.documentId, amount: centsToNumber(toCents(a.amount)) })),
        createdByName: c.createdByName,
      };
    }),
    shipments: s.shipments.map((x) => ({
      id: x.id,
      code: x.code,
      createdAt: x.createdAt.toISOString(),
      route: x.route,
      amount: centsToNumber(x.cents),
    })),
  };
}

/** PUT /credit/accounts/{customerId}: opens or changes a RUC customer's account (admin; audited). */
export async function saveAccount(ctx: ServiceContext, actor: SessionUser, customerId: number, data: CreditAccountValues) {
  await ctx.db.transaction(async (tx) => {
    const customer = await repo.customerById(tx, customerId);
    if (!customer) throw notFound('Cliente no encontrado.');
    if (customer.docType !== 6) throw unprocessable(CREDIT_MESSAGES.rucOnly, { customerId: CREDIT_MESSAGES.rucOnly });
    const before = await repo.accountOf(tx, customerId, true);
    const values = {
      creditLimit: data.limit.toFixed(2),
      termsDays: data.termsDays,
      period: data.period,
      status: data.status,
      contactName: data.contactName,
      contactEmail: data.contactEmail,
      contactPhone: data.contactPhone,
      updatedAt: ctx.now(),
      updatedBy: actor.id,
    };
    if (before) await repo.updateAccount(tx, customerId, values);
    else await repo.insertAccount(tx, { customerId, ...values });
    await audit(tx, {
      userId: actor.id,
      entity: 'credit_account',
      entityId: customerId,
      action: before ? 'update' : 'create',
      before: before ? { limit: before.creditLimit, termsDays: before.termsDays, period: before.period, status: before.status } : null,
      after: { limit: values.creditLimit, termsDays: values.termsDays, period: values.period, status: values.status },
    });
  });
  return accountDetail(ctx, customerId);
}

/**
 * Can `customerId` take a credit shipment of `amountCents` now? Called in the shipment's own
 * transaction with the account locked, so two shipments of one customer are judged one after the
 * other against the balance. Null = yes.
 */
export async function creditShipmentRefusal(tx: Tx, customerId: number | null, amountCents: number, now: Date): Promise<CreditRefusal | null> {
  const account = customerId === null ? null : await repo.accountOf(tx, customerId, true);
  if (!account) return creditRefusal(null, amountCents);
  const s = await openStanding(tx, account, limaDay(now));
  const position: CreditPosition = {
    status: account.status as CreditPosition['status'],
    limitCents: toCents(account.creditLimit),
    balanceCents: s.balanceCents,
    hasOverdue: s.overdue,
  };
  return creditRefusal(position, amountCents);
}

/** Does the customer have an active account? (The form shows 'Crédito' only then.) */
export async function hasActiveAccount(db: Db | Tx, customerId: number | null): Promise<boolean> {
  if (customerId === null) return false;
  const account = await repo.accountOf(db, customerId);
  return account?.status === 'activa';
}

/** GET /credit/customers/{id}/status: the counter's view of a customer's credit (no balances of others). */
export async function creditStatus(ctx: ServiceContext, customerId: number) {
  const account = await repo.accountOf(ctx.db, customerId);
  if (!account || account.status !== 'activa') return { active: false, available: null, overdue: false };
  const s = await openStanding(ctx.db, account, limaDay(ctx.now()));
  return { active: true, available: centsToNumber(Math.max(toCents(account.creditLimit) - s.balanceCents, 0)), overdue: s.overdue };
}
