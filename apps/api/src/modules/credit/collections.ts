import {
  allocateCollection,
  centsToString,
  COLLECTION_MESSAGES,
  CREDIT_MESSAGES,
  limaDay,
  toCents,
  type CollectionValues,
  type OpenInvoice,
} from '@tramo/domain';
import { audit } from '../../lib/audit.ts';
import { conflict, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { accountDetail, invoiceOpen } from './accounts.ts';
import * as repo from './repository.ts';

const actorName = (u: SessionUser) => [u.firstName, u.lastName].filter(Boolean).join(' ') || u.username;

/**
 * POST /credit/collections: a customer's payment, applied to its facturas as asked or oldest
 * first. One transaction: the account is locked (collections of one customer queue), the open
 * balances are read after the lock, the allocations written, the audit row beside them. The
 * client's key makes a retry answer the first collection instead of taking the money twice.
 */
export async function registerCollection(ctx: ServiceContext, actor: SessionUser, data: CollectionValues, clientKey: string | null) {
  if (data.receivedOn > limaDay(ctx.now())) throw unprocessable(COLLECTION_MESSAGES.futureDate, { receivedOn: COLLECTION_MESSAGES.futureDate });
  if (clientKey) {
    const earlier = await repo.collectionByKey(ctx.db, clientKey);
    if (earlier) return replay(ctx, earlier, data);
  }
  try {
    const id = await ctx.db.transaction(async (tx) => {
      const account = await repo.accountOf(tx, data.customerId, true);
      if (!account) throw notFound(CREDIT_MESSAGES.accountNotFound);
      const invoices = await repo.invoicesOf(tx, account.docNumber, account.termsDays);
      const open: OpenInvoice[] = invoices.map((i) => ({
        documentId: i.id,
        label: `${i.series}-${i.number}`,
        issueDate: i.issueDate,
        dueDate: i.dueDate,
        openCents: invoiceOpen(i),
      }));
      const amountCents = toCents(data.amount);
      const result = allocateCollection(
        amountCents,
        open,
        data.allocations.map((a) => ({ documentId: a.documentId, amountCents: toCents(a.amount) })),
      );
      if (!result.ok) throw unprocessable(result.message, { [result.path]: result.message });
      const row = await repo.insertCollection(
        tx,
        {
          customerId: data.customerId,
          receivedOn: data.receivedOn,
          method: data.method,
          amount: centsToString(amountCents),
          bank: data.bank,
          operationNumber: data.operationNumber,
          note: data.note,
          clientKey,
          createdBy: actor.id,
          createdByName: actorName(actor),
        },
        result.allocations.map((a) => ({ documentId: a.documentId, amount: centsToString(a.amountCents) })),
      );
      await audit(tx, {
        userId: actor.id,
        entity: 'credit_collection',
        entityId: row.id,
        action: 'create',
        after: {
          customerId: data.customerId,
          amount: row.amount,
          method: data.method,
          allocations: result.allocations.map((a) => ({ documentId: a.documentId, amount: centsToString(a.amountCents) })),
          unapplied: centsToString(result.unappliedCents),
        },
      });
      return row.id;
    });
    return { id, account: await accountDetail(ctx, data.customerId) };
  } catch (err) {
    // Two requests with one key raced: the loser answers the winner's collection.
    if (clientKey && isUniqueViolation(err)) {
      const earlier = await repo.collectionByKey(ctx.db, clientKey);
      if (earlier) return replay(ctx, earlier, data);
    }
    throw err;
  }
}

async function replay(ctx: ServiceContext, earlier: NonNullable<Awaited<ReturnType<typeof repo.collectionByKey>>>, data: CollectionValues) {
  if (earlier.customerId !== data.customerId || toCents(earlier.amount) !== toCents(data.amount))
    throw conflict(COLLECTION_MESSAGES.keyReused, undefined, 'IDEMPOTENCY_KEY_REUSED');
  return { id: earlier.id, account: await accountDetail(ctx, earlier.customerId) };
}

/** POST /credit/collections/{id}/void: the money did not come (a bounced cheque, a wrong entry). */
export async function voidCollection(ctx: ServiceContext, actor: SessionUser, id: number, reason: string) {
  const customerId = await ctx.db.transaction(async (tx) => {
    const row = await repo.collectionById(tx, id, true);
    if (!row) throw notFound(COLLECTION_MESSAGES.notFound);
    if (row.status === 'anulado') throw conflict(COLLECTION_MESSAGES.alreadyVoided);
    await repo.voidCollection(tx, id, { voidReason: reason, voidedAt: ctx.now(), voidedBy: actor.id });
    await audit(tx, {
      userId: actor.id,
      entity: 'credit_collection',
      entityId: id,
      action: 'void',
      before: { status: row.status },
      after: { status: 'anulado', reason },
    });
    return row.customerId;
  });
  return accountDetail(ctx, customerId);
}

/** POST /credit/invoices/{documentId}/detraction-deposit: the customer's constancia of deposit. */
export async function recordDetractionDeposit(
  ctx: ServiceContext,
  actor: SessionUser,
  documentId: number,
  data: { constancia: string; depositedOn: string },
) {
  if (data.depositedOn > limaDay(ctx.now()))
    throw unprocessable('La fecha del depósito no puede ser futura.', { depositedOn: 'La fecha del depósito no puede ser futura.' });
  return ctx.db.transaction(async (tx) => {
    const doc = await repo.invoiceDocument(tx, documentId);
    if (!doc || doc.type !== '01') throw notFound('Factura no encontrada.');
    if (doc.detractionCents <= 0) throw unprocessable('Esta factura no tiene detracción.');
    if (['anulado', 'rechazado', 'anulación pendiente'].includes(doc.status)) throw conflict('La factura está anulada o rechazada.');
    if (data.depositedOn < doc.issueDate)
      throw unprocessable('El depósito no puede ser anterior a la factura.', { depositedOn: 'El depósito no puede ser anterior a la factura.' });
    const row = await repo.insertDeposit(tx, {
      documentId,
      constancia: data.constancia,
      depositedOn: data.depositedOn,
      amount: centsToString(doc.detractionCents),
      createdBy: actor.id,
      createdByName: actorName(actor),
    });
    if (!row) throw conflict('La detracción de esta factura ya está registrada como depositada.');
    await audit(tx, {
      userId: actor.id,
      entity: 'detraction_deposit',
      entityId: documentId,
      action: 'create',
      after: { constancia: data.constancia, depositedOn: data.depositedOn, amount: row.amount },
    });
    return { documentId, constancia: row.constancia, depositedOn: row.depositedOn, amount: Number(row.amount) };
  });
}
