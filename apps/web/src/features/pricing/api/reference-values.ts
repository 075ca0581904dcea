import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RouteReferenceAnswer, RouteReferenceInput } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

const referenceValuesKey = ['pricing', 'reference-values'] as const;

/** Every route's reference values for the freight detracción. */
export const useReferenceValues = () =>
  useQuery({
    queryKey: referenceValuesKey,
    queryFn: ({ signal }) => api.get<RouteReferenceAnswer[]>('/pricing/reference-values', undefined, signal),
  });

/** Sets a route's values (admin); the list refetches after. */
export function usePutReferenceValues() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RouteReferenceInput) => api.put<RouteReferenceAnswer>('/pricing/reference-values', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: referenceValuesKey }),
  });
}
