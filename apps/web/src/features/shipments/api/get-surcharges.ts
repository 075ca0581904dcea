import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { articleAnswerSchema, surchargeAnswerSchema, TariffSettingsAnswer } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export type Surcharge = z.infer<typeof surchargeAnswerSchema>;
export type Article = z.infer<typeof articleAnswerSchema>;

/** The surcharge catalogue the form offers (issue 34); it changes rarely. */
export const surchargesQuery = queryOptions({
  queryKey: ['tariffs', 'surcharges'] as const,
  queryFn: ({ signal }) => api.get<Surcharge[]>('/tariffs/surcharges', undefined, signal),
  staleTime: 5 * 60_000,
});
export const useSurcharges = () => useQuery(surchargesQuery);

export const articlesQuery = queryOptions({
  queryKey: ['tariffs', 'articles'] as const,
  queryFn: ({ signal }) => api.get<Article[]>('/tariffs/articles', undefined, signal),
  staleTime: 5 * 60_000,
});
export const useArticles = () => useQuery(articlesQuery);

/** The liability clause the label prints (issue 34), with the rest of the tariff settings. */
export const tariffSettingsQuery = queryOptions({
  queryKey: ['tariffs', 'settings'] as const,
  queryFn: ({ signal }) => api.get<TariffSettingsAnswer>('/tariffs/settings', undefined, signal),
  staleTime: 5 * 60_000,
});
export const useTariffSettings = () => useQuery(tariffSettingsQuery);
