import { eq, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Scope } from '@tramo/domain';

/**
 * A scope (packages/domain scope.ts) as a condition on the branch columns of a row: none for every
 * branch, `false` for staff with no branch, else the branch on any of the columns (a shipment's
 * origin OR destination; a payment's one branch). The one SQL form of who sees what.
 */
export function branchScopeCondition(scope: Scope, ...branchColumns: AnyPgColumn[]): SQL | undefined {
  if (scope === 'all') return undefined;
  if (scope === null) return sql`false`;
  return or(...branchColumns.map((column) => eq(column, scope)));
}
