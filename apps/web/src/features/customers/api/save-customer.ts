import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Customer, CustomerInput } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { customersKey } from './get-customers.ts';
import { lookupKey } from './lookup-document.ts';

export const saveCustomer = ({ id, ...input }: CustomerInput & { id?: number }) =>
  id ? api.put<Customer>(`/customers/${id}`, input) : api.post<Customer>('/customers', input);

/** Create (no id) or update; every customer list is refetched after either. */
export function useSaveCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCustomer,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: customersKey }), queryClient.invalidateQueries({ queryKey: lookupKey })]),
  });
}
