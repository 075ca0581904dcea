import { STAFF_ROLES, type Role } from './roles.ts';

/**
 * DESIGN.md section 4 as data: who may do what with a shipment, and which back-office areas each
 * role manages. The API's guards and the web's show/hide both read this table.
 */

/** Who is asking: a role and, for staff of a branch, that branch. */
export interface Actor {
  role: string;
  branchId: number | null;
}

/** The part of a shipment permissions depend on. */
export interface ShipmentScope {
  originBranchId: number;
  destinationBranchId: number;
}

export const SHIPMENT_ACTIONS = ['see', 'manage', 'edit', 'deliver', 'load', 'unload'] as const;
export type ShipmentAction = (typeof SHIPMENT_ACTIONS)[number];

/** The branch of the shipment a non-admin must belong to: its origin, its destination, or either. */
export type BranchRule = 'origin' | 'destination' | 'either';

export interface ShipmentPermission {
  roles: readonly Role[];
  /** Admins act on every branch; the other roles only where this rule says. */
  branch: BranchRule;
}

const ALL_ROLES: readonly Role[] = ['admin', 'agent', 'courier'];

export const SHIPMENT_PERMISSIONS: Readonly<Record<ShipmentAction, ShipmentPermission>> = {
  /** Dashboard, list, detail: shipments whose origin or destination is the own branch. */
  see: { roles: ALL_ROLES, branch: 'either' },
  /** Status, events, cancel, secret code, description: the shipment's origin branch. */
  manage: { roles: ALL_ROLES, branch: 'origin' },
  /** Create / edit (registering again): couriers never, agents from their own branch. */
  edit: { roles: ['admin', 'agent'], branch: 'origin' },
  /** Confirm delivery: the destination branch. */
  deliver: { roles: ALL_ROLES, branch: 'destination' },
  /** Loading onto / unloading from a transport: fleet staff, shipments they can see. */
  load: { roles: STAFF_ROLES, branch: 'either' },
  unload: { roles: STAFF_ROLES, branch: 'either' },
};

export const AREAS = [
  'users',
  'branches',
  'fleet',
  'customers',
  'pricing',
  'newShipment',
  'allBranches',
  'settings',
  'billing',
  'payments',
  'movements',
  'discounts',
  'fleetCompliance',
  'credit',
] as const;
export type Area = (typeof AREAS)[number];

/** Back-office areas a role manages (tracking by code is open to every signed-in role). */
export const AREA_PERMISSIONS: Readonly<Record<Area, readonly Role[]>> = {
  users: ['admin'],
  branches: ['admin'],
  fleet: STAFF_ROLES,
  customers: STAFF_ROLES,
  pricing: STAFF_ROLES,
  newShipment: STAFF_ROLES,
  /** Works for every branch (origin of a new shipment, the Panel's and movements' branch, trips); the others only for their own. */
  allBranches: ['admin'],
  /** Company-wide rules, such as whether a delivery needs its proof (DESIGN.md section 5b: settings are the admins'). */
  settings: ['admin'],
  /** Documents, payments and movements are for admins and agents (DESIGN.md sections 4 and 5a). */
  billing: STAFF_ROLES,
  payments: STAFF_ROLES,
  movements: STAFF_ROLES,
  /** A discount on what a shipment owes, taken before collecting (DESIGN.md 5b: an audited admin decision). */
  discounts: ['admin'],
  /** Issue 36: the Panel warns admins of expiring fleet documents; only an admin overrides the document gate. */
  fleetCompliance: ['admin'],
  /** Credit accounts, cobranza, and letting a credit shipment through over its limit (issue 35): the company's money. */
  credit: ['admin'],
};

const hasRole = (actor: Actor, roles: readonly Role[]) => (roles as readonly string[]).includes(actor.role);

function onBranch(actor: Actor, rule: BranchRule, shipment: ShipmentScope): boolean {
  if (actor.branchId === null) return false;
  if (rule === 'origin') return actor.branchId === shipment.originBranchId;
  if (rule === 'destination') return actor.branchId === shipment.destinationBranchId;
  return actor.branchId === shipment.originBranchId || actor.branchId === shipment.destinationBranchId;
}

/** May `actor` do `action` on `shipment` (DESIGN.md section 4)? */
export function can(actor: Actor, action: ShipmentAction, shipment: ShipmentScope): boolean {
  const rule = SHIPMENT_PERMISSIONS[action];
  if (!hasRole(actor, rule.roles)) return false;
  return actor.role === 'admin' || onBranch(actor, rule.branch, shipment);
}

/** May `actor` manage `area` (users, branches, fleet…)? */
export function canManageArea(actor: Pick<Actor, 'role'>, area: Area): boolean {
  return (AREA_PERMISSIONS[area] as readonly string[]).includes(actor.role);
}

/** Only the origin matters for these, so callers may pass it alone. */
const fromOrigin = (originBranchId: number): ShipmentScope => ({ originBranchId, destinationBranchId: originBranchId });

export function canSee(actor: Actor, shipment: ShipmentScope): boolean {
  return can(actor, 'see', shipment);
}

/** Status, events, cancel, secret code, description. */
export function canManage(actor: Actor, originBranchId: number): boolean {
  return can(actor, 'manage', fromOrigin(originBranchId));
}

/** Create with this origin, or edit a shipment of this origin. */
export function canEdit(actor: Actor, originBranchId: number): boolean {
  return can(actor, 'edit', fromOrigin(originBranchId));
}
