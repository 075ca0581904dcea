import { Suspense } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { MENU, type Role, STAFF_ROLES, type User } from '@tramo/domain';
import { PageSkeleton } from '../components/ui/PageSkeleton.tsx';
import { prefetchPanel } from '../features/dashboard/panel-request.ts';
import { sessionStore } from '../lib/session.ts';
import { AppLayout } from './shell/AppLayout.tsx';
import { RequireAuth, RequireRole, RedirectIfAuthed } from './guards.tsx';
import { lazyPage as page, type LazyPage } from './lazyPage.ts';
import { PageLoadError } from './PageLoadError.tsx';
import { queryClient } from './queryClient.ts';

const LoginPage = page(() => import('../features/auth/LoginPage.tsx'));
const ChangePasswordPage = page(() => import('../features/auth/ChangePasswordPage.tsx'));
const UsersPage = page(() => import('../features/users/UsersPage.tsx'));
const BranchesPage = page(() => import('../features/branches/BranchesPage.tsx'));
const CustomersPage = page(() => import('../features/customers/CustomersPage.tsx'));
const FactorPesoPage = page(() => import('../features/pricing/FactorPesoPage.tsx'));
const TarifasPage = page(() => import('../features/pricing/TarifasPage.tsx'));
const TransportistasPage = page(() => import('../features/fleet/TransportistasPage.tsx'));
const TransportTripsPage = page(() => import('../features/fleet/TransportTripsPage.tsx'));
const ForbiddenPage = page(() => import('../features/misc/ForbiddenPage.tsx'));
const NotFoundPage = page(() => import('../features/misc/NotFoundPage.tsx'));
const PanelPage = page(() => import('../features/dashboard/PanelPage.tsx'));
const ShipmentsPage = page(() => import('./routes/ShipmentsPage.tsx'));
const NewShipmentPage = page(() => import('../features/shipments/NewShipmentPage.tsx'));
const ShipmentDetailPage = page(() => import('./routes/ShipmentDetailPage.tsx'));
const TrackingPage = page(() => import('../features/tracking/TrackingPage.tsx'));
const DeliveriesPage = page(() => import('../features/deliveries/DeliveriesPage.tsx'));
const BillingPage = page(() => import('../features/billing/BillingPage.tsx'));
const RegistroVentasPage = page(() => import('../features/billing/registro-ventas/RegistroVentasPage.tsx'));
const PagosPage = page(() => import('../features/payments/PagosPage.tsx'));
const MovimientosPage = page(() => import('../features/movements/MovimientosPage.tsx'));
const CuentasPorCobrarPage = page(() => import('../features/receivables/CuentasPorCobrarPage.tsx'));
const NotificacionesPage = page(() => import('../features/notifications/NotificacionesPage.tsx'));
const ConciliacionPage = page(() => import('../features/reconciliation/ConciliacionPage.tsx'));
const CompanyPage = page(() => import('../features/company/CompanyPage.tsx'));
const CreditoPage = page(() => import('../features/credit/CreditoPage.tsx'));
const ReglasCobroPage = page(() => import('../features/who-pays/ReglasCobroPage.tsx'));

function render(Component: LazyPage) {
  return (
    <Suspense fallback={<PageSkeleton />}>
      <Component />
    </Suspense>
  );
}

/**
 * The roles of a route come from the menu table, so the guard and the sidebar never disagree:
 * the exact entry, else the longest entry that prefixes it (/shipments/:id → Envíos), else staff.
 */
function rolesOf(path: string): readonly Role[] {
  const exact = MENU.find((m) => m.path === path);
  if (exact) return exact.roles;
  const parent = MENU.filter((m) => m.path !== '/' && path.startsWith(`${m.path}/`)).sort((a, b) => b.path.length - a.path.length)[0];
  return parent?.roles ?? STAFF_ROLES;
}

/** A page's requests, sent before the page renders. */
type Prefetch = (user: User, search: URLSearchParams) => void;

/** What the app needs of a page's route before rendering it (createAppRouter). */
interface PageHandle {
  page: LazyPage;
  roles: readonly Role[];
  prefetch?: Prefetch;
}

function guarded(path: string, Component: LazyPage, prefetch?: Prefetch): RouteObject {
  const roles = rolesOf(path);
  return {
    path: path === '/' ? undefined : path.slice(1),
    index: path === '/' ? true : undefined,
    element: <RequireRole roles={roles}>{render(Component)}</RequireRole>,
    // Inside the shell: the menu stays usable when one page fails.
    errorElement: <PageLoadError />,
    handle: { page: Component, roles, prefetch } satisfies PageHandle,
  } as RouteObject;
}

export const routes: RouteObject[] = [
  { path: '/login', element: <RedirectIfAuthed>{render(LoginPage)}</RedirectIfAuthed>, errorElement: <PageLoadError /> },
  { path: '/change-password', element: render(ChangePasswordPage), errorElement: <PageLoadError /> },
  {
    element: <RequireAuth />,
    errorElement: <PageLoadError />,
    children: [
      {
        path: '/',
        element: <AppLayout />,
        children: [
          guarded('/users', UsersPage),
          guarded('/branches', BranchesPage),
          guarded('/transportistas', TransportistasPage),
          guarded('/transportistas/:id/viajes', TransportTripsPage),
          guarded('/', PanelPage, (user, search) => prefetchPanel(queryClient, user, search)),
          guarded('/shipments', ShipmentsPage),
          // Before /shipments/:id, so 'new' is never read as an id.
          guarded('/shipments/new', NewShipmentPage),
          guarded('/shipments/:id', ShipmentDetailPage),
          guarded('/customers', CustomersPage),
          guarded('/factor-peso', FactorPesoPage),
          guarded('/factor-peso/tarifas', TarifasPage),
          guarded('/tracking', TrackingPage),
          guarded('/deliveries', DeliveriesPage),
          guarded('/billing/preview', BillingPage),
          guarded('/billing/registro-ventas', RegistroVentasPage),
          guarded('/pagos', PagosPage),
          guarded('/reports/movimientos', MovimientosPage),
          guarded('/cuentas-por-cobrar', CuentasPorCobrarPage),
          guarded('/notificaciones', NotificacionesPage),
          guarded('/credito', CreditoPage),
          guarded('/conciliacion', ConciliacionPage),
          guarded('/configuracion/empresa', CompanyPage),
          guarded('/configuracion/reglas-de-cobro', ReglasCobroPage),
          { path: 'forbidden', element: render(ForbiddenPage) },
          { path: '*', element: render(NotFoundPage) },
        ],
      },
    ],
  },
];

/**
 * The router, made as the app starts. The page it opens on starts loading, and asks for its data,
 * before the first render (issue 37): on a slow device rendering the shell took longer than the
 * answers' round trip, and a page already loaded renders without its skeleton. Nothing waits for
 * them (a route loader would keep the whole app blank until it resolved).
 */
export function createAppRouter() {
  const router = createBrowserRouter(routes);
  const opening = router.state.matches.at(-1)?.route.handle as PageHandle | undefined;
  const user = sessionStore.get()?.user;
  if (opening && user && opening.roles.includes(user.role)) {
    void opening.page.preload().catch(() => {});
    opening.prefetch?.(user, new URLSearchParams(router.state.location.search));
  }
  return router;
}
