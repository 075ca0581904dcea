import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SalesRegister } from '@tramo/domain';
import { api, apiFile } from '../../../lib/api.ts';

/** `GET /billing/registro-ventas?mes=`: the month's Registro de Ventas, its totals and the counters they must match. */
export const salesRegisterQuery = (month: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ['billing', 'registro-ventas', month, page, pageSize],
    queryFn: ({ signal }) => api.get<SalesRegister>('/billing/registro-ventas', { mes: month, page, pageSize }, signal),
  });
export const useSalesRegister = (month: string, page: number, pageSize: number) => useQuery(salesRegisterQuery(month, page, pageSize));

/** The month's PLE 14.1 text file or its CSV (with the browser's locale: ';' where decimals take a comma). */
export function fetchSalesRegisterFile(month: string, file: 'txt' | 'csv'): Promise<Blob> {
  return file === 'txt'
    ? apiFile('/billing/registro-ventas.txt', { mes: month })
    : apiFile('/billing/registro-ventas.csv', { mes: month, locale: navigator.language || 'es-PE' });
}
