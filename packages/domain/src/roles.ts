export const ROLES = ['admin', 'agent', 'courier'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrador',
  agent: 'Agente',
  courier: 'Repartidor',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The sidebar of spec section 2, in its order. The API enforces the same roles per module. */
export const MENU = [
  { label: 'Panel', path: '/', roles: ['admin', 'agent', 'courier'] },
  { label: 'Envíos', path: '/shipments', roles: ['admin', 'agent', 'courier'] },
  { label: 'Nuevo envío', path: '/shipments/new', roles: ['admin', 'agent'] },
  { label: 'Entregas', path: '/deliveries', roles: ['admin', 'agent', 'courier'] },
  { label: 'Rastreo', path: '/tracking', roles: ['admin', 'agent', 'courier'] },
  { label: 'Pagos', path: '/pagos', roles: ['admin', 'agent'] },
  { label: 'Factor Peso', path: '/factor-peso', roles: ['admin', 'agent'] },
  { label: 'Facturación', path: '/billing/preview', roles: ['admin', 'agent'] },
  { label: 'Registro de Ventas', path: '/billing/registro-ventas', roles: ['admin'] },
  { label: 'Clientes', path: '/customers', roles: ['admin', 'agent'] },
  { label: 'Sucursales', path: '/branches', roles: ['admin'] },
  { label: 'Transportistas', path: '/transportistas', roles: ['admin', 'agent'] },
  { label: 'Usuarios', path: '/users', roles: ['admin'] },
  { label: 'Notificaciones', path: '/notificaciones', roles: ['admin'] },
  { label: 'Crédito', path: '/credito', roles: ['admin'] },
  { label: 'Conciliación', path: '/conciliacion', roles: ['admin'] },
  { label: 'Empresa', path: '/configuracion/empresa', roles: ['admin'] },
  { label: 'Reglas de cobro', path: '/configuracion/reglas-de-cobro', roles: ['admin'] },
] as const satisfies readonly { label: string; path: string; roles: readonly Role[] }[];

export type MenuEntry = (typeof MENU)[number];

/** A user with no (or an unknown) role is a guest and sees no entries. */
export function menuFor(role: string | null | undefined): MenuEntry[] {
  if (!isRole(role)) return [];
  return MENU.filter((entry) => (entry.roles as readonly Role[]).includes(role));
}

/** Roles allowed on the back-office areas of DESIGN.md section 4 (customers, pricing, fleet, payments…). */
export const STAFF_ROLES: readonly Role[] = ['admin', 'agent'];
