import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreditableDocument, DocumentDetail, DocumentFilters, DocumentStatus, DocumentPage, UnbilledShipment, VoidStatus } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

/** How often an open pending document is consulted again (each consult is audited). */
const PENDING_POLL_MS = 5_000;
const PENDING: readonly DocumentStatus[] = ['pendiente', 'anulación pendiente'];

export const billingKey = ['billing'] as const;
const documentsKey = [...billingKey, 'documents'] as const;
const documentKey = (id: number) => [...billingKey, 'document', id] as const;

export interface DocumentQuery extends DocumentFilters {
  page: number;
  pageSize: number;
  /** Past the numbered pages: the cursor of 'Siguiente' (after) or 'Anterior' (before). */
  after?: string;
  before?: string;
}

export const documentsQuery = (q: DocumentQuery) =>
  queryOptions({
    queryKey: [...documentsKey, q],
    queryFn: ({ signal }) => api.get<DocumentPage>('/billing/documents', { ...q }, signal),
  });

/** The register: one page of the filtered documents and the totals of the whole filtered set. */
export const useDocuments = (q: DocumentQuery, enabled = true) => useQuery({ ...documentsQuery(q), enabled, placeholderData: keepPreviousData });

/** One document: lines, totals, QR, provider answers, history. A pending one is consulted by the API. */
export const useDocument = (id: number | null) =>
  useQuery({
    queryKey: documentKey(id ?? 0),
    queryFn: ({ signal }) => api.get<DocumentDetail>(`/billing/lookup/${id}`, undefined, signal),
    enabled: id !== null,
    // SUNAT answers a boleta or a void later: while it is pending, the open document asks again.
    refetchInterval: (query) => (query.state.data && PENDING.includes(query.state.data.status) ? PENDING_POLL_MS : false),
  });

/** A sender's shipments not Anulado and on no live document. */
export const useUnbilledShipments = (customerId: number | null) =>
  useQuery({
    queryKey: [...billingKey, 'unbilled', customerId],
    queryFn: ({ signal }) => api.get<UnbilledShipment[]>('/billing/unbilled-shipments', { customerId }, signal),
    enabled: customerId !== null,
  });

/** The accepted facturas and boletas a credit note may modify (the customer's, or matching the search), with what is left to credit. */
export const useCreditableDocuments = (customerDocNumber: string, search: string) =>
  useQuery({
    queryKey: [...billingKey, 'creditable', customerDocNumber, search],
    queryFn: ({ signal }) =>
      api.get<CreditableDocument[]>('/billing/creditable', { customerDocNumber: customerDocNumber || undefined, q: search || undefined }, signal),
    placeholderData: keepPreviousData,
  });

/** Everything billing shows is stale after an issue, a consult or a void (register, detail, unbilled shipments). */
export function useInvalidateBilling() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: billingKey });
}

/** 'Consultar': asks the provider again (the lookup completes a pending document). */
export function useConsultDocument() {
  const invalidate = useInvalidateBilling();
  return useMutation({
    mutationFn: (id: number) => api.get<DocumentDetail>(`/billing/lookup/${id}`),
    onSuccess: () => invalidate(),
  });
}

export function useVoidDocument() {
  const invalidate = useInvalidateBilling();
  return useMutation({
    mutationFn: (input: { id: number; motivo: string }) => api.post<VoidStatus>('/billing/void', input),
    onSettled: () => invalidate(),
  });
}

export function useVoidStatus() {
  const invalidate = useInvalidateBilling();
  return useMutation({
    mutationFn: (id: number) => api.get<VoidStatus>(`/billing/void-status/${id}`),
    onSuccess: () => invalidate(),
  });
}
