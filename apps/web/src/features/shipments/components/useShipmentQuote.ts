import { useMemo } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { totalLines } from '@tramo/domain';
import { ApiError } from '../../../lib/api.ts';
import { useLineQuotes, type QuoteRequest } from '../api/get-quote.ts';
import { roundWeight, type LineValues } from './shipment-form.ts';
import type { LineQuoteState } from './WeightLines.tsx';

/** Spec section 7: a line is requoted 300 ms after the user stops changing it. */
const QUOTE_DEBOUNCE_MS = 300;

/**
 * The live quote of the form: each line's price once the route and its weight are known, and the
 * totals (domain's `totalLines`: weights in hundredths of a kg, prices in céntimos).
 */
export function useShipmentQuote(originBranchId: number | null, destinationBranchId: number | null, lines: readonly LineValues[]) {
  const requests: (QuoteRequest | null)[] = lines.map((l) =>
    originBranchId && destinationBranchId && typeof l.weightKg === 'number' && l.weightKg > 0
      ? { originId: originBranchId, destinationId: destinationBranchId, productType: l.productType, weightKg: roundWeight(l.weightKg) }
      : null,
  );
  // Debounced as text: a fresh array every render would restart the timer forever.
  const requestKey = JSON.stringify(requests);
  const [settledKey] = useDebouncedValue(requestKey, QUOTE_DEBOUNCE_MS);
  const settled = useMemo(() => JSON.parse(settledKey) as (QuoteRequest | null)[], [settledKey]);
  const results = useLineQuotes(settled);

  const quotes: LineQuoteState[] = requests.map((r, i) => {
    if (!r) return { state: 'idle' };
    const result = results[i];
    if (JSON.stringify(settled[i] ?? null) !== JSON.stringify(r) || !result || result.isPending) return { state: 'loading' };
    if (result.isError) {
      const err = result.error;
      return { state: 'error', error: err, outOfRange: err instanceof ApiError && (err.code === 'OUT_OF_RANGE' || err.status === 422) };
    }
    return result.data ? { state: 'ok', quote: result.data } : { state: 'idle' };
  });

  const totals = totalLines(
    lines.map((l, i) => {
      const quote = quotes[i];
      return {
        productType: l.productType,
        weightKg: typeof l.weightKg === 'number' ? l.weightKg : 0,
        price: quote?.state === 'ok' ? quote.quote.price : null,
      };
    }),
  );
  return {
    quotes,
    totalWeightKg: totals.weightKg,
    totalPrice: totals.price,
    /** A line is still being priced. */
    pending: quotes.some((q) => q.state === 'loading'),
    /** A line could not be priced (outside the tiers, no table): creation waits. */
    blocked: quotes.some((q) => q.state === 'error'),
  };
}
