import { asc, count, eq, ilike, or } from 'drizzle-orm';
import { containsPattern } from '../../lib/sql.ts';
import type { z } from 'zod';
import { BRANCH_MESSAGES, type Branch, type branchSchema } from '@tramo/domain';
import type { Tx } from '../../db/client.ts';
import { branches, users } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, isForeignKeyViolation, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { sessionChanged } from '../../plugins/session-cache.ts';
import type { SessionUser, ServiceContext } from '../../types.ts';
import { refreshRoutesOf } from '../fleet/index.ts';

type BranchData = z.output<typeof branchSchema>;

const columns = {
  id: branches.id,
  name: branches.name,
  city: branches.city,
  address: branches.address,
  ubigeo: branches.ubigeo,
  establishmentCode: branches.establishmentCode,
};

export async function listBranches(ctx: ServiceContext, q: string | undefined, page?: number, pageSize?: number) {
  const term = q?.trim();
  const pattern = term ? containsPattern(term) : '';
  const where = term ? or(ilike(branches.name, pattern), ilike(branches.city, pattern), ilike(branches.address, pattern)) : undefined;
  const query = ctx.db.select(columns).from(branches).where(where).orderBy(asc(branches.name), asc(branches.id));
  const size = pageSize ?? (page ? 10 : undefined);
  const [items, [totalRow]] = await Promise.all([
    size ? query.limit(size).offset(((page ?? 1) - 1) * size) : query,
    ctx.db.select({ total: count() }).from(branches).where(where),
  ]);
  return { items: items as Branch[], total: totalRow?.total ?? 0 };
}

async function getBranch(tx: Tx, id: number): Promise<Branch> {
  const [row] = await tx.select(columns).from(branches).where(eq(branches.id, id));
  if (!row) throw notFound(BRANCH_MESSAGES.notFound);
  return row;
}

function duplicate(err: unknown): never {
  if (isUniqueViolation(err)) throw conflict(BRANCH_MESSAGES.duplicate, { name: BRANCH_MESSAGES.duplicate }, 'DUPLICATE');
  throw err;
}

export function createBranch(ctx: ServiceContext, actor: SessionUser, data: BranchData) {
  return (
    ctx.db
      .transaction(async (tx) => {
        const [created] = await tx.insert(branches).values(data).returning(columns);
        await audit(tx, { userId: actor.id, entity: 'branch', entityId: created!.id, action: 'create', after: created });
        return created!;
      })
      .catch(duplicate)
      // The trigger's notice evicts every process at commit; this one's own next request must not run ahead of it.
      .finally(() => ctx.references.evictAll())
  );
}

export function updateBranch(ctx: ServiceContext, actor: SessionUser, id: number, data: BranchData) {
  return ctx.db
    .transaction(async (tx) => {
      const before = await getBranch(tx, id);
      const [after] = await tx
        .update(branches)
        .set({ ...data, updatedAt: ctx.now() })
        .where(eq(branches.id, id))
        .returning(columns);
      if (before.name !== after!.name) await refreshRoutesOf(tx, id);
      await audit(tx, { userId: actor.id, entity: 'branch', entityId: id, action: 'update', before, after });
      // Sessions show their branch's name.
      if (before.name !== after!.name) await sessionChanged(tx, null);
      return after!;
    })
    .catch(duplicate)
    .finally(() => {
      ctx.sessions.evictAll();
      ctx.references.evictAll();
    });
}

/** Refused while anything references the branch: its users by name, anything else by the foreign key. */
export async function deleteBranch(ctx: ServiceContext, actor: SessionUser, id: number) {
  await ctx.db
    .transaction(async (tx) => {
      const before = await getBranch(tx, id);
      const [staff] = await tx.select({ n: count() }).from(users).where(eq(users.branchId, id));
      if ((staff?.n ?? 0) > 0) throw conflict(BRANCH_MESSAGES.inUseByUsers, undefined, 'IN_USE');
      await tx.delete(branches).where(eq(branches.id, id));
      await audit(tx, { userId: actor.id, entity: 'branch', entityId: id, action: 'delete', before });
    })
    .catch((err: unknown) => {
      if (isForeignKeyViolation(err)) throw conflict(BRANCH_MESSAGES.inUse, undefined, 'IN_USE');
      throw err;
    })
    .finally(() => ctx.references.evictAll());
}
