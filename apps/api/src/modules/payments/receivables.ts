import {
  centsToNumber,
  limaDay,
  paidPill,
  PAYMENT_MESSAGES,
  scopeOf,
  toCents,
  type DestinationDue,
  type DestinationReceivables,
  type Payer,
  type PaymentMoment,
  type PaymentStatus,
} from '@tramo/domain';
import { notFound } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { iso, num, str } from './access.ts';
import * as repo from './queries/receivables.ts';

/** What is left to collect: today's shipments at the counter, open balances per sender, and the customer lookup of the payment modal. */

export async function shipmentsToCollect(
  ctx: ServiceContext,
  user: SessionUser,
  page: number,
  pageSize: number,
  at: 'origin' | 'destination' = 'origin',
) {
  const { rows, total } = await repo.shipmentsToCollect(ctx.db, scopeOf(user), limaDay(ctx.now()), page, pageSize, at);
  return {
    items: rows.map((r) => {
      const paymentStatus = (r.payment_status as PaymentStatus | null) ?? null;
      return {
        id: Number(r.id),
        code: String(r.code),
        status: String(r.status),
        senderName: String(r.sender_name),
        senderCustomerId: num(r.sender_customer_id),
        senderDocType: num(r.sender_doc_type),
        senderDoc: str(r.sender_doc),
        recipientName: String(r.recipient_name),
        recipientDoc: String(r.recipient_doc),
        originBranchId: Number(r.origin_branch_id),
        destinationBranchId: Number(r.destination_branch_id),
        originBranch: { name: String(r.origin_name) },
        destinationBranch: { name: String(r.destination_name) },
        createdAt: iso(r.created_at as string)!,
        quotedPrice: centsToNumber(toCents(String(r.quoted_price))),
        quotedCurrency: String(r.quoted_currency),
        weightKg: Number(r.weight_kg),
        productType: String(r.product_type),
        description: str(r.description),
        paid: paymentStatus === 'paid',
        pill: paidPill(paymentStatus === 'paid'),
        paymentId: num(r.payment_id),
        paymentStatus,
        payer: String(r.payer) as Payer,
        paymentMoment: String(r.payment_moment) as PaymentMoment,
        payerDocType: num(r.payer_doc_type),
        payerDocNumber: str(r.payer_doc_number),
        payerName: str(r.payer_name),
      };
    }),
    total,
    page,
    pageSize,
  };
}

const customerAnswer = (c: NonNullable<Awaited<ReturnType<typeof repo.findCustomer>>>) => ({
  id: c.id,
  doc_type: c.docType,
  doc_number: c.docNumber,
  name: [c.firstName, c.lastName].filter(Boolean).join(' '),
  first_name: c.firstName,
  last_name: c.lastName,
  address: c.address,
  email: c.email,
});

export async function lookupCustomers(ctx: ServiceContext, q: string | undefined) {
  return (await repo.searchCustomers(ctx.db, q)).map(customerAnswer);
}

export async function customerById(ctx: ServiceContext, id: number) {
  const c = await repo.findCustomer(ctx.db, id);
  if (!c) throw notFound(PAYMENT_MESSAGES.customerNotFound);
  return customerAnswer(c);
}

export async function receivables(ctx: ServiceContext, user: SessionUser, q: string | undefined) {
  const rows = await repo.receivables(ctx.readDb, scopeOf(user), q);
  const items = rows.map((r) => ({
    customer_key: r.key,
    customer_id: num(r.customer_id),
    customer_name: r.name,
    customer_doc: r.doc_number,
    shipments_count: Number(r.shipments_count),
    open_amount: centsToNumber(toCents(r.open_amount)),
    currency: 'PEN' as const,
    last_shipment_at: iso(r.last_shipment_at)!,
  }));
  const totalOpen = rows.reduce((s, r) => s + toCents(r.open_amount), 0);
  return { items, total: items.length, totalOpen: centsToNumber(totalOpen) };
}

/** Cuentas por cobrar → 'Por cobrar en destino': the balance per destination branch (issue 33), read from the replica like the rest. */
export async function destinationReceivables(ctx: ServiceContext, user: SessionUser): Promise<DestinationReceivables> {
  const rows = await repo.destinationReceivables(ctx.readDb, scopeOf(user));
  const items = rows.map((r) => ({
    branchId: Number(r.branch_id),
    branchName: r.branch_name,
    shipmentsCount: Number(r.n),
    openAmount: centsToNumber(toCents(r.open_amount)),
    waitingCount: Number(r.waiting_n),
    waitingAmount: centsToNumber(toCents(r.waiting_amount)),
  }));
  return {
    items,
    shipmentsCount: items.reduce((n, r) => n + r.shipmentsCount, 0),
    totalOpen: centsToNumber(rows.reduce((c, r) => c + toCents(r.open_amount), 0)),
  };
}

/** The Panel's 'Por cobrar en destino': what /pagos lists to collect at the agent's branch (an admin: every branch). */
export async function destinationDue(ctx: ServiceContext, user: SessionUser): Promise<DestinationDue> {
  const rows = await repo.destinationReceivables(ctx.readDb, scopeOf(user));
  return {
    branchName: user.role === 'admin' ? null : (rows[0]?.branch_name ?? user.branchName ?? null),
    count: rows.reduce((n, r) => n + Number(r.due_n), 0),
    amount: centsToNumber(rows.reduce((c, r) => c + toCents(r.due_amount), 0)),
    waitingCount: rows.reduce((n, r) => n + Number(r.waiting_n), 0),
  };
}
