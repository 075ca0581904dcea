import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateWeightFactorInput, WeightFactorTable } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { withFallback } from './fallback.ts';
import { weightFactorsKey } from './get-route-table.ts';

export const createWeightFactorTable = (input: CreateWeightFactorInput) =>
  withFallback(api.post<WeightFactorTable>('/weight-factors', input), 'No se pudo crear el pricing');

/** Creates the route's table (with the default tiers); the caller saves its own tiers next. */
export function useCreateWeightFactorTable() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWeightFactorTable,
    onSettled: () => queryClient.invalidateQueries({ queryKey: weightFactorsKey }),
  });
}
