import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentKeys } from '../../../lib/shipment-queries.ts';

/** GET /shipments/code/{code}: the full shipment with its history, for every branch (tracking, deliveries). */
export const shipmentByCodeQuery = (code: string) =>
  queryOptions({
    queryKey: shipmentKeys.byCode(code),
    queryFn: ({ signal }) => api.get<Shipment>(`/shipments/code/${encodeURIComponent(code)}`, undefined, signal),
  });

export const useShipmentByCode = (code: string | null) => useQuery({ ...shipmentByCodeQuery(code ?? ''), enabled: !!code });
