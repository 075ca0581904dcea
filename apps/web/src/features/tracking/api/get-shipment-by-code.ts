import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../../shipments/index.ts';

export const shipmentByCodeKey = (code: string) => ['shipments', 'code', code.toUpperCase()] as const;

/** GET /shipments/code/{code}: the full shipment with its history, for every branch (tracking, deliveries). */
export const shipmentByCodeQuery = (code: string) =>
  queryOptions({
    queryKey: shipmentByCodeKey(code),
    queryFn: ({ signal }) => api.get<Shipment>(`/shipments/code/${encodeURIComponent(code)}`, undefined, signal),
  });

export const useShipmentByCode = (code: string | null) => useQuery({ ...shipmentByCodeQuery(code ?? ''), enabled: !!code });
