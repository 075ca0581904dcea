import { sql, type SQL } from 'drizzle-orm';

/** Admins see every branch; an agent their branch (null: none). */
export type Scope = number | null | 'all';

/** The condition keeping a branch column to a scope (none for admins). */
export const scopeWhere = (column: SQL, scope: Scope): SQL | undefined =>
  scope === 'all' ? undefined : scope === null ? sql`false` : sql`${column} = ${scope}`;
