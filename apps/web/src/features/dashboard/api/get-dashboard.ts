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

export interface DashboardDay {
  day: string;
  total: number;
  byStatus: Record<ShipmentStatus, number>;
}

/** GET /dashboard: counters of the filtered set and shipments per Lima day by status, in one call. */
export interface Dashboard {
  dateFrom: string;
  dateTo: string;
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
