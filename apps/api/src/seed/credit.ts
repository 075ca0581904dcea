import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { centsToString, collectionSchema, creditAccountSchema, limaDay, periodContaining, toCents } from '@tramo/domain';
import { customers, payments, shipments } from '../db/schema.ts';
import { issuePeriodInvoice, registerCollection, saveAccount } from '../modules/credit/index.ts';
import type { ServiceContext, SessionUser } from '../types.ts';

const HOUR = 3_600_000;

/** Corporate customers given accounts as an admin would; the periodic one is chosen from the data. */
const ACCOUNTS = {
  /** Its factura al crédito of 50 days ago is overdue: no new credit shipment until it pays. */
  overdue: { ruc: '20451239873', terms: 15, period: 'quincenal', contact: ['Lucía Chávez', 'pedidos@muchik.pe', null] },
  /** Its factura al crédito of 21 days ago is beyond the small limit it was given: 'Sobre su límite'. */
  overLimit: { ruc: '20605554441', terms: 30, period: 'mensual', contact: ['Carla Ríos', 'compras@saludtotal.pe', '987445566'] },
} as const;

/** Shipments of a customer that are neither billed nor paid at a counter: what moves to credit. */
const movable = sql`${shipments.status} <> 'Anulado' and ${shipments.paymentMoment} = 'origen' and ${shipments.payerCustomerId} is null
  and not exists (select 1 from ${payments} p where p.shipment_id = ${shipments.id})
  and not exists (select 1 from document_shipments ds where ds.shipment_id = ${shipments.id} and ds.live)`;

/**
 * Demo credit accounts (issue 35), after the demo's register (seedDemoDocuments, whose app and
 * clock this uses), through the credit services, so facturas, allocations and audit rows are what
 * the product makes:
 * - the company with the most unbilled shipments gets a weekly account, its shipments moved to
 *   'Crédito'; an older week is invoiced ('Facturar periodo') and partly collected, and its latest
 *   ended week is left for an admin (or the browser test) to invoice;
 * - an account with an overdue factura, and one over its limit.
 */
export async function seedDemoCredit(
  app: ServiceContext,
  setClock: (at: Date) => void,
  admin: SessionUser,
  log: (msg: string) => void,
): Promise<void> {
  const { db } = app;
  const fixed: string[] = Object.values(ACCOUNTS).map((a) => a.ruc);
  const companies = await db
    .select({ id: customers.id, docNumber: customers.docNumber, email: customers.email, shipments: sql<number>`count(${shipments.id})::int` })
    .from(customers)
    .innerJoin(shipments, and(eq(shipments.senderCustomerId, customers.id), movable))
    .where(and(eq(customers.docType, 6), sql`${customers.docNumber} like '20%'`))
    .groupBy(customers.id)
    .orderBy(desc(sql`count(${shipments.id})`), customers.id);
  const periodic = companies.find((c) => !fixed.includes(c.docNumber));
  const idOf = new Map(
    (await db.select({ id: customers.id, docNumber: customers.docNumber }).from(customers).where(inArray(customers.docNumber, fixed))).map((c) => [
      c.docNumber,
      c.id,
    ]),
  );
  if (!periodic || idOf.size < fixed.length) return;
  const now = Date.now();
  // The day of the first moment set here, not of now: in the first hours of a Lima day the moments
  // below fall on the day before, and a collection received "today" was then a future date (422).
  const start = new Date(now - 3 * HOUR);
  const today = limaDay(start);
  setClock(start);

  const periodicId = periodic.id;
  // Its shipments become credit shipments (as if registered on credit).
  const moved = await db
    .update(shipments)
    .set({ paymentMoment: 'credito', payer: 'remitente' })
    .where(and(eq(shipments.senderCustomerId, periodicId), movable))
    .returning({ price: shipments.quotedPrice, createdAt: shipments.createdAt });
  const movedCents = moved.reduce((s, m) => s + toCents(m.price), 0);

  const open = async (customerId: number, limitCents: number, a: { terms: number; period: string; contact: readonly (string | null)[] }) => {
    const [contactName, contactEmail, contactPhone] = a.contact;
    await saveAccount(
      app,
      admin,
      customerId,
      creditAccountSchema.parse({ limit: centsToString(limitCents), termsDays: a.terms, period: a.period, contactName, contactEmail, contactPhone }),
    );
  };
  // Room for a month more of its shipments.
  await open(periodicId, Math.ceil((movedCents * 2 + 200_000) / 100_000) * 100_000, {
    terms: 30,
    period: 'semanal',
    contact: ['Jorge Salas', periodic.email ?? 'cobranzas@cliente.pe', '987112233'],
  });
  await open(idOf.get(ACCOUNTS.overdue.ruc)!, 300_000, ACCOUNTS.overdue);
  await open(idOf.get(ACCOUNTS.overLimit.ruc)!, 100_000, ACCOUNTS.overLimit);

  // The ended weeks with credit shipments, latest first: the one before the latest is invoiced.
  const weeks = [...new Set(moved.map((m) => periodContaining('semanal', limaDay(m.createdAt)).from))]
    .filter((from) => from < periodContaining('semanal', today).from)
    .sort()
    .reverse();
  const week = weeks[1] ?? weeks[0];
  if (week === undefined) return;
  setClock(new Date(now - 2 * HOUR));
  const invoiced = await issuePeriodInvoice(app, admin, periodicId, {
    ...periodContaining('semanal', week),
    grouping: 'ruta',
    detractionAccount: '00-051-123456',
  });
  const invoice = invoiced.result.ok ? invoiced.result.id : null;
  if (invoice === null) {
    log(`Crédito de demostración sin factura del periodo (${moved.length} envíos a crédito): ${invoiced.result.error ?? ''}`);
    return;
  }
  const [doc] = (await db.execute(sql`select round(total * 100)::bigint as cents from documents where id = ${invoice}`)).rows as { cents: string }[];
  // About 40 % of it, by transfer: the rest stays open, por vencer.
  setClock(new Date(now - HOUR));
  await registerCollection(
    app,
    admin,
    collectionSchema.parse({
      customerId: periodicId,
      receivedOn: today,
      method: 'transferencia',
      amount: centsToString(Math.round((Number(doc!.cents) * 0.4) / 100) * 100),
      bank: 'BCP',
      operationNumber: '00458712',
      note: 'Pago a cuenta de la factura de la semana',
    }),
    'demo-cobro-1',
  );
}
