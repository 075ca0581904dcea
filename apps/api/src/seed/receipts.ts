import {
  centsToString,
  documentKey,
  limaDay,
  limaTime,
  paymentReceiptDraft,
  receiptItemFor,
  receiptKey,
  type BillingCustomer,
  type DocumentEventKind,
  type DocumentStatus,
} from '@tramo/domain';
import type { Db } from '../db/client.ts';
import { auditLog, documentEvents, documents, documentSeries, sandboxDocuments } from '../db/schema.ts';
import { fingerprint } from '../lib/fingerprint.ts';
import { draftColumns } from '../modules/billing/index.ts';
import {
  sandboxBillingProvider,
  type BillingDocument,
  type BillingIssuer,
  type EmitResult,
  type SandboxRecord,
  type SandboxStore,
  type VoidResult,
} from '../providers/billing/index.ts';

/** What the demo's receipts are signed and kept with: the app's sandbox settings (config.billing, config.dataDir). */
export interface DemoReceiptOptions {
  issuer: BillingIssuer;
  /** Where the sandbox's demo certificate lives (the app's `<DATA_DIR>/billing`): the receipts are signed with the app's own key. */
  certificateDir: string;
  boletaDelayMs: number;
  voidDelayMs: number;
  /** The sandbox is the app's provider: it must remember the receipts, so that voiding or consulting one later works. */
  keepSandboxRecords: boolean;
}

/** A demo payment that was charged (paid, or paid and later voided): it has its receipt. */
export interface ChargedPayment {
  paymentId: number;
  shipmentCode: string;
  amountCents: number;
  discountCents: number;
  discountReason: string | null;
  customerId: number | null;
  customer: BillingCustomer;
  branchId: number;
  userId: number;
  userName: string;
  /** When the receipt was issued: between the payment's creation and its confirmation. */
  issuedAt: Date;
  canceled: { at: Date; reason: string } | null;
}

const SECOND = 1000;

type NewEvent = Omit<typeof documentEvents.$inferInsert, 'documentId'>;
type NewAudit = typeof auditLog.$inferInsert;

/** The sandbox's memory as a map, written to sandbox_documents in bulk afterwards. */
function mapStore(): SandboxStore & { records: Map<string, SandboxRecord>; claimed: Set<string> } {
  const records = new Map<string, SandboxRecord>();
  const claimed = new Set<string>();
  return {
    records,
    claimed,
    get: async (key) => structuredClone(records.get(key) ?? null),
    put: async (record) => void records.set(record.key, structuredClone(record)),
    add: async (record) => {
      if (records.has(record.key)) return structuredClone(records.get(record.key)!);
      records.set(record.key, structuredClone(record));
      return null;
    },
    claim: async (key) => !claimed.has(key) && Boolean(claimed.add(key)),
  };
}

const EVENT_OF_STATUS: Record<string, DocumentEventKind> = { aceptado: 'aceptado', rechazado: 'rechazado', pendiente: 'consultado' };

/**
 * The receipts of the demo's charged payments (issue 31: no paid payment without a receipt), as the
 * payments module would have issued them through billing and the sandbox: the domain's receipt
 * draft (paymentReceiptDraft, receiptItemFor), numbered gaplessly per series in the order they were
 * issued, sent to a sandbox whose clock is each step's moment (so the XML, hash, QR and what the
 * sandbox remembers are its own), accepted (a boleta when its daily summary was consulted), and for
 * a payment voided after paying, voided through the sandbox until 'anulado'. Each step leaves the
 * document's events and audit rows the billing service writes. Written in bulk: issuing ~250
 * receipts one by one through the service took ~40 s of the first start.
 *
 * Like the payments module (it issues a receipt with no shipment link), a receipt bills no shipment
 * in document_shipments: the payment is what ties it to its shipment. A step that would come after
 * `now` has not happened yet (a boleta still in today's summary stays 'pendiente').
 *
 * Answers each payment's document id.
 */
export async function seedReceipts(db: Db, charged: ChargedPayment[], options: DemoReceiptOptions, now: Date): Promise<Map<number, number>> {
  const ids = new Map<number, number>();
  if (charged.length === 0) return ids;
  let clock = now;
  const store = mapStore();
  const sandbox = sandboxBillingProvider({
    issuer: options.issuer,
    store,
    certificateDir: options.certificateDir,
    clock: () => new Date(clock),
    boletaDelayMs: options.boletaDelayMs,
    voidDelayMs: options.voidDelayMs,
    guideDelayMs: 0,
  });

  const ordered = [...charged].sort((a, b) => a.issuedAt.getTime() - b.issuedAt.getTime() || a.paymentId - b.paymentId);
  const lastNumber = new Map<string, { type: string; series: string; n: number }>();
  const rows: (typeof documents.$inferInsert)[] = [];
  const eventsOf: NewEvent[][] = [];
  const auditsOf: NewAudit[][] = [];

  for (const p of ordered) {
    const day = limaDay(p.issuedAt);
    const item = receiptItemFor(p.shipmentCode, p.amountCents, p.customer.docType === 6 ? 6 : 1, {
      cents: p.discountCents,
      reason: p.discountReason,
    });
    // The request the payments module sends billing for this receipt (its fingerprint sits beside the key).
    const request = {
      amount: centsToString(p.amountCents),
      customerId: p.customerId,
      customer: { doc_type: p.customer.docType, doc_number: p.customer.docNumber, name: p.customer.name },
      shipmentCode: p.shipmentCode,
      description: item.description,
      codigo_unico: receiptKey(p.paymentId),
    };
    const check = paymentReceiptDraft(
      {
        amountCents: p.amountCents,
        customer: p.customer,
        customerId: p.customerId,
        issueDate: day,
        code: p.shipmentCode,
        description: item.description,
      },
      { today: day, customer: p.customerId ? p.customer : null },
    );
    if (!check.ok) throw new Error(`recibo de demostración del pago ${p.paymentId} rechazado: ${check.problems.join('; ')}`);
    const draft = check.draft;
    const counterKey = `${draft.type}|${draft.series}`;
    const counter = lastNumber.get(counterKey) ?? { type: draft.type, series: draft.series, n: 0 };
    counter.n += 1;
    lastNumber.set(counterKey, counter);
    const document: BillingDocument = { ...draft, number: counter.n, issueTime: limaTime(p.issuedAt) };
    const ref = { type: draft.type, series: draft.series, number: counter.n };
    const who = { userId: p.userId, userName: p.userName };
    const events: NewEvent[] = [];
    const audits: NewAudit[] = [];
    const docAudit = (at: Date, userId: number | null, action: string, after: unknown, before?: unknown) =>
      audits.push({ at, userId, entity: 'document', entityId: '', action, before: before ?? null, after });

    // Numbered and stored, then sent (issueNumbered, then send).
    events.push({ at: p.issuedAt, kind: 'emitido', ...who, operation: 'emit', request: document });
    docAudit(p.issuedAt, p.userId, 'emit', { type: draft.type, series: draft.series, number: counter.n });
    clock = p.issuedAt;
    const emitted = await sandbox.emit(document);
    let result: EmitResult | VoidResult = emitted;
    let status: DocumentStatus = result.status;
    events.push({
      at: p.issuedAt,
      kind: EVENT_OF_STATUS[status] ?? 'consultado',
      ...who,
      note: result.sunatDescription,
      operation: 'emit',
      answer: result.raw,
    });
    docAudit(p.issuedAt, p.userId, 'emit', { status });
    let updatedAt = p.issuedAt;
    let voidReason: string | null = null;
    let voided: Pick<typeof documents.$inferInsert, 'voidSummaryId' | 'voidTicket' | 'voidXml'> = {};

    // A boleta waits for its daily summary; the register's consult finds it accepted a minute after.
    const consultAt = new Date(p.issuedAt.getTime() + options.boletaDelayMs + 60 * SECOND);
    const consult = async () => {
      clock = consultAt;
      result = await sandbox.consult(ref);
      status = result.status;
      updatedAt = consultAt;
      events.push({
        at: consultAt,
        kind: EVENT_OF_STATUS[status] ?? 'consultado',
        note: result.sunatDescription,
        operation: 'consult',
        answer: result.raw,
      });
      docAudit(consultAt, null, 'consult', { status });
    };
    if (status === 'pendiente' && consultAt <= now && (!p.canceled || consultAt < p.canceled.at)) await consult();

    if (p.canceled) {
      // The payment's void voids its receipt (cancelPayment → voidDocument), even one still in the summary.
      const at = p.canceled.at;
      voidReason = p.canceled.reason;
      events.push({ at, kind: 'anulación solicitada', ...who, note: voidReason, operation: 'void' });
      docAudit(at, p.userId, 'void', { reason: voidReason }, { status });
      clock = at;
      result = await sandbox.void(ref, voidReason);
      status = result.status;
      if (result.summary) voided = { voidSummaryId: result.summary.id, voidTicket: result.summary.ticket, voidXml: result.summary.xml };
      updatedAt = at;
      events.push({
        at,
        kind: status === 'anulado' ? 'anulado' : 'consultado',
        ...who,
        note: result.sunatDescription,
        operation: 'void',
        answer: result.raw,
      });
      docAudit(at, p.userId, 'void', { status });
      const record = store.records.get(documentKey(ref.type, ref.series, ref.number))!;
      const settledAt = new Date(Date.parse(record.voidedAt!) + 60 * SECOND);
      if (status === 'anulación pendiente' && settledAt <= now) {
        clock = settledAt;
        result = await sandbox.voidStatus(ref);
        status = result.status;
        updatedAt = settledAt;
        events.push({
          at: settledAt,
          kind: status === 'anulado' ? 'anulado' : 'consultado',
          note: result.sunatDescription,
          operation: 'void-status',
          answer: result.raw,
        });
        docAudit(settledAt, null, 'void-status', { status });
      }
    }

    rows.push({
      ...draftColumns(draft),
      type: draft.type,
      series: draft.series,
      number: counter.n,
      status,
      document,
      idempotencyKey: request.codigo_unico,
      idempotencyHash: fingerprint({ request, shipmentIds: [] }),
      branchId: p.branchId,
      userId: p.userId,
      userName: p.userName,
      hash: emitted.hash,
      qrText: emitted.qrText,
      xml: emitted.xml,
      pdfUrl: null,
      providerMessage: result.sunatDescription,
      voidReason,
      ...voided,
      createdAt: p.issuedAt,
      updatedAt,
    });
    eventsOf.push(events);
    auditsOf.push(audits);
  }

  const docIds: number[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    const inserted = await db
      .insert(documents)
      .values(rows.slice(i, i + 100))
      .returning({ id: documents.id });
    docIds.push(...inserted.map((r) => r.id));
  }
  ordered.forEach((p, i) => ids.set(p.paymentId, docIds[i]!));
  // Each series' counter at its last number (the seed runs on an empty register): the next document follows on.
  await db.insert(documentSeries).values([...lastNumber.values()].map((c) => ({ type: c.type, series: c.series, lastNumber: c.n })));
  const events = eventsOf.flatMap((list, i) => list.map((e) => ({ ...e, documentId: docIds[i]! })));
  for (let i = 0; i < events.length; i += 200) await db.insert(documentEvents).values(events.slice(i, i + 200));
  const audits = auditsOf.flatMap((list, i) => list.map((a) => ({ ...a, entityId: String(docIds[i]!) })));
  for (let i = 0; i < audits.length; i += 500) await db.insert(auditLog).values(audits.slice(i, i + 500));
  if (options.keepSandboxRecords) {
    // The RA/RC correlatives the demo's voids took, so the app's next void of those days takes the next one.
    const records = [
      ...[...store.records.values()].map((record) => ({ key: record.key, record })),
      ...[...store.claimed].map((key) => ({ key, record: { claimed: true } })),
    ];
    for (let i = 0; i < records.length; i += 100) await db.insert(sandboxDocuments).values(records.slice(i, i + 100));
  }
  return ids;
}
