import { ApiError } from '../../../lib/api.ts';

/**
 * Spec section 8: the client shows the server's `error` when it sent one, else the call's own
 * fallback text. An ApiError without a server code means no usable body (network, timeout, proxy).
 */
export async function withFallback<T>(call: Promise<T>, fallback: string): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ApiError && err.code && err.code !== 'NETWORK' && err.code !== 'TIMEOUT') throw err;
    if (err instanceof Error && err.name === 'AbortError') throw err;
    throw new ApiError(fallback, err instanceof ApiError ? err.status : 0, err instanceof ApiError ? err.code : undefined);
  }
}
