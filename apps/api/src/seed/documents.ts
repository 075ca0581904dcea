import { count, eq, inArray, sql } from 'drizzle-orm';
import {
  centsToString,
  creditNoteFrom,
  customerFields,
  emptyInvoiceForm,
  invoiceFromShipments,
  invoicePayloadFromForm,
  invoicePayloadSchema,
  limaDay,
  limaDayStart,
  previewTotals,
  type FormCustomerSource,
  type InvoiceFormValues,
} from '@tramo/domain';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { customers, documents, settings, users } from '../db/schema.ts';
import { createAndEmit, findDocument, lookupDocument, syncDocument, unbilledShipments, voidDocument, voidStatus } from '../modules/billing/index.ts';
import { loadSessionUser } from '../plugins/auth.ts';
import type { SessionUser } from '../types.ts';
import { seedDemoCredit } from './credit.ts';

/** Marks, in settings, that one process took the demo documents on (processes started together seed them once). */
export const DEMO_DOCUMENTS_KEY = 'demo_documents';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Who = 'ADMIN' | 'AGENTE1' | 'AGENTE2';

/** What the demo register holds, oldest first: day (days ago in Lima), hour, who issues it, and what. */
type Plan =
  | { kind: 'shipments'; daysAgo: number; hour: number; who: Who; ruc: string; take: number; void?: { daysLater: number; reason: string } }
  | { kind: 'boleta'; daysAgo: number; hour: number; who: Who; dni: string; lines: [string, string][]; pending?: boolean }
  | { kind: 'factura'; daysAgo: number; hour: number; who: Who; ruc: string; lines: [string, string][]; credit?: boolean; label?: string }
  | { kind: 'credit-note'; daysAgo: number; hour: number; who: Who; of: string; reason: string };

/** Lines are [description, unit value without IGV]; all gravado (IGV 18 %). */
const PLAN: Plan[] = [
  // A factura al crédito long overdue: its customer's credit account shows it (seed/credit.ts).
  {
    kind: 'factura',
    daysAgo: 50,
    hour: 11.3,
    who: 'AGENTE1',
    ruc: '20451239873',
    credit: true,
    lines: [['Servicio de transporte de carga Lima → Chiclayo', '850.00']],
  },
  { kind: 'shipments', daysAgo: 29, hour: 10.25, who: 'AGENTE1', ruc: '20608123459', take: 3 },
  { kind: 'boleta', daysAgo: 27, hour: 11.6, who: 'AGENTE1', dni: '45871236', lines: [['Servicio de envío Lima → Cusco', '40.00']] },
  {
    kind: 'boleta',
    daysAgo: 25,
    hour: 16.1,
    who: 'AGENTE2',
    dni: '43129856',
    lines: [
      ['Servicio de envío Arequipa → Lima', '55.00'],
      ['Embalaje reforzado', '7.00'],
    ],
  },
  { kind: 'shipments', daysAgo: 23, hour: 9.5, who: 'ADMIN', ruc: '20605123784', take: 2 },
  {
    kind: 'factura',
    daysAgo: 21,
    hour: 15.75,
    who: 'AGENTE1',
    ruc: '20605554441',
    credit: true,
    lines: [
      ['Servicio de transporte de carga refrigerada Lima → Trujillo', '1050.00'],
      ['Seguro de la carga', '80.00'],
    ],
  },
  { kind: 'boleta', daysAgo: 19, hour: 12.2, who: 'AGENTE1', dni: '40218753', lines: [['Servicio de envío Lima → Arequipa', '30.00']] },
  { kind: 'shipments', daysAgo: 17, hour: 10.9, who: 'AGENTE2', ruc: '20481234566', take: 2 },
  {
    kind: 'factura',
    daysAgo: 15,
    hour: 17.4,
    who: 'ADMIN',
    ruc: '20451239873',
    lines: [['Servicio de transporte de carga Lima → Chiclayo', '260.00']],
    label: 'muchik',
  },
  { kind: 'credit-note', daysAgo: 13, hour: 9.1, who: 'ADMIN', of: 'muchik', reason: '01' },
  { kind: 'boleta', daysAgo: 11, hour: 18.3, who: 'AGENTE2', dni: '47812356', lines: [['Servicio de envío Arequipa → Trujillo', '45.00']] },
  { kind: 'shipments', daysAgo: 8, hour: 11.4, who: 'ADMIN', ruc: '20539988779', take: 2 },
  {
    kind: 'shipments',
    daysAgo: 6,
    hour: 16.6,
    who: 'ADMIN',
    ruc: '20600111222',
    take: 2,
    void: { daysLater: 1, reason: 'ERROR EN LOS DATOS DEL CLIENTE' },
  },
  { kind: 'boleta', daysAgo: 4, hour: 10.1, who: 'AGENTE1', dni: '46712398', lines: [['Servicio de envío Lima → Piura', '35.00']] },
  { kind: 'shipments', daysAgo: 2, hour: 12.75, who: 'AGENTE1', ruc: '20608123459', take: 2 },
  { kind: 'boleta', daysAgo: 1, hour: 17.5, who: 'AGENTE2', dni: '40567812', lines: [['Servicio de envío Arequipa → Cusco', '33.00']] },
  { kind: 'boleta', daysAgo: 0, hour: 0, who: 'AGENTE1', dni: '45871236', lines: [['Servicio de envío Lima → Trujillo', '25.00']], pending: true },
];

/** A settable clock for the app that issues the demo documents: each is issued at its own moment. */
function movableClock() {
  let current = new Date();
  return { now: () => new Date(current), set: (d: Date) => (current = new Date(d)) };
}

/**
 * Demo documents: ~15 comprobantes over the last 30 days and one overdue factura al crédito of 50 days ago (boletas, facturas, some billing shipments
 * of corporate customers, a credit note, one voided, one still pending), issued the way staff issue
 * them: the form's own pre-fills (invoiceFromShipments, creditNoteFrom), the billing service and the
 * sandbox provider, on an app of their own whose clock is set to each document's moment. So the
 * register, PDFs, XML, QR, history and the sandbox's memory are what the product itself makes, and
 * voiding or consulting them later works as for any document. Then the demo's credit accounts
 * (seed/credit.ts), with last month's period factura.
 *
 * Runs after the first seed (one transaction without the app) in demo mode when the register is
 * empty and the sandbox is the provider (never sent to a real one); a settings row claims the work
 * so processes started together on one database issue them once. Returns how many it issued.
 */
export async function seedDemoDocuments(database: Database, config: Config, log: (msg: string) => void = () => {}): Promise<number> {
  if (!config.demo || config.billing.provider !== 'sandbox') return 0;
  const { db } = database;
  const staff = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.username, ['ADMIN', 'AGENTE1', 'AGENTE2']));
  const wanted = [...new Set(PLAN.flatMap((p) => ('ruc' in p ? [p.ruc] : 'dni' in p ? [p.dni] : [])))];
  const known = await db.select({ id: customers.id, docNumber: customers.docNumber }).from(customers).where(inArray(customers.docNumber, wanted));
  // Not the demo data (a database seeded without demo, then started with it): nothing to bill.
  if (staff.length < 3 || known.length < wanted.length) return 0;
  const claimed = await db.transaction(async (tx) => {
    // The demo payments' receipts (seeded with them) are not the register's documents.
    const [row] = await tx
      .select({ n: count() })
      .from(documents)
      .where(sql`not exists (select 1 from payments p where p.document_id = ${documents.id})`);
    if ((row?.n ?? 0) > 0) return false;
    const inserted = await tx.insert(settings).values({ key: DEMO_DOCUMENTS_KEY, value: new Date().toISOString() }).onConflictDoNothing().returning();
    return inserted.length > 0;
  });
  if (!claimed) return 0;

  const started = performance.now();
  const clock = movableClock();
  const app = await buildApp({ database, config, now: clock.now });
  try {
    const { boletaDelayMs, voidDelayMs } = config.billing.sandbox;
    const userOf = new Map<Who, SessionUser>();
    for (const s of staff) userOf.set(s.username as Who, (await loadSessionUser(app, s.id))!);

    const marks = async () =>
      (
        await db.execute(
          sql`select (select coalesce(max(id), 0) from document_events)::int as e, (select coalesce(max(id), 0) from audit_log)::int as a`,
        )
      ).rows[0] as { e: number; a: number };
    /**
     * Runs one operation on one document at `moment` (`op` answers the document's id); what it wrote
     * of that document carries that moment, not the database's clock. Only that document's rows:
     * another process may already be serving the same database.
     */
    const at = async (moment: Date, op: () => Promise<number>): Promise<number> => {
      clock.set(moment);
      const before = await marks();
      const id = await op();
      const iso = moment.toISOString();
      await db.execute(sql`update documents set updated_at = ${iso}::timestamptz where id = ${id}`);
      await db.execute(sql`update document_events set at = ${iso}::timestamptz where document_id = ${id} and id > ${before.e}`);
      await db.execute(
        sql`update audit_log set at = ${iso}::timestamptz where entity = 'document' and entity_id = ${String(id)} and id > ${before.a}`,
      );
      return id;
    };

    const customerOf = async (docNumber: string): Promise<FormCustomerSource> => {
      const [c] = await db.select().from(customers).where(eq(customers.docNumber, docNumber));
      return {
        id: c!.id,
        doc_type: Number(c!.docType),
        doc_number: c!.docNumber,
        name: [c!.firstName, c!.lastName].filter(Boolean).join(' '),
        address: c!.address,
        email: c!.email,
      };
    };
    const linesOf = (lines: [string, string][]): InvoiceFormValues['items'] =>
      lines.map(([description, unitValue]) => ({ code: '', description, unit: 'ZZ', quantity: '1', unitValue, igvType: '10', discount: '' }));
    const emit = async (user: SessionUser, values: InvoiceFormValues) => {
      const { shipmentIds, ...input } = invoicePayloadFromForm(values);
      const answer = await createAndEmit(app, user, invoicePayloadSchema.parse(input), shipmentIds);
      if (!answer.result.ok || answer.result.id === null) throw new Error(`comprobante de demostración rechazado: ${answer.result.error}`);
      return answer.result.id;
    };

    const today = limaDay(new Date());
    const issued: number[] = [];
    const labelled = new Map<string, number>();
    for (const plan of PLAN) {
      const day = limaDay(new Date(limaDayStart(today).getTime() - plan.daysAgo * DAY + 12 * HOUR));
      // The pending boleta is issued just now (SUNAT has not accepted it yet); the others during the day.
      const moment = plan.kind === 'boleta' && plan.pending ? new Date() : new Date(limaDayStart(day).getTime() + plan.hour * HOUR);
      let user = userOf.get(plan.who)!;
      let id: number;
      if (plan.kind === 'shipments') {
        const customer = await customerOf(plan.ruc);
        const billable = async (u: SessionUser) =>
          (await unbilledShipments(app, u, customer.id)).filter((s) => Date.parse(s.createdAt) < moment.getTime() - HOUR);
        let candidates = await billable(user);
        // The agent's branch sent none of theirs by then: the admin bills them.
        if (candidates.length === 0) [user, candidates] = [userOf.get('ADMIN')!, await billable(userOf.get('ADMIN')!)];
        if (candidates.length === 0) continue;
        const values = invoiceFromShipments(customer, candidates.slice(0, plan.take), day);
        if (values.detraction.enabled) values.detraction = { ...values.detraction, bankAccount: '00-051-123456', paymentMeans: '1' };
        id = await at(moment, () => emit(user, values));
      } else if (plan.kind === 'credit-note') {
        const original = await lookupDocument(app, user, labelled.get(plan.of)!);
        const values = creditNoteFrom(original, day)!;
        values.creditNote.reason = plan.reason;
        values.observations = 'Anulación de la operación: el cliente canceló el servicio.';
        id = await at(moment, () => emit(user, values));
      } else {
        const customer = await customerOf(plan.kind === 'boleta' ? plan.dni : plan.ruc);
        const values: InvoiceFormValues = { ...emptyInvoiceForm(day), ...customerFields(customer), items: linesOf(plan.lines) };
        if (plan.kind === 'factura') {
          values.type = '01';
          values.serie = 'FFF1';
          if (plan.credit) {
            const total = previewTotals(values.items).totalCents;
            const first = Math.floor(total / 2);
            const due = (days: number) => limaDay(new Date(moment.getTime() + days * DAY));
            values.paymentType = 'credito';
            values.instalments = [
              { dueDate: due(15), amount: centsToString(first) },
              { dueDate: due(30), amount: centsToString(total - first) },
            ];
          }
        }
        id = await at(moment, () => emit(user, values));
      }
      await db.execute(sql`update documents set created_at = ${moment.toISOString()}::timestamptz where id = ${id}`);
      issued.push(id);
      if (plan.kind === 'factura' && plan.label) labelled.set(plan.label, id);
      const doc = (await findDocument(db, id))!;
      // A boleta travels in SUNAT's daily summary: accepted a while later, when consulted.
      if (doc.status === 'pendiente' && !(plan.kind === 'boleta' && plan.pending)) {
        await at(new Date(moment.getTime() + boletaDelayMs + 60_000), async () => (await syncDocument(app, null, doc)).id);
      }
      if (plan.kind === 'shipments' && plan.void) {
        const voidAt = new Date(moment.getTime() + plan.void.daysLater * DAY);
        await at(voidAt, async () => (await voidDocument(app, user, id, plan.void!.reason)).id);
        await at(new Date(voidAt.getTime() + voidDelayMs + 60_000), async () => (await voidStatus(app, user, id)).id);
      }
    }
    // Credit accounts over the register just issued: their facturas are among these.
    await seedDemoCredit(app, clock.set, userOf.get('ADMIN')!, log);
    log(`Comprobantes de demostración emitidos: ${issued.length} (${Math.round(performance.now() - started)} ms).`);
    return issued.length;
  } finally {
    await app.close();
  }
}
