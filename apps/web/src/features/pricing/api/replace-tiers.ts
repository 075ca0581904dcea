import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WeightFactorTable, WeightTier } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { withFallback } from './fallback.ts';
import { weightFactorsKey } from './get-route-table.ts';

export const replaceTiers = ({ id, tiers }: { id: number; tiers: WeightTier[] }) =>
  withFallback(api.put<WeightFactorTable>(`/weight-factors/${id}/tiers`, { tiers }), 'No se pudieron guardar los tramos');

/** Replaces the whole list (spec section 4); the route table and the summary refetch after. */
export function useReplaceTiers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replaceTiers,
    onSettled: () => queryClient.invalidateQueries({ queryKey: weightFactorsKey }),
  });
}
