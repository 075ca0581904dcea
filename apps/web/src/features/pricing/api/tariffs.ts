import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  articleAnswerSchema,
  articlePriceAnswerSchema,
  CustomerRoutePricesAnswer,
  customerTariffAnswerSchema,
  routeTariffAnswerSchema,
  surchargeAnswerSchema,
  TariffSettingsAnswer,
} from '@tramo/domain';
import { api } from '../../../lib/api.ts';

/**
 * The tariff catalogues of issue 34 ('Tarifas'): the same query keys as the new-shipment form's
 * (['tariffs', …]), so a change here reaches the form's surcharges, articles and clause.
 */
export type Article = z.infer<typeof articleAnswerSchema>;
export type ArticlePrice = z.infer<typeof articlePriceAnswerSchema>;
export type RouteTariff = z.infer<typeof routeTariffAnswerSchema>;
export type Surcharge = z.infer<typeof surchargeAnswerSchema>;
export type CustomerTariff = z.infer<typeof customerTariffAnswerSchema>;
export interface RouteRef {
  originBranchId: number;
  destinationBranchId: number;
}

const keys = {
  all: ['tariffs'] as const,
  settings: ['tariffs', 'settings'] as const,
  articles: ['tariffs', 'articles'] as const,
  articlePrices: (id: number) => ['tariffs', 'articles', id, 'prices'] as const,
  routes: ['tariffs', 'routes'] as const,
  surcharges: ['tariffs', 'surcharges'] as const,
  customer: (id: number) => ['tariffs', 'customers', id] as const,
  customerRoutes: (id: number) => ['tariffs', 'customers', id, 'routes'] as const,
};

export const useTariffSettingsQuery = () =>
  useQuery({ queryKey: keys.settings, queryFn: ({ signal }) => api.get<TariffSettingsAnswer>('/tariffs/settings', undefined, signal) });
export const useArticleList = () =>
  useQuery({ queryKey: keys.articles, queryFn: ({ signal }) => api.get<Article[]>('/tariffs/articles', undefined, signal) });
export const useArticlePrices = (id: number | null) =>
  useQuery({
    queryKey: keys.articlePrices(id ?? 0),
    queryFn: ({ signal }) => api.get<ArticlePrice[]>(`/tariffs/articles/${id}/prices`, undefined, signal),
    enabled: id !== null,
  });
export const useRouteTariffs = () =>
  useQuery({ queryKey: keys.routes, queryFn: ({ signal }) => api.get<RouteTariff[]>('/tariffs/routes', undefined, signal) });
export const useSurchargeList = () =>
  useQuery({ queryKey: keys.surcharges, queryFn: ({ signal }) => api.get<Surcharge[]>('/tariffs/surcharges', undefined, signal) });
export const useCustomerTariff = (id: number | null) =>
  useQuery({
    queryKey: keys.customer(id ?? 0),
    queryFn: ({ signal }) => api.get<CustomerTariff>(`/tariffs/customers/${id}`, undefined, signal),
    enabled: id !== null,
  });

/** Every tariff change may move a quote: all of ['tariffs', …] is read again. */
function useTariffMutation<TBody, TAnswer>(send: (body: TBody) => Promise<TAnswer>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: send, onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.all }) });
}

export const useSaveTariffSettings = () =>
  useTariffMutation((body: Record<string, unknown>) => api.put<TariffSettingsAnswer>('/tariffs/settings', body));
export const useCreateArticle = () =>
  useTariffMutation((body: { name: string; unit: string; unitCode: string }) => api.post<Article>('/tariffs/articles', body));
export const usePutArticlePrice = () =>
  useTariffMutation(({ articleId, ...body }: RouteRef & { articleId: number; price: string }) =>
    api.put<ArticlePrice>(`/tariffs/articles/${articleId}/prices`, body),
  );
export const usePutRouteTariff = () =>
  useTariffMutation((body: RouteRef & { minimumCharge: string; volumetricDivisor: string }) => api.put<RouteTariff>('/tariffs/routes', body));
export const usePutSurcharge = () =>
  useTariffMutation(({ code, ...body }: { code: string; description: string; fixedAmount: string; percent: string; active: boolean }) =>
    api.put<Surcharge>(`/tariffs/surcharges/${code}`, body),
  );
export const usePutCustomerTariff = () =>
  useTariffMutation(({ customerId, discount }: { customerId: number; discount: string }) =>
    api.put<CustomerTariff>(`/tariffs/customers/${customerId}`, { discount }),
  );
export const useCloneTariff = () =>
  useTariffMutation((body: { from: RouteRef; to: RouteRef[] }) => api.post<{ articlePrices: number; minimumCharge: number }>('/tariffs/clone', body));

export type CustomerRoutePrices = CustomerRoutePricesAnswer;
export const useCustomerRoutePrices = (id: number) =>
  useQuery({
    queryKey: keys.customerRoutes(id),
    queryFn: ({ signal }) => api.get<CustomerRoutePrices[]>(`/tariffs/customers/${id}/routes`, undefined, signal),
  });
export const usePutCustomerRoutePrices = () =>
  useTariffMutation(
    ({
      customerId,
      ...body
    }: RouteRef & {
      customerId: number;
      tiers: Record<string, { from_kg: string; to_kg: string; factor_per_kg: string }[]>;
      articles: { articleId: number; price: string }[];
    }) => api.put<CustomerRoutePrices>(`/tariffs/customers/${customerId}/routes`, body),
  );
