import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { branchesKey } from './get-branches.ts';

export const deleteBranch = (id: number) => api.delete(`/branches/${id}`);

export function useDeleteBranch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBranch,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: branchesKey }),
  });
}
