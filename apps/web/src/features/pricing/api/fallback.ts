import { ApiError } from '../../../lib/api.ts';

/** The call got no answer at all: the network failed or the request timed out. */
export const unanswered = (err: unknown) => err instanceof ApiError && (err.code === 'NETWORK' || err.code === 'TIMEOUT');

/**
 * Spec section 8: the client shows the server's `error` when it sent one, else the call's own
 * fallback text. An ApiError without a server code means no usable body (network, timeout, proxy).
 * With `keepUnanswered` a call that got no answer is passed on unchanged, for screens whose own
 * fallback covers that case (Factor Peso's save).
 */
export async function withFallback<T>(call: Promise<T>, fallback: string, { keepUnanswered = false } = {}): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ApiError && err.code && err.code !== 'NETWORK' && err.code !== 'TIMEOUT') throw err;
    if (err instanceof Error && err.name === 'AbortError') throw err;
    if (keepUnanswered && unanswered(err)) throw err;
    throw new ApiError(fallback, err instanceof ApiError ? err.status : 0, err instanceof ApiError ? err.code : undefined);
  }
}
