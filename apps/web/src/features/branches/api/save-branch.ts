import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Branch, BranchInput } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { branchesKey } from './get-branches.ts';

export const saveBranch = ({ id, ...input }: BranchInput & { id?: number }) =>
  id ? api.put<Branch>(`/branches/${id}`, input) : api.post<Branch>('/branches', input);

/** Create (no id) or update; the list is refetched after either (spec section 7). */
export function useSaveBranch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveBranch,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: branchesKey }),
  });
}
