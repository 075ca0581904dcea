import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ShipmentStatus } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { dashboardKey } from '../../shipments/index.ts';

export interface DashboardFilters {
  dateFrom?: string;
  dateTo?: string;
  originBranchId?: string;
  destinationBranchId?: string;
  status?: string;
  q?: string;
}

/** How long each bar of the chart is: long spans are grouped so the bars stay readable. */
export type DashboardBucket = 'day' | 'week' | 'month' | 'year';

export interface DashboardDay {
  /** The first day of the bar (the first bar may start inside its week, month or year). */
  day: string;
  total: number;
  byStatus: Record<ShipmentStatus, number>;
}

/**
 * GET /dashboard: counters of exactly the filtered set (a missing date bound is open, as in the
 * list) and shipments per Lima day, week, month or year by status, in one call.
 */
export interface Dashboard {
  /** The span the series covers. */
  dateFrom: string;
  dateTo: string;
  bucket: DashboardBucket;
  counters: { total: number } & Record<ShipmentStatus, number>;
  series: DashboardDay[];
}

export const dashboardQuery = (filters: DashboardFilters) =>
  queryOptions({
    queryKey: [...dashboardKey, filters],
    queryFn: ({ signal }) => api.get<Dashboard>('/dashboard', { ...filters }, signal),
  });

export const useDashboard = (filters: DashboardFilters, enabled: boolean) =>
  useQuery({ ...dashboardQuery(filters), enabled, placeholderData: keepPreviousData });
