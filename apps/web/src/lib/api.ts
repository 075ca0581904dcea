import { sessionStore } from './session.ts';

const TIMEOUT_MS = 20_000;

/** An API failure with the server's Spanish message, machine code and per-field messages. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly fields: Record<string, string> = {},
    /** The whole answer, for calls whose refusals carry more than a message (billing's issue result). */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

const FALLBACKS: Record<number, string> = {
  401: 'No autorizado',
  403: 'Prohibido',
  404: 'Recurso no encontrado',
};

function fallbackMessage(status: number): string {
  if (status >= 500) return 'Error del servidor';
  return FALLBACKS[status] ?? 'Error desconocido';
}

let onUnauthorized: () => void = () => {
  sessionStore.set(null);
  window.location.replace('/login');
};

/** Tests and the app shell may replace what a 401 does (the default logs out and hard-redirects). */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Sent as Idempotency-Key: a retry with the same key gets the first answer, not a second change. */
  idempotencyKey?: string;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const qs = params.toString();
  return `/api${path}${qs ? `?${qs}` : ''}`;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const token = sessionStore.get()?.token;
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;

  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
    });
  } catch (err) {
    if (timeout.aborted) throw new ApiError('Tiempo de espera agotado', 0, 'TIMEOUT');
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError('Error de red', 0, 'NETWORK');
  }

  const text = await res.text();
  let payload: unknown = null;
  if (text) {
    try {
      payload = JSON.parse(text);
    } catch {
      payload = null;
    }
  }
  if (!res.ok) {
    // The login form shows its own 401 message; everywhere else a 401 ends the session.
    if (res.status === 401 && token) onUnauthorized();
    const body = (payload ?? {}) as { error?: string; message?: string; code?: string; fields?: Record<string, string> };
    throw new ApiError(body.error ?? body.message ?? fallbackMessage(res.status), res.status, body.code, body.fields ?? {}, payload);
  }
  return { data: payload as T, headers: res.headers };
}

/** A file the API serves behind the session (a document's PDF or XML), as a Blob the page can show or save. */
export async function apiFile(path: string, query?: RequestOptions['query']): Promise<Blob> {
  const token = sessionStore.get()?.token;
  let res: Response;
  try {
    res = await fetch(buildUrl(path, query), { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new ApiError('Error de red', 0, 'NETWORK');
  }
  if (!res.ok) {
    if (res.status === 401 && token) onUnauthorized();
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new ApiError(body.error ?? fallbackMessage(res.status), res.status);
  }
  return res.blob();
}

export const api = {
  get: async <T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal) => (await apiRequest<T>(path, { query, signal })).data,
  post: async <T>(path: string, body?: unknown, idempotencyKey?: string) =>
    (await apiRequest<T>(path, { method: 'POST', body: body ?? {}, ...(idempotencyKey ? { idempotencyKey } : {}) })).data,
  put: async <T>(path: string, body: unknown) => (await apiRequest<T>(path, { method: 'PUT', body })).data,
  patch: async <T>(path: string, body: unknown) => (await apiRequest<T>(path, { method: 'PATCH', body })).data,
  delete: async <T = void>(path: string) => (await apiRequest<T>(path, { method: 'DELETE' })).data,
};

/**
 * A fresh idempotency key for one intended change (kept while its form is open, so a retry after a
 * timeout repeats it rather than doing it twice). From getRandomValues, which unlike randomUUID
 * also works when the app is opened over plain http on the office network.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function errorMessage(err: unknown, fallback = 'Error desconocido'): string {
  if (err instanceof ApiError || err instanceof Error) return err.message || fallback;
  return fallback;
}
