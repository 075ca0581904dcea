import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { MovementFilters, MovementPage } from '@tramo/domain';
import { ApiError, api } from '../../../lib/api.ts';
import { sessionStore } from '../../../lib/session.ts';

export const movementsKey = ['movements'] as const;

export interface MovementQuery extends MovementFilters {
  page: number;
  pageSize: number;
  /** Past the numbered pages: the cursor of 'Siguiente' (after) or 'Anterior' (before). */
  after?: string;
  before?: string;
}

/** The API's query: blank filters are left out. */
const queryOf = (q: Partial<MovementQuery>) => ({ ...q }) as Record<string, string | number | undefined>;

export const movementsQuery = (q: MovementQuery) =>
  queryOptions({
    queryKey: [...movementsKey, q],
    queryFn: ({ signal }) => api.get<MovementPage>('/payments/report/movements', queryOf(q), signal),
  });

/** One page of the filtered movements and the totals of the whole filtered set. */
export const useMovements = (q: MovementQuery, enabled = true) => useQuery({ ...movementsQuery(q), enabled, placeholderData: keepPreviousData });

export const CSV_EXPORT_FAILED = 'No se pudo exportar el CSV';

/**
 * The whole filtered set as one CSV the server streams: the body is read as it comes, `onRows`
 * hears the rows so far (line breaks seen), and `signal` cancels. No timeout: a large export takes
 * as long as it takes, and the user can cancel it.
 */
export async function downloadMovementsCsv(
  filters: MovementFilters,
  locale: string,
  { signal, onRows }: { signal: AbortSignal; onRows(rows: number): void },
): Promise<Blob> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...filters, locale })) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const token = sessionStore.get()?.token;
  let res: Response;
  try {
    res = await fetch(`/api/payments/report/movements.csv?${params.toString()}`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(CSV_EXPORT_FAILED, 0, 'NETWORK');
  }
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { error?: string; message?: string };
    throw new ApiError(body.error ?? body.message ?? CSV_EXPORT_FAILED, res.status);
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let lines = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      for (const byte of value) if (byte === 10) lines += 1;
      onRows(lines);
    }
  } catch (err) {
    // Cancelled by the user, or the connection dropped halfway: never a partial file.
    if (signal.aborted) throw err;
    throw new ApiError(CSV_EXPORT_FAILED, 0, 'NETWORK');
  }
  return new Blob(chunks, { type: res.headers.get('content-type') ?? 'text/csv;charset=utf-8' });
}
