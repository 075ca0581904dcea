import { CUSTOMER_MESSAGES, dniError, rucError, type Customer, type CustomerData, type LookupResult } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, conflict, isForeignKeyViolation, isUniqueViolation, notFound } from '../../lib/errors.ts';
import type { LookupKind } from '../../providers/lookup/index.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { deleteCustomerRow, findCustomer, insertCustomer, searchCustomers, updateCustomerRow } from './repository.ts';

/** Without paging parameters the list answers its first 50 rows; the screen asks for up to 1000. */
export const DEFAULT_PAGE_SIZE = 50;

export async function listCustomers(ctx: ServiceContext, q: string | undefined, page = 1, pageSize = DEFAULT_PAGE_SIZE) {
  const { items, total } = await searchCustomers(ctx.db, q?.trim(), page, pageSize);
  return { items, total, page, pageSize };
}

async function getOrFail(tx: Tx | Db, id: number): Promise<Customer> {
  const customer = await findCustomer(tx, id);
  if (!customer) throw notFound(CUSTOMER_MESSAGES.notFound);
  return customer;
}

export const getCustomer = (ctx: ServiceContext, id: number) => getOrFail(ctx.db, id);

/** The database constraint on (doc_type, doc_number) decides, so two concurrent saves cannot both win. */
function duplicateDocument(err: unknown): never {
  if (isUniqueViolation(err)) {
    throw conflict(CUSTOMER_MESSAGES.duplicate, { doc_number: CUSTOMER_MESSAGES.duplicate }, 'DUPLICATE');
  }
  throw err;
}

export function createCustomer(ctx: ServiceContext, actor: SessionUser, data: CustomerData) {
  return ctx.db
    .transaction(async (tx) => {
      const created = await getOrFail(tx, await insertCustomer(tx, data));
      await audit(tx, { userId: actor.id, entity: 'customer', entityId: created.id, action: 'create', after: created });
      return created;
    })
    .catch(duplicateDocument);
}

export function updateCustomer(ctx: ServiceContext, actor: SessionUser, id: number, data: CustomerData) {
  return ctx.db
    .transaction(async (tx) => {
      const before = await getOrFail(tx, id);
      await updateCustomerRow(tx, id, data, ctx.now());
      const after = await getOrFail(tx, id);
      await audit(tx, { userId: actor.id, entity: 'customer', entityId: id, action: 'update', before, after });
      return after;
    })
    .catch(duplicateDocument);
}

/** Shipments and payments reference customers by foreign key; while they do, the delete is refused. */
export async function deleteCustomer(ctx: ServiceContext, actor: SessionUser, id: number) {
  await ctx.db
    .transaction(async (tx) => {
      const before = await getOrFail(tx, id);
      await deleteCustomerRow(tx, id);
      await audit(tx, { userId: actor.id, entity: 'customer', entityId: id, action: 'delete', before });
    })
    .catch((err: unknown) => {
      if (isForeignKeyViolation(err)) throw conflict(CUSTOMER_MESSAGES.inUse, undefined, 'IN_USE');
      throw err;
    });
}

/** Validates the number (RUC check digit included) before any provider is asked. */
export async function lookupDocument(ctx: ServiceContext, kind: LookupKind, number: string): Promise<LookupResult> {
  const problem = kind === 'dni' ? dniError(number) : rucError(number);
  if (problem) throw badRequest(problem, { number: problem });
  const result = await ctx.providers.lookup.find(kind, number, { db: ctx.db, now: ctx.now });
  if (!result) throw notFound(CUSTOMER_MESSAGES.lookupNotFound);
  return result;
}
