import { createHash } from 'node:crypto';
import {
  CREDIT_MESSAGES,
  invoicePayloadFromForm,
  invoicePayloadSchema,
  limaDay,
  PERIOD_INVOICE_MESSAGES,
  periodInvoiceForm,
  previewTotals,
  centsToNumber,
  type PeriodInvoiceRequest,
} from '@tramo/domain';
import { AppError, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { createAndEmit, findByIdempotencyKey, issueResult, refusal, unbilledShipments, type IssueAnswer } from '../billing/index.ts';
import * as repo from './repository.ts';

/**
 * 'Facturar periodo' (issue 35). The factura is issued through billing's one path (checked by the
 * same rules as the form, numbered in the transaction that links its shipments), so a shipment is
 * invoiced at most once (document_shipments_live_uq). Its key names the customer and the period:
 * the same period asked twice, or twenty times at once, answers the one factura.
 */
async function periodForm(ctx: ServiceContext, user: SessionUser, customerId: number, p: PeriodInvoiceRequest) {
  const today = limaDay(ctx.now());
  if (p.to >= today) throw unprocessable(PERIOD_INVOICE_MESSAGES.future, { to: PERIOD_INVOICE_MESSAGES.future });
  const account = await repo.accountOf(ctx.db, customerId);
  if (!account) throw notFound(CREDIT_MESSAGES.accountNotFound);
  // The period's credit shipments this customer pays (as sender, or as the third party who pays
  // another sender's freight) that no live comprobante carries, by Lima day; then billing's lines,
  // trip and reference values of exactly those.
  const inPeriod = (await repo.uninvoicedShipments(ctx.db, customerId))
    .filter((s) => {
      const day = limaDay(s.createdAt);
      return day >= p.from && day <= p.to;
    })
    .map((s) => s.id);
  const shipments = await unbilledShipments(ctx, user, customerId, inPeriod);
  if (shipments.length === 0) throw unprocessable(PERIOD_INVOICE_MESSAGES.nothing);
  const customer = { id: customerId, doc_type: account.docType, doc_number: account.docNumber, name: account.customerName, address: account.address };
  const form = periodInvoiceForm(customer, shipments, {
    today,
    termsDays: account.termsDays,
    grouping: p.grouping,
    detractionAccount: p.detractionAccount,
  });
  return { form, shipments };
}

/** GET …/invoice-period: what 'Facturar periodo' would issue, before issuing it. */
export async function periodInvoicePreview(ctx: ServiceContext, user: SessionUser, customerId: number, p: PeriodInvoiceRequest) {
  const { form, shipments } = await periodForm(ctx, user, customerId, p);
  const totals = previewTotals(form.items);
  return {
    shipments: shipments.map((s) => ({ id: s.id, code: s.code, route: `${s.originName} → ${s.destinationName}`, amount: s.price })),
    items: form.items.map((i) => ({ description: i.description, unitValue: Number(i.unitValue) })),
    gravada: centsToNumber(totals.gravadaCents),
    igv: centsToNumber(totals.igvCents),
    total: centsToNumber(totals.totalCents),
    detraction: form.detraction.enabled ? Number(form.detraction.amount) : null,
    needsDetractionAccount: form.detraction.enabled && !form.detraction.bankAccount,
    trip: form.detraction.enabled ? form.detraction.trip : null,
    dueDate: form.instalments[0]!.dueDate,
    payable: Number(form.instalments[0]!.amount),
  };
}

/**
 * The factura's codigo_unico (Nubefact takes at most 20 characters): the customer and the period,
 * hashed. A period's factura that no longer bills its shipments (credited whole, voided, rejected)
 * hands the period on: the next key (generation 1, 2, …) names the factura that takes them again.
 */
const periodKey = (customerId: number, p: PeriodInvoiceRequest, generation: number) =>
  `PER${createHash('sha256')
    .update(`${customerId}|${p.from}|${p.to}${generation > 0 ? `|${generation}` : ''}`)
    .digest('hex')
    .slice(0, 17)}`;

/** The period's current key, and the factura already issued under it (that still bills its shipments), if any. */
async function currentPeriodKey(ctx: ServiceContext, user: SessionUser, customerId: number, p: PeriodInvoiceRequest) {
  for (let generation = 0; ; generation++) {
    const key = periodKey(customerId, p, generation);
    const earlier = await findByIdempotencyKey(ctx.db, user.branchId, key);
    if (!earlier || (await repo.billsShipments(ctx.db, earlier.id))) return { key, earlier };
  }
}

/** POST …/invoice-period: issues the period's factura al crédito. */
export async function issuePeriodInvoice(ctx: ServiceContext, user: SessionUser, customerId: number, p: PeriodInvoiceRequest): Promise<IssueAnswer> {
  // The same period asked again (a retry, a second click, another tab, a batch run) answers its factura.
  const { key, earlier } = await currentPeriodKey(ctx, user, customerId, p);
  if (earlier) return { statusCode: 200, result: issueResult(earlier) };
  let form: Awaited<ReturnType<typeof periodForm>>['form'];
  try {
    ({ form } = await periodForm(ctx, user, customerId, p));
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 422) {
      // A racing request may have issued the period between the key's check and this read of its
      // shipments (none left to bill): its factura is the answer, as a retry's would be.
      const winner = await findByIdempotencyKey(ctx.db, user.branchId, key);
      if (winner) return { statusCode: 200, result: issueResult(winner) };
      // Answered as billing answers a refused document: 'Corrige:' and its problems.
      return { statusCode: 422, result: refusal([err.message]) };
    }
    throw err;
  }
  if (form.detraction.enabled && !form.detraction.bankAccount) return { statusCode: 422, result: refusal([PERIOD_INVOICE_MESSAGES.account]) };
  const { shipmentIds, ...input } = invoicePayloadFromForm(form, key);
  const parsed = invoicePayloadSchema.safeParse(input);
  if (!parsed.success) return { statusCode: 422, result: refusal(parsed.error.issues.map((i) => i.message)) };
  try {
    return await createAndEmit(ctx, user, parsed.data, shipmentIds);
  } catch (err) {
    // Requests racing for one period: the one that lost to the winner's commit (its shipments now
    // billed, or its key taken) answers the winner's factura, as a retry would.
    const winner = err instanceof AppError && err.statusCode === 409 ? await findByIdempotencyKey(ctx.db, user.branchId, key) : null;
    if (winner) return { statusCode: 200, result: issueResult(winner) };
    throw err;
  }
}
