import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { customersKey } from './get-customers.ts';
import { lookupKey } from './lookup-document.ts';

export const deleteCustomer = (id: number) => api.delete(`/customers/${id}`);

export function useDeleteCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCustomer,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: customersKey }), queryClient.invalidateQueries({ queryKey: lookupKey })]),
  });
}
