import type { Actor } from './permissions.ts';

/**
 * What a user may see (DESIGN.md section 4): every branch ('all', an admin), or one branch's
 * (its id); null is staff with no branch, who see nothing. The API turns it into SQL once
 * (apps/api/src/lib/branch-scope.ts) and checks single rows with inScope.
 */
export type Scope = 'all' | number | null;

export const scopeOf = (actor: Actor): Scope => (actor.role === 'admin' ? 'all' : actor.branchId);

/** True when a row of any of these branches (a shipment's origin or destination, a payment's branch) is the scope's. */
export const inScope = (scope: Scope, ...branchIds: (number | null)[]): boolean => scope === 'all' || (scope !== null && branchIds.includes(scope));
