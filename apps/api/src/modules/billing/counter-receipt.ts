import {
  BILLING_MESSAGES,
  centsToString,
  limaDay,
  paymentReceiptDraft,
  toCents,
  type BillingCustomer,
  type ComponentItem,
  type BillingDocType,
  type InvoiceDraft,
  type ReceiptRequest,
} from '@tramo/domain';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { refusal, type IssueAnswer } from './documents.ts';
import { customerById, draftIssue, issueDraft, numberAlone, withFacturaAddress } from './issuing.ts';
import { idempotencyKeyOf, type DocumentRecord } from './repository.ts';

/** Counter receipts: a payment's receipt (typed, in céntimos) and `POST /billing/emit`'s wire request. */

/**
 * A counter receipt as the payments module asks for it: the amount in céntimos (never as text), the
 * customer as the payment stored it, and the payment's own key (one document per payment attempt).
 */
export interface CounterReceipt {
  amountCents: number;
  customerId: number | null;
  customer: { docType: number; docNumber: string; name: string; address?: string | null; email?: string | null };
  shipmentCode: string | null;
  description: string | null;
  /** One item per price component of the shipment (issue 34); absent, the one 'Servicio de envío' item. */
  items?: readonly ComponentItem[] | null;
  /** The company's liability clause, printed on the receipt of a shipment (issue 34). */
  liabilityClause?: string | null;
  idempotencyKey: string | null;
}

/**
 * The fingerprint a payment's receipt key was stored with since keys were fingerprinted: the request
 * as `POST /billing/emit` would carry it. Kept so a payment numbered before this typed path replays
 * its receipt instead of being refused as a reused key.
 */
function counterReceiptRequest(r: CounterReceipt): ReceiptRequest {
  return {
    amount: centsToString(r.amountCents),
    customerId: r.customerId,
    customer: { doc_type: r.customer.docType, doc_number: r.customer.docNumber, name: r.customer.name },
    shipmentCode: r.shipmentCode ?? undefined,
    description: r.description ?? undefined,
    codigo_unico: r.idempotencyKey,
  };
}

/** The payments module: the receipt of a payment taken at the counter (see `issueCounterReceipt`). */
export function issuePaymentReceipt(ctx: ServiceContext, user: SessionUser, receipt: CounterReceipt): Promise<IssueAnswer> {
  return issueCounterReceipt(ctx, user, receipt, counterReceiptRequest(receipt), []);
}

/** `POST /billing/emit`: the wire request (amount in soles as text or number) read once into céntimos. */
export async function issueReceipt(ctx: ServiceContext, user: SessionUser, input: ReceiptRequest, shipmentIds: number[] = []): Promise<IssueAnswer> {
  let amountCents: number;
  try {
    amountCents = toCents(input.amount);
  } catch {
    return { statusCode: 422, result: refusal(['Monto inválido']) };
  }
  const c = input.customer;
  const receipt: CounterReceipt = {
    amountCents,
    customerId: input.customerId ?? null,
    customer: {
      docType: c?.doc_type ?? 1,
      docNumber: c?.doc_number ?? '',
      name: c?.name ?? '',
      address: c?.address ?? null,
      email: c?.email ?? null,
    },
    shipmentCode: input.shipmentCode ?? null,
    description: input.description ?? null,
    idempotencyKey: input.codigo_unico ?? null,
  };
  return issueCounterReceipt(ctx, user, receipt, input, shipmentIds);
}

/** Checks a counter receipt by the domain's rules and issues it; `request` is what its key is fingerprinted with. */
async function issueCounterReceipt(
  ctx: ServiceContext,
  user: SessionUser,
  input: CounterReceipt,
  request: unknown,
  shipmentIds: number[],
): Promise<IssueAnswer> {
  const check = await checkCounterReceipt(ctx, input);
  if (!check.ok) return check.refused;
  return issueDraft(ctx, user, check.draft, { idempotencyKey: input.idempotencyKey, request, shipmentIds });
}

/** The domain's draft of a counter receipt, or its refusal; reads (and the RUC lookup) only, no write. */
async function checkCounterReceipt(
  ctx: ServiceContext,
  input: Omit<CounterReceipt, 'idempotencyKey'>,
): Promise<{ ok: true; draft: InvoiceDraft } | { ok: false; refused: IssueAnswer }> {
  const today = limaDay(ctx.now());
  const registered = input.customerId ? await customerById(ctx, input.customerId) : null;
  if (input.customerId && !registered) return { ok: false, refused: { statusCode: 422, result: refusal([BILLING_MESSAGES.customerNotFound]) } };
  const c = input.customer;
  // A factura needs the customer's address: the record's, else the one typed, else the RUC lookup's.
  const customer: BillingCustomer = await withFacturaAddress(
    ctx,
    (registered && { ...registered, address: registered.address?.trim() || c.address || null }) ?? {
      docType: c.docType as BillingDocType,
      docNumber: c.docNumber,
      name: c.name,
      address: c.address ?? null,
      email: c.email ?? null,
    },
  );
  const check = paymentReceiptDraft(
    {
      amountCents: input.amountCents,
      customer,
      customerId: input.customerId,
      issueDate: today,
      code: input.shipmentCode,
      ...(input.description ? { description: input.description } : {}),
      items: input.items ?? null,
    },
    { today, customer: registered },
  );
  if (!check.ok) return { ok: false, refused: { statusCode: 422, result: refusal(check.problems) } };
  return { ok: true, draft: input.liabilityClause ? { ...check.draft, liabilityClause: input.liabilityClause } : check.draft };
}

/**
 * A payment's receipt checked before the payment's transaction opens, numbered once it committed:
 * `number` stores the document with its number under the payment's key (known only once the payment
 * has its id) in one statement of its own (numberAlone), so the series' counter, which every
 * cashier of the branch takes, is never held across the payment's commit. Sending it and recording
 * the answer (`emitToProvider`, `recordEmission`) follow, the answer in the payment's second transaction.
 */
export type PreparedReceipt = { ok: false; refused: IssueAnswer } | { ok: true; number(idempotencyKey: string): Promise<DocumentRecord> };

export async function preparePaymentReceipt(
  ctx: ServiceContext,
  user: SessionUser,
  receipt: Omit<CounterReceipt, 'idempotencyKey'>,
): Promise<PreparedReceipt> {
  const check = await checkCounterReceipt(ctx, receipt);
  if (!check.ok) return check;
  return {
    ok: true,
    // A new payment's key was never stored (it carries the payment's new id): no replay to look for,
    // and no credit note or shipment links to check, so the number is taken at once.
    number: (idempotencyKey) => {
      const request = counterReceiptRequest({ ...receipt, idempotencyKey });
      const spec = draftIssue(ctx, user, check.draft, { idempotencyKey, request, shipmentIds: [] });
      return numberAlone(ctx, user, spec, idempotencyKeyOf(idempotencyKey));
    },
  };
}
