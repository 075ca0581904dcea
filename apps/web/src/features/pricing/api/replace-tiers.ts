import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { WeightFactorTable, WeightTier } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { withFallback } from './fallback.ts';
import { weightFactorsKey } from './get-route-table.ts';

/**
 * Spec section 8 has two texts for a failed save: the call's 'No se pudieron guardar los tramos' when
 * the server answered without a message, and the screen's 'Error al guardar los tramos' when no
 * answer came (network, timeout); the latter is the screen's, so that case is passed on as it is.
 */
export const replaceTiers = ({ id, tiers }: { id: number; tiers: WeightTier[] }) =>
  withFallback(api.put<WeightFactorTable>(`/weight-factors/${id}/tiers`, { tiers }), 'No se pudieron guardar los tramos', { keepUnanswered: true });

/** Replaces the whole list (spec section 4); the route table and the summary refetch after. */
export function useReplaceTiers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replaceTiers,
    onSettled: () => queryClient.invalidateQueries({ queryKey: weightFactorsKey }),
  });
}
