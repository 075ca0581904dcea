import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Company, CompanyInput } from '@tramo/domain';
import { api, apiFile } from '../../../lib/api.ts';

const companyKeys = { all: ['company'] as const, logo: ['company', 'logo'] as const };

/** The company's data ('Empresa', admins only). */
export const companyQuery = () =>
  queryOptions({ queryKey: companyKeys.all, queryFn: ({ signal }) => api.get<Company>('/settings/company', undefined, signal) });
export const useCompany = () => useQuery(companyQuery());

/** The stored logo (fetched with the session), when there is one. */
export const useCompanyLogo = (enabled: boolean) =>
  useQuery({ queryKey: companyKeys.logo, queryFn: () => apiFile('/settings/company/logo'), enabled, retry: false });

export function useSaveCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyInput) => api.put<Company>('/settings/company', body),
    onSuccess: (saved) => {
      queryClient.setQueryData(companyKeys.all, saved);
      void queryClient.invalidateQueries({ queryKey: companyKeys.logo });
    },
  });
}
