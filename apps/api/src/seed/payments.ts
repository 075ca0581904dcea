import { sql } from 'drizzle-orm';
import { closingSummary, limaDay, limaDayEnd, toCents, type BillingDocType, type PaymentMethod, type PaymentStatus } from '@tramo/domain';
import type { Db } from '../db/client.ts';
import { auditLog, cashSessions, customers, paymentMovements, payments, shipments, users } from '../db/schema.ts';
import { random } from './shipments.ts';
import { seedReceipts, type ChargedPayment, type DemoReceiptOptions } from './receipts.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** How often each method is used at the counter (cash first, then the wallets and the POS). */
const METHOD_WEIGHTS: [PaymentMethod, number][] = [
  ['cash', 40],
  ['yape_qr', 18],
  ['card_pos', 15],
  ['plin_qr', 10],
  ['bank_transfer', 10],
  ['card_online', 7],
];
const FLOATS_CENTS = [10_000, 15_000, 20_000];
/** The two closings whose drawer did not match (the 3rd and 8th most recent before today; céntimos): one short, one over. */
const DIFFERENCES = new Map([
  [2, -250],
  [7, 100],
]);
const RECEIPT_ERRORS = ['El servicio de SUNAT no respondió a tiempo; reintente el envío.', 'No se pudo conectar con el proveedor de facturación.'];

/** What became of a shipment's payment at the origin counter, by a roll of the dice. */
function counterOutcome(status: string, r: number): 'paid' | 'pending' | 'repaid' | 'voided' | null {
  if (status === 'Anulado') return r < 0.6 ? 'voided' : null;
  return r < 0.72 ? 'paid' : r < 0.77 ? 'pending' : r < 0.84 ? 'repaid' : null;
}

type Staff = { id: number; name: string; branchId: number | null };
type Event = { kind: 'cobro' | 'anulacion'; at: Date; amountCents: number };
interface PlannedPayment {
  row: Omit<typeof payments.$inferInsert, 'cashSessionId'>;
  session: string;
  moves: Event[];
}
interface PlannedSession {
  user: Staff;
  day: string;
  first: number;
  last: number;
  payments: PlannedPayment[];
}

/**
 * Demo payments (issue #14): the counter's takings over the demo shipments' 60 days, in every
 * method and status, each in the cash session of the staff member who took it (one a day each,
 * opened with a float and closed after the last payment, two of them with a small difference), with
 * the ledger rows and audit rows the payments service writes. Inserted directly inside the demo
 * seed's transaction, so the first start stays fast and processes started together seed them once.
 *
 * - Receipts: every payment that was charged has its boleta or factura (seedReceipts), voided with
 *   the payment when it was voided after paying: `npm run check:ledger` finds nothing on the demo
 *   (issue 31). A past payment left pending is one whose receipt failed (its last error kept, no
 *   document); it can be retried or voided from /pagos.
 * - Open balances: companies (RUC 20…) buy on credit, billed by factura, never paid at the counter;
 *   about one walk-in shipment in six is unpaid too.
 * - Today: shipments still Creado are left unpaid (the /pagos list and the e2e collect them), and
 *   no session stays open, so an agent opens today's own.
 */
export async function seedPayments(db: Db, receipts: DemoReceiptOptions, nowMs = Date.now()): Promise<number> {
  const rnd = random(20240614);
  const now = new Date(nowMs);
  const today = limaDay(now);
  const staffRows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, branchId: users.branchId, role: users.role })
    .from(users);
  const staff = new Map<number, Staff>(
    staffRows
      .filter((u) => u.role !== 'courier')
      .map((u) => [u.id, { id: u.id, name: [u.firstName, u.lastName].filter(Boolean).join(' '), branchId: u.branchId }]),
  );
  const admin = staffRows.find((u) => u.role === 'admin');
  if (!admin) return 0;
  const customerRows = await db
    .select({
      id: customers.id,
      docType: customers.docType,
      docNumber: customers.docNumber,
      firstName: customers.firstName,
      lastName: customers.lastName,
      address: customers.address,
      email: customers.email,
    })
    .from(customers);
  const customerOf = new Map(customerRows.map((c) => [c.id, c]));
  const list = await db
    .select({
      id: shipments.id,
      code: shipments.code,
      status: shipments.status,
      createdAt: shipments.createdAt,
      createdBy: shipments.createdBy,
      originBranchId: shipments.originBranchId,
      senderCustomerId: shipments.senderCustomerId,
      senderName: shipments.senderName,
      quotedPrice: shipments.quotedPrice,
      destinationBranchId: shipments.destinationBranchId,
      paymentMoment: shipments.paymentMoment,
      recipientDoc: shipments.recipientDoc,
      recipientName: shipments.recipientName,
      deliveredInfo: shipments.deliveredInfo,
    })
    .from(shipments)
    .orderBy(shipments.createdAt, shipments.id);

  const totalWeight = METHOD_WEIGHTS.reduce((s, [, w]) => s + w, 0);
  const method = (): PaymentMethod => {
    let r = rnd.next() * totalWeight;
    for (const [m, w] of METHOD_WEIGHTS) if ((r -= w) < 0) return m;
    return 'cash';
  };
  const digits = (n: number) => Array.from({ length: n }, () => rnd.int(0, 9)).join('');
  const voucher = (m: PaymentMethod): string | null =>
    m === 'cash'
      ? null
      : m === 'card_pos'
        ? `POS-${digits(6)}`
        : m === 'bank_transfer'
          ? `OP-${digits(8)}`
          : m === 'card_online'
            ? `ch_${rnd.int(0x10000000, 0x7fffffff).toString(16)}${digits(4)}`
            : digits(8);

  const agents = staffRows.filter((u) => u.role === 'agent');
  const destinationAgent = (branchId: number) => {
    const agent = agents.find((u) => u.branchId === branchId);
    return agent ? staff.get(agent.id) : undefined;
  };
  const sessions = new Map<string, PlannedSession>();
  const planned: PlannedPayment[] = [];
  for (const s of list) {
    // Pago en destino (issue 33): collected by the destination's agent when the parcel was handed over, else still owed there.
    const atDestination = s.paymentMoment === 'destino';
    const deliveredAt = (s.deliveredInfo as { deliveredAt?: string } | null)?.deliveredAt;
    const collector = atDestination ? destinationAgent(s.destinationBranchId) : undefined;
    if (atDestination && !(s.status === 'Entregado' && deliveredAt && collector)) continue;
    // At the destination the money comes in minutes before the parcel goes out.
    const created = atDestination ? new Date(deliveredAt!).getTime() - rnd.int(25, 60) * MINUTE : s.createdAt.getTime();
    const day = limaDay(new Date(created));
    if (day === today && s.status === 'Creado') continue;
    const customer = s.senderCustomerId ? customerOf.get(s.senderCustomerId) : undefined;
    if (!atDestination && customer?.docType === 6 && customer.docNumber.startsWith('20')) continue;
    const r = rnd.next();
    const outcome = atDestination ? 'paid' : counterOutcome(s.status, r);
    if (!outcome) continue;

    const user = collector ?? staff.get(s.createdBy ?? -1) ?? staff.get(admin.id)!;
    const payer = atDestination
      ? { customerId: null, customerDocType: 1, customerDocNumber: s.recipientDoc, customerName: s.recipientName }
      : customer && (customer.docType === 1 || customer.docType === 6)
        ? {
            customerId: customer.id,
            customerDocType: customer.docType,
            customerDocNumber: customer.docNumber,
            customerName: [customer.firstName, customer.lastName].filter(Boolean).join(' '),
          }
        : { customerId: null, customerDocType: 1, customerDocNumber: String(rnd.int(10_000_000, 79_999_999)), customerName: s.senderName };
    // Everything happens on the shipment's day (Lima), at the counter, before now.
    const latest = Math.min(limaDayEnd(day).getTime() - 10 * MINUTE, nowMs - 2 * MINUTE);
    let t = Math.min(created + rnd.int(2, 20) * MINUTE, latest);
    const sessionKey = `${user.id}|${day}`;
    const take = (status: PaymentStatus, m: PaymentMethod, extra: Partial<PlannedPayment['row']> = {}): PlannedPayment => {
      const createdAt = new Date(t);
      const p: PlannedPayment = {
        session: sessionKey,
        moves: [],
        row: {
          shipmentId: s.id,
          status,
          method: m,
          amountCents: toCents(s.quotedPrice),
          currency: 'PEN',
          providerTxId: voucher(m),
          ...payer,
          branchId: atDestination ? s.destinationBranchId : (user.branchId ?? s.originBranchId),
          userId: user.id,
          userName: user.name,
          createdAt,
          updatedAt: createdAt,
          ...extra,
        },
      };
      if (status !== 'pending') {
        // The receipt took a few seconds; then the payment was confirmed and charged.
        const paidAt = new Date(t + rnd.int(3, 40) * 1000);
        p.row.paidAt = paidAt;
        p.row.updatedAt = paidAt;
        p.moves.push({ kind: 'cobro', at: paidAt, amountCents: p.row.amountCents });
      }
      planned.push(p);
      return p;
    };
    const cancel = (p: PlannedPayment, reason: string) => {
      t = Math.min(t + rnd.int(5, 90) * MINUTE, latest);
      const at = new Date(Math.max(t, (p.row.paidAt ?? p.row.createdAt!).getTime() + 1000));
      t = at.getTime();
      p.row.status = 'canceled';
      p.row.canceledAt = at;
      p.row.cancelReason = reason;
      p.row.updatedAt = at;
      // The reversal of what was charged (nothing when it was never paid), as the service records it.
      p.moves.push({ kind: 'anulacion', at, amountCents: -(p.moves[0]?.amountCents ?? 0) });
    };

    if (outcome === 'paid') take('paid', method());
    else if (outcome === 'pending') take('pending', method(), { lastError: rnd.pick(RECEIPT_ERRORS) });
    else if (outcome === 'voided') {
      const wasPaid = rnd.next() < 0.7;
      const p = take(wasPaid ? 'paid' : 'pending', method(), wasPaid ? {} : { lastError: rnd.pick(RECEIPT_ERRORS) });
      cancel(p, 'ENVÍO ANULADO A PEDIDO DEL CLIENTE');
    } else {
      const first = take('paid', method());
      cancel(first, rnd.next() < 0.5 ? 'ERROR EN EL MÉTODO DE PAGO' : 'ERROR DEL SISTEMA');
      t = Math.min(t + rnd.int(1, 5) * MINUTE, latest);
      let again = method();
      while (again === first.row.method) again = method();
      take('paid', again);
    }
    const mine = planned.filter((p) => p.row.shipmentId === s.id);
    const times = mine.flatMap((p) => [p.row.createdAt!.getTime(), ...p.moves.map((m) => m.at.getTime())]);
    const session = sessions.get(sessionKey) ?? { user, day, first: Infinity, last: -Infinity, payments: [] };
    session.first = Math.min(session.first, ...times);
    session.last = Math.max(session.last, ...times);
    session.payments.push(...mine);
    sessions.set(sessionKey, session);
  }
  if (planned.length === 0) return 0;

  // Sessions: opened a while before the first payment, closed after the last (never open now).
  const ordered = [...sessions.entries()].sort((a, b) => a[1].first - b[1].first);
  const past = ordered.filter(([, s]) => s.day !== today).reverse();
  const differenceOf = new Map(past.map(([key], i) => [key, DIFFERENCES.get(i) ?? 0]));
  const sessionRows = ordered.map(([key, s]) => {
    const dayStart = limaDayEnd(s.day).getTime() - 24 * HOUR;
    const openedAt = new Date(Math.max(dayStart + MINUTE, s.first - rnd.int(10, 45) * MINUTE));
    const closedAt = new Date(Math.min(s.last + rnd.int(15, 60) * MINUTE, limaDayEnd(s.day).getTime() - MINUTE, nowMs - MINUTE));
    const floatCents = rnd.pick(FLOATS_CENTS);
    const entries = s.payments.flatMap((p) => p.moves.map((m) => ({ method: p.row.method as PaymentMethod, amountCents: m.amountCents })));
    const expectedCash = closingSummary(floatCents, entries, { cashCents: 0 }).lines[0]!.expectedCents;
    // Two recent drawers were off by a little (the float is always there to go short from); every other matched.
    const cashCents = expectedCash + (differenceOf.get(key) ?? 0);
    return {
      values: {
        userId: s.user.id,
        userName: s.user.name,
        branchId: s.user.branchId ?? s.payments[0]!.row.branchId!,
        openedAt,
        floatCents,
        closedAt,
        countedCashCents: cashCents,
        closing: { cashCents, byMethod: {} },
        closedBy: s.user.id,
      },
      differenceCents: closingSummary(floatCents, entries, { cashCents }).differenceCents,
    };
  });
  const sessionIds = new Map<string, number>();
  for (let i = 0; i < sessionRows.length; i += 200) {
    const ids = await db
      .insert(cashSessions)
      .values(sessionRows.slice(i, i + 200).map((r) => r.values))
      .returning({ id: cashSessions.id });
    ids.forEach((row, j) => sessionIds.set(ordered[i + j]![0], row.id));
  }

  planned.sort((a, b) => a.row.createdAt!.getTime() - b.row.createdAt!.getTime());
  // The payments' ids first: each receipt is issued under its payment's key (receiptKey), and each payment is stored with its receipt.
  const reserved = await db.execute(
    sql`select nextval(pg_get_serial_sequence('payments', 'id'))::int as id from generate_series(1, ${planned.length}) order by 1`,
  );
  const paymentIds = (reserved.rows as { id: number }[]).map((r) => r.id);
  const codeOf = new Map(list.map((s) => [s.id, s.code]));
  const charged: ChargedPayment[] = planned.flatMap((p, i) => {
    if (!p.row.paidAt) return [];
    const c = p.row.customerId ? customerOf.get(p.row.customerId) : undefined;
    return [
      {
        paymentId: paymentIds[i]!,
        shipmentCode: codeOf.get(p.row.shipmentId)!,
        amountCents: p.row.amountCents,
        discountCents: p.row.discountCents ?? 0,
        discountReason: p.row.discountReason ?? null,
        customerId: p.row.customerId ?? null,
        customer: {
          docType: p.row.customerDocType as BillingDocType,
          docNumber: p.row.customerDocNumber!,
          name: p.row.customerName!,
          address: c?.address ?? null,
          email: c?.email ?? null,
        },
        branchId: p.row.branchId!,
        userId: p.row.userId!,
        userName: p.row.userName!,
        // The receipt is issued a second after the payment is stored, and confirmed once it is.
        issuedAt: new Date(p.row.createdAt!.getTime() + 1000),
        canceled: p.row.canceledAt ? { at: p.row.canceledAt, reason: p.row.cancelReason! } : null,
      },
    ];
  });
  const documentOf = await seedReceipts(db, charged, receipts, now);
  for (let i = 0; i < planned.length; i += 200) {
    await db.insert(payments).values(
      planned.slice(i, i + 200).map((p, j) => ({
        ...p.row,
        id: paymentIds[i + j]!,
        documentId: documentOf.get(paymentIds[i + j]!) ?? null,
        cashSessionId: sessionIds.get(p.session)!,
      })),
    );
  }

  const moves = planned.flatMap((p, i) =>
    p.moves.map((m) => ({
      paymentId: paymentIds[i]!,
      kind: m.kind,
      method: p.row.method,
      amountCents: m.amountCents,
      cashSessionId: sessionIds.get(p.session)!,
      userId: p.row.userId,
      at: m.at,
    })),
  );
  for (let i = 0; i < moves.length; i += 500) await db.insert(paymentMovements).values(moves.slice(i, i + 500));

  // The audit trail the service leaves: each session's open and close, each payment's create, confirm and cancel.
  const audits: (typeof auditLog.$inferInsert)[] = [];
  ordered.forEach(([key, s], i) => {
    const { values, differenceCents } = sessionRows[i]!;
    const entityId = String(sessionIds.get(key)!);
    audits.push({
      at: values.openedAt,
      userId: s.user.id,
      entity: 'cash_session',
      entityId,
      action: 'open',
      after: { floatCents: values.floatCents },
    });
    audits.push({
      at: values.closedAt,
      userId: s.user.id,
      entity: 'cash_session',
      entityId,
      action: 'close',
      after: { countedCashCents: values.countedCashCents, differenceCents },
    });
  });
  planned.forEach((p, i) => {
    const entityId = String(paymentIds[i]!);
    const base = { userId: p.row.userId, entity: 'payment', entityId };
    const cashSessionId = sessionIds.get(p.session)!;
    audits.push({
      ...base,
      at: p.row.createdAt!,
      action: 'create',
      after: { shipmentId: p.row.shipmentId, amountCents: p.row.amountCents, method: p.row.method, cashSessionId },
    });
    if (p.row.paidAt)
      audits.push({
        ...base,
        at: p.row.paidAt,
        action: 'confirm',
        before: { status: 'pending' },
        after: { status: 'paid', documentId: documentOf.get(paymentIds[i]!) ?? null },
      });
    if (p.row.canceledAt)
      audits.push({
        ...base,
        at: p.row.canceledAt,
        action: 'cancel',
        before: { status: p.row.paidAt ? 'paid' : 'pending' },
        after: { status: 'canceled', reason: p.row.cancelReason },
      });
  });
  for (let i = 0; i < audits.length; i += 500) await db.insert(auditLog).values(audits.slice(i, i + 500));
  return planned.length;
}
