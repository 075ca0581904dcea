import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Dashboard } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { dashboardKey } from '../../../lib/shipment-queries.ts';

export interface DashboardFilters {
  dateFrom?: string;
  dateTo?: string;
  originBranchId?: string;
  destinationBranchId?: string;
  status?: string;
  q?: string;
}

/**
 * GET /dashboard: counters of exactly the filtered set (a missing date bound is open, as in the
 * list) and shipments per Lima day, week, month or year by status, in one call (domain's schema).
 */
export type { Dashboard } from '@tramo/domain';
export type DashboardBucket = Dashboard['bucket'];
export type DashboardDay = Dashboard['series'][number];

export const dashboardQuery = (filters: DashboardFilters) =>
  queryOptions({
    queryKey: [...dashboardKey, filters],
    queryFn: ({ signal }) => api.get<Dashboard>('/dashboard', { ...filters }, signal),
  });

export const useDashboard = (filters: DashboardFilters, enabled: boolean) =>
  useQuery({ ...dashboardQuery(filters), enabled, placeholderData: keepPreviousData });
