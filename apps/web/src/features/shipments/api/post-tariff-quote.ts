import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TariffQuoteAnswer } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

/** POST /quotes' body: what sets a shipment's price (issue 34). */
export interface TariffQuoteRequest {
  originBranchId: number;
  destinationBranchId: number;
  senderCustomerId: number | null;
  lines: unknown[];
  declaredValue?: number;
  insured: boolean;
  surcharges: string[];
}

/** Every component of the form's price; the last answer stays on screen while the next is asked. */
export const tariffQuoteQuery = (r: TariffQuoteRequest | null) =>
  queryOptions({
    queryKey: ['tariff-quote', r] as const,
    queryFn: () => api.post<TariffQuoteAnswer>('/quotes', r),
    enabled: r !== null,
    staleTime: 60_000,
    retry: false,
    placeholderData: keepPreviousData,
  });

export const useTariffQuote = (r: TariffQuoteRequest | null) => useQuery(tariffQuoteQuery(r));
