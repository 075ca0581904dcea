import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WeightFactorSummary } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { withFallback } from './fallback.ts';
import { weightFactorsKey } from './get-route-table.ts';

export const summaryQuery = () =>
  queryOptions({
    queryKey: [...weightFactorsKey, 'summary'],
    queryFn: ({ signal }) =>
      withFallback(api.get<WeightFactorSummary[]>('/weight-factors/summary', undefined, signal), 'No se pudo cargar el resumen'),
  });

/** Every active table with its tier count, kg range and example prices (one request). */
export const useWeightFactorSummary = () => useQuery(summaryQuery());
