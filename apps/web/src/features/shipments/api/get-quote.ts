import { queryOptions, useQueries } from '@tanstack/react-query';
import type { ProductType, Quote } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export interface QuoteRequest {
  originId: number;
  destinationId: number;
  productType: ProductType;
  weightKg: number;
}

/**
 * Spec section 7: quotes are cached per (origin, destination, class, weight); the same line typed
 * again is answered from the cache. Price tables change rarely, so a quote stays fresh 5 minutes.
 */
export const quoteQuery = (r: QuoteRequest) =>
  queryOptions({
    queryKey: ['quote', r.originId, r.destinationId, r.productType, r.weightKg] as const,
    queryFn: ({ signal }) => api.get<Quote>('/weight-factors/quote', { ...r }, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });

const keyOf = (r: QuoteRequest) => JSON.stringify(quoteQuery(r).queryKey);

/**
 * One quote per line; a null request (no route or no weight yet) asks nothing. Lines that ask the
 * same thing share one query (useQueries must not hold duplicates) and get the same answer.
 */
export function useLineQuotes(requests: readonly (QuoteRequest | null)[]) {
  const unique = [...new Map(requests.filter((r): r is QuoteRequest => r !== null).map((r) => [keyOf(r), r])).values()];
  const results = useQueries({ queries: unique.map(quoteQuery) });
  return requests.map((r) => (r ? results[unique.findIndex((u) => keyOf(u) === keyOf(r))] : undefined));
}
