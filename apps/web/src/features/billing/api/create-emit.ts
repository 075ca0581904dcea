import { useMutation } from '@tanstack/react-query';
import { INVOICE_MESSAGES, type IssueResult } from '@tramo/domain';
import { apiRequest, ApiError } from '../../../lib/api.ts';
import { useInvalidateBilling } from './documents.ts';

/** What the form shows after 'Crear Documento': the issued (or pending) document, or why not. */
export type IssueOutcome =
  { kind: 'issued'; result: IssueResult } | { kind: 'refused'; problems: string[] } | { kind: 'failed'; message: string; result: IssueResult | null };

function isIssueResult(body: unknown): body is IssueResult {
  return typeof body === 'object' && body !== null && 'ok' in body && 'serie' in body;
}

/**
 * POST …/create-emit. 201/200 issued, 202 pending (the provider did not answer: the document
 * keeps its number and a consult completes it), 422 the rules' list for 'Corrige:', 424 the
 * provider refused ('Error al emitir' and its message); anything else reads 'HTTP {status}'.
 */
/** Issues through `path`: /billing/create-emit, /guides/create-emit, /retencion/create-emit or /percepcion/create-emit. */
export function useCreateEmit<P>(path = '/billing/create-emit') {
  const invalidate = useInvalidateBilling();
  return useMutation({
    mutationFn: async (payload: P): Promise<IssueOutcome> => {
      try {
        const { data } = await apiRequest<IssueResult>(path, { method: 'POST', body: payload });
        return { kind: 'issued', result: data };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        const body = err.body;
        if (isIssueResult(body)) {
          if (body.problems?.length) return { kind: 'refused', problems: body.problems };
          // Numbered but refused by the provider or SUNAT: the card shows the document and why.
          if (body.id !== null) {
            const why = body.error ?? '';
            return {
              kind: 'failed',
              message: err.status === 424 ? `${INVOICE_MESSAGES.emitFailed}: ${why}` : why || INVOICE_MESSAGES.emitFailed,
              result: body,
            };
          }
        }
        if (err.status === 0) return { kind: 'failed', message: err.message, result: null };
        return { kind: 'failed', message: `${INVOICE_MESSAGES.httpStatus(err.status)}: ${err.message}`, result: null };
      }
    },
    onSettled: () => invalidate(),
  });
}
