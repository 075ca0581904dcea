import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CollectionInput,
  CreditAccountAnswer,
  CreditAccountDetail,
  CreditAccountInput,
  CreditAgeingAnswer,
  CreditStatementAnswer,
  DuePeriodsAnswer,
  PeriodBatchAnswer,
  PeriodBatchInput,
  IssueResult,
  Customer,
  Page,
  StatementSendAnswer,
  StatementSendValues,
} from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export const creditKey = ['credit'] as const;

export const accountsQuery = () =>
  queryOptions({
    queryKey: [...creditKey, 'accounts'],
    queryFn: ({ signal }) => api.get<CreditAccountAnswer[]>('/credit/accounts', undefined, signal),
  });
export const useCreditAccounts = () => useQuery(accountsQuery());

export const useCreditAccount = (customerId: number | null) =>
  useQuery({
    queryKey: [...creditKey, 'account', customerId],
    queryFn: ({ signal }) => api.get<CreditAccountDetail>(`/credit/accounts/${customerId}`, undefined, signal),
    enabled: customerId !== null,
  });

export const useCreditAgeing = (overLimit: boolean) =>
  useQuery({
    queryKey: [...creditKey, 'ageing', overLimit],
    queryFn: ({ signal }) => api.get<CreditAgeingAnswer>('/credit/ageing', { overLimit: overLimit ? 'true' : undefined }, signal),
    placeholderData: keepPreviousData,
  });

export const useCreditStatement = (customerId: number, from: string, to: string, enabled: boolean) =>
  useQuery({
    queryKey: [...creditKey, 'statement', customerId, from, to],
    queryFn: ({ signal }) => api.get<CreditStatementAnswer>(`/credit/accounts/${customerId}/statement`, { from, to }, signal),
    enabled,
  });

/** RUC customers for the 'Abrir cuenta' picker: the directory's own search, RUC only. */
export const useRucCustomers = (q: string) =>
  useQuery({
    queryKey: ['customers', { q, pageSize: 20, for: 'credit' }],
    queryFn: ({ signal }) => api.get<Page<Customer>>('/customers', { q, pageSize: 20 }, signal),
    select: (page) => page.items.filter((c) => c.doc_type === 6),
    placeholderData: keepPreviousData,
  });

function useCreditMutation<V, R>(fn: (values: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: creditKey }) });
}

export const useSaveAccount = () =>
  useCreditMutation(({ customerId, ...body }: CreditAccountInput & { customerId: number }) =>
    api.put<CreditAccountDetail>(`/credit/accounts/${customerId}`, body),
  );

export const useRegisterCollection = () =>
  useCreditMutation(({ key, ...body }: CollectionInput & { key: string }) =>
    api.post<{ id: number; account: CreditAccountDetail }>('/credit/collections', body, key),
  );

export const useVoidCollection = () =>
  useCreditMutation(({ id, reason }: { id: number; reason: string }) => api.post<CreditAccountDetail>(`/credit/collections/${id}/void`, { reason }));

export const useDetractionDeposit = () =>
  useCreditMutation(({ documentId, ...body }: { documentId: number; constancia: string; depositedOn: string }) =>
    api.post(`/credit/invoices/${documentId}/detraction-deposit`, body),
  );

export const useIssuePeriodInvoice = () =>
  useCreditMutation(
    ({ customerId, ...body }: { customerId: number; from: string; to: string; grouping: 'envio' | 'ruta'; detractionAccount: string | null }) =>
      api.post<IssueResult>(`/credit/accounts/${customerId}/invoice-period`, body),
  );

export const useSendStatement = () =>
  useCreditMutation(({ customerId, key, ...body }: StatementSendValues & { customerId: number; key: string }) =>
    api.post<StatementSendAnswer>(`/credit/accounts/${customerId}/statement/send`, body, key),
  );
/** 'Facturar periodos vencidos': what the run would issue (read while the form is open). */
export const useDuePeriods = (grouping: 'envio' | 'ruta', enabled: boolean) =>
  useQuery({
    queryKey: [...creditKey, 'due-periods', grouping],
    queryFn: ({ signal }) => api.get<DuePeriodsAnswer>('/credit/period-invoices/due', { grouping }, signal),
    enabled,
    placeholderData: keepPreviousData,
  });

export const useIssueDuePeriods = () =>
  useCreditMutation(({ key, ...body }: PeriodBatchInput & { key: string }) => api.post<PeriodBatchAnswer>('/credit/period-invoices', body, key));
