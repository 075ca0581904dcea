import type { QueryClient } from '@tanstack/react-query';
import { addDays, canManageArea, DASHBOARD_PAGE_SIZES, lastNumberedPage, limaDay, type User } from '@tramo/domain';
import { pageNumber, readUrlState } from '../../lib/url-state.ts';
import { shipmentsQuery } from '../shipments/index.ts';
import { dashboardQuery, type DashboardFilters } from './api/get-dashboard.ts';

export const PANEL_FILTER_KEYS = ['dateFrom', 'dateTo', 'originBranchId', 'destinationBranchId', 'status', 'q'] as const;
export type PanelFilterKey = (typeof PANEL_FILTER_KEYS)[number];
export type PanelUrl = Record<PanelFilterKey | 'page' | 'pageSize', string>;

/** The Panel opens on the last 30 Lima days; cleared dates leave the range open for counters and table alike. */
export function panelUrlDefaults(): PanelUrl {
  const today = limaDay(new Date());
  return {
    dateFrom: addDays(today, -29),
    dateTo: today,
    originBranchId: '',
    destinationBranchId: '',
    status: '',
    q: '',
    page: '1',
    pageSize: String(DASHBOARD_PAGE_SIZES[0]),
  };
}

/**
 * What the Panel asks the API for, from its address and the user: the page (PanelPage) and
 * prefetchPanel ask the same, so the page finds the answers prefetchPanel asked for in the cache.
 */
export function panelRequest(user: User, url: PanelUrl) {
  const filters: DashboardFilters = Object.fromEntries(PANEL_FILTER_KEYS.filter((k) => url[k]).map((k) => [k, url[k]]));
  const pageSize = pageNumber(url.pageSize, DASHBOARD_PAGE_SIZES[0], DASHBOARD_PAGE_SIZES);
  // The Panel's latest shipments page by number only, as far as numbers go (issue 19).
  const page = Math.min(pageNumber(url.page, 1), lastNumberedPage(pageSize));
  const anyBranch = canManageArea(user, 'allBranches');
  // Spec section 6: only an admin picks the origin; everyone else sees their own branch.
  const effective: DashboardFilters = anyBranch ? filters : { ...filters, originBranchId: user.branchId ? String(user.branchId) : undefined };
  const rangeInvalid = Boolean(effective.dateFrom && effective.dateTo && effective.dateFrom > effective.dateTo);
  return { filters, effective, page, pageSize, anyBranch, rangeInvalid, latest: { ...effective, page, pageSize } };
}

/**
 * Asks for the Panel's counters, chart and latest shipments when the app starts on the Panel
 * (createAppRouter), while it still renders its shell and the page (issue 37: on a slow device that
 * rendering took longer than the answers' round trip). It waits for nothing: the page shows them
 * from the cache when they arrive.
 */
export function prefetchPanel(queryClient: QueryClient, user: User, search: URLSearchParams) {
  const request = panelRequest(user, readUrlState(search, panelUrlDefaults()));
  if (request.rangeInvalid) return;
  void queryClient.prefetchQuery(dashboardQuery(request.effective));
  void queryClient.prefetchQuery(shipmentsQuery(request.latest));
}
