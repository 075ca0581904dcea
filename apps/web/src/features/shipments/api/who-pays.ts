import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CreditStatusAnswer, WhoPaysChange, whoPaysRulesAnswerSchema } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';
import type { Shipment } from '../types.ts';

export type WhoPaysRulesAnswer = z.infer<typeof whoPaysRulesAnswerSchema>;

/** The company's 'Reglas de cobro' (issue 33): the form warns on the field before the API refuses. */
export const whoPaysRulesQuery = queryOptions({
  queryKey: ['settings', 'who-pays'] as const,
  queryFn: ({ signal }) => api.get<WhoPaysRulesAnswer>('/settings/who-pays', undefined, signal),
  staleTime: 5 * 60_000,
});
export const useWhoPaysRules = () => useQuery(whoPaysRulesQuery);

/** The form's values as PUT /shipments/{id}/who-pays takes them (the API applies the defaults and the rules). */
export type WhoPaysInput = Omit<WhoPaysChange, 'payerDocType' | 'creditOverrideReason'> & {
  payerDocType: number | null;
  creditOverrideReason?: string | null;
};

export function useChangeWhoPays() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: WhoPaysInput & { id: number }) => api.put<Shipment>(`/shipments/${id}/who-pays`, body),
    onSuccess: (shipment) => shipmentsChanged(queryClient, shipment),
  });
}

/** Whether the paying customer has an active credit account (issue 35): 'Crédito' is offered only then. */
export const useCreditStatus = (customerId: number | null) =>
  useQuery({
    queryKey: ['credit', 'status', customerId],
    queryFn: ({ signal }) => api.get<CreditStatusAnswer>(`/credit/customers/${customerId}/status`, undefined, signal),
    enabled: customerId !== null,
    staleTime: 30_000,
  });
