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
  // The period's credit shipments of this customer not on a live comprobante (Lima days).
  const credit = await repo.uninvoicedShipments(ctx.db, customerId);
  const inPeriod = new Set(
    credit
      .filter((s) => {
        const day = limaDay(s.createdAt);
        return day >= p.from && day <= p.to;
      })
      .map((s) => s.id),
  );
  const shipments = (await unbilledShipments(ctx, user, customerId)).filter((s) => inPeriod.has(s.id));
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

/** The factura's codigo_unico (Nubefact takes at most 20 characters): the customer and the period, hashed. */
const periodKey = (customerId: number, p: PeriodInvoiceRequest) =>
  `PER${createHash('sha256').update(`${customerId}|${p.from}|${p.to}`).digest('hex').slice(0, 17)}`;

/** POST …/invoice-period: issues the period's factura al crédito. */
export async function issuePeriodInvoice(ctx: ServiceContext, user: SessionUser, customerId: number, p: PeriodInvoiceRequest): Promise<IssueAnswer> {
  // The same period asked again (a retry, a second click, another tab) answers its factura.
  const earlier = await findByIdempotencyKey(ctx.db, user.branchId, periodKey(customerId, p));
  if (earlier) return { statusCode: 200, result: issueResult(earlier) };
  let form: Awaited<ReturnType<typeof periodForm>>['form'];
  try {
    ({ form } = await periodForm(ctx, user, customerId, p));
  } catch (err) {
    // Answered as billing answers a refused document: 'Corrige:' and its problems.
    if (err instanceof AppError && err.statusCode === 422) return { statusCode: 422, result: refusal([err.message]) };
    throw err;
  }
  if (form.detraction.enabled && !form.detraction.bankAccount) return { statusCode: 422, result: refusal([PERIOD_INVOICE_MESSAGES.account]) };
  const { shipmentIds, ...input } = invoicePayloadFromForm(form, periodKey(customerId, p));
  const parsed = invoicePayloadSchema.safeParse(input);
  if (!parsed.success) return { statusCode: 422, result: refusal(parsed.error.issues.map((i) => i.message)) };
  try {
    return await createAndEmit(ctx, user, parsed.data, shipmentIds);
  } catch (err) {
    // Requests racing for one period: the one that lost to the winner's commit (its shipments now
    // billed, or its key taken) answers the winner's factura, as a retry would.
    const winner =
      err instanceof AppError && err.statusCode === 409 ? await findByIdempotencyKey(ctx.db, user.branchId, periodKey(customerId, p)) : null;
    if (winner) return { statusCode: 200, result: issueResult(winner) };
    throw err;
  }
}
