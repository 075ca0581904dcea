import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductType, WeightFactorTable } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { withFallback } from './fallback.ts';

export const weightFactorsKey = ['weight-factors'] as const;

/** Spec (billing) section 8, pricing list call: GET /weight-factors. */
export const LIST_FAILED = 'No se pudo listar los pricings';

export interface RouteKey {
  originId: number;
  destinationId: number;
  productType: ProductType;
}

/** The active table of exactly this route and class, or null when there is none yet. */
export const routeTableQuery = (route: RouteKey) =>
  queryOptions({
    queryKey: [...weightFactorsKey, 'route', route],
    queryFn: async ({ signal }) => {
      const tables = await withFallback(api.get<WeightFactorTable[]>('/weight-factors', { ...route, active: true }, signal), LIST_FAILED);
      return tables[0] ?? null;
    },
  });

export const useRouteTable = (route: RouteKey | null) =>
  useQuery({ ...routeTableQuery(route ?? { originId: 0, destinationId: 0, productType: 'liviano' }), enabled: route !== null });
