import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DestinationReceivables, receivablesAnswerSchema } from '@tramo/domain';
import { api } from '../../../lib/api.ts';

export type ReceivablesAnswer = z.infer<typeof receivablesAnswerSchema>;
export type ReceivableRow = ReceivablesAnswer['items'][number];

/** Receivables per sender customer (DESIGN.md section 5), those matching `q` (name or document). */
export const useReceivables = (q: string) =>
  useQuery({
    queryKey: ['receivables', 'customers', { q }],
    queryFn: ({ signal }) => api.get<ReceivablesAnswer>('/receivables/customers', { q }, signal),
    placeholderData: keepPreviousData,
  });

/** 'Por cobrar en destino' per destination branch (issue 33): pago en destino not yet collected. */
export const useDestinationReceivables = () =>
  useQuery({
    queryKey: ['receivables', 'destination-branches'],
    queryFn: ({ signal }) => api.get<DestinationReceivables>('/receivables/destination-branches', undefined, signal),
  });
