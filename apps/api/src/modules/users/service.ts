import { and, asc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import { containsPattern } from '../../lib/sql.ts';
import { USER_MESSAGES, type UserData } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { branches, users } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, isForeignKeyViolation, isUniqueViolation, notFound, unprocessable } from '../../lib/errors.ts';
import { hashPassword, temporaryPassword } from '../../lib/passwords.ts';
import { sessionChanged } from '../../plugins/session-cache.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { toUserDto } from './dto.ts';
import { clearLogin, lockedUntil } from '../auth/index.ts';

const userColumns = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  role: users.role,
  branchId: users.branchId,
  branchName: branches.name,
  mustChangePassword: users.mustChangePassword,
};

type UserRow = Awaited<ReturnType<typeof findRows>>[number];

function findRows(db: Db | Tx, where?: ReturnType<typeof eq>) {
  return db.select(userColumns).from(users).leftJoin(branches, eq(branches.id, users.branchId)).where(where).orderBy(asc(users.username));
}

const dto = (row: UserRow) => toUserDto({ ...row, role: row.role as SessionUser['role'] });

export async function listUsers(ctx: ServiceContext, q: string | undefined) {
  const term = q?.trim();
  const pattern = term ? containsPattern(term) : '';
  const where = term
    ? or(
        ilike(users.username, pattern),
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        ilike(users.email, pattern),
        ilike(branches.name, pattern),
      )
    : undefined;
  const rows = await ctx.db
    .select({ ...userColumns, lockedUntil: lockedUntil(users.username, ctx.now()) })
    .from(users)
    .leftJoin(branches, eq(branches.id, users.branchId))
    .where(where)
    .orderBy(asc(users.username));
  // Who is locked out of login (issue 31, F9): the admin sees it here and may lift it.
  return rows.map(({ lockedUntil: until, ...row }) => ({ ...dto(row), lockedUntil: until === null ? null : new Date(until).toISOString() }));
}

async function getUser(tx: Tx | Db, id: number) {
  const [row] = await findRows(tx, eq(users.id, id));
  if (!row) throw notFound(USER_MESSAGES.notFound);
  return dto(row);
}

async function checkBranch(tx: Tx, data: UserData) {
  if (data.role !== 'admin' && data.branchId === null) {
    throw unprocessable(USER_MESSAGES.branchRequired, { branchId: USER_MESSAGES.branchRequired });
  }
  if (data.branchId !== null) {
    const [b] = await tx.select({ id: branches.id }).from(branches).where(eq(branches.id, data.branchId));
    if (!b) throw unprocessable(USER_MESSAGES.branchNotFound, { branchId: USER_MESSAGES.branchNotFound });
  }
}

function duplicateUsername(err: unknown): never {
  if (isUniqueViolation(err)) throw conflict(USER_MESSAGES.duplicate, { username: USER_MESSAGES.duplicate }, 'DUPLICATE');
  throw err;
}

/** Locks the admin rows so two concurrent demotions cannot both pass the last-admin check. */
async function otherAdminsExist(tx: Tx, exceptId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), ne(users.id, exceptId)))
    .for('update');
  return rows.length > 0;
}

/** New users get a temporary password, shown once, and must change it at first login. */
export async function createUser(ctx: ServiceContext, actor: SessionUser, data: UserData) {
  const tempPassword = temporaryPassword();
  const passwordHash = await hashPassword(tempPassword);
  const user = await ctx.db
    .transaction(async (tx) => {
      await checkBranch(tx, data);
      const [created] = await tx
        .insert(users)
        .values({
          username: data.username,
          passwordHash,
          firstName: data.firstName,
          lastName: data.lastName,
          email: data.email,
          role: data.role,
          branchId: data.branchId,
          mustChangePassword: true,
        })
        .returning({ id: users.id });
      const user = await getUser(tx, created!.id);
      await audit(tx, { userId: actor.id, entity: 'user', entityId: user.id, action: 'create', after: user });
      return user;
    })
    .catch(duplicateUsername);
  return { user, tempPassword };
}

export async function updateUser(ctx: ServiceContext, actor: SessionUser, id: number, data: UserData) {
  return ctx.db
    .transaction(async (tx) => {
      const before = await getUser(tx, id);
      await checkBranch(tx, data);
      if (before.role === 'admin' && data.role !== 'admin' && !(await otherAdminsExist(tx, id))) {
        throw unprocessable(USER_MESSAGES.lastAdmin, { role: USER_MESSAGES.lastAdmin });
      }
      await tx
        .update(users)
        .set({
          username: data.username,
          firstName: data.firstName,
          lastName: data.lastName,
          email: data.email,
          role: data.role,
          branchId: data.branchId,
          mustChangePassword: data.mustChangePassword ?? before.mustChangePassword,
          updatedAt: ctx.now(),
        })
        .where(eq(users.id, id));
      const after = await getUser(tx, id);
      await audit(tx, { userId: actor.id, entity: 'user', entityId: id, action: 'update', before, after });
      await sessionChanged(tx, id);
      return after;
    })
    .catch(duplicateUsername)
    .finally(() => ctx.sessions.evict(id));
}

export async function deleteUser(ctx: ServiceContext, actor: SessionUser, id: number) {
  if (id === actor.id) throw unprocessable(USER_MESSAGES.cannotDeleteSelf);
  await ctx.db
    .transaction(async (tx) => {
      const before = await getUser(tx, id);
      if (before.role === 'admin' && !(await otherAdminsExist(tx, id))) throw unprocessable(USER_MESSAGES.lastAdmin);
      await tx.delete(users).where(eq(users.id, id));
      await audit(tx, { userId: actor.id, entity: 'user', entityId: id, action: 'delete', before });
      await sessionChanged(tx, id);
    })
    .finally(() => ctx.sessions.evict(id))
    .catch((err: unknown) => {
      if (isForeignKeyViolation(err)) throw conflict(USER_MESSAGES.inUse, undefined, 'IN_USE');
      throw err;
    });
}

/** A new temporary password, shown once; the user must change it and loses every open session. */
export async function resetPassword(ctx: ServiceContext, actor: SessionUser, id: number) {
  if (id === actor.id) throw unprocessable(USER_MESSAGES.cannotResetSelf);
  const tempPassword = temporaryPassword();
  const passwordHash = await hashPassword(tempPassword);
  await ctx.db.transaction(async (tx) => {
    await getUser(tx, id);
    await tx
      .update(users)
      .set({ passwordHash, mustChangePassword: true, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: ctx.now() })
      .where(eq(users.id, id));
    await audit(tx, { userId: actor.id, entity: 'user', entityId: id, action: 'reset-password' });
    await sessionChanged(tx, id);
  });
  ctx.sessions.evict(id);
  return { tempPassword };
}

/**
 * Lifts a login lock (issue 31, F9): 10 wrong passwords lock a username for 15 minutes, and anyone
 * may type them, an administrator's included; another admin gives the owner the way back at once.
 * Clears the wait between attempts too. Audited with the failures it cleared.
 */
export async function unlockUser(ctx: ServiceContext, actor: SessionUser, id: number) {
  return ctx.db.transaction(async (tx) => {
    const user = await getUser(tx, id);
    const failures = await clearLogin(tx, user.username);
    await audit(tx, { userId: actor.id, entity: 'user', entityId: id, action: 'unlock', before: { failures }, after: { failures: 0 } });
    return { ...user, lockedUntil: null };
  });
}
