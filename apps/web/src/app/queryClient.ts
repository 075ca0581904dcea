import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api.ts';

/**
 * Spec section 9: fresh for 30 s, kept 5 min, no refetch on focus; queries retry once, mutations
 * never. The retry waits 350 ms and happens only where another try can help: a network failure,
 * a server error or a 429 (billing spec section 7); any other 4xx will not change.
 */
export function shouldRetryQuery(failures: number, err: unknown): boolean {
  const hopeless = err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429;
  return failures < 1 && !hopeless;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      gcTime: 5 * 60_000,
      refetchOnWindowFocus: false,
      retry: shouldRetryQuery,
      retryDelay: 350,
    },
    mutations: { retry: false },
  },
});
