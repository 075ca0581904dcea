import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Shipment } from '../types.ts';
import { shipmentKeys } from '../../../lib/shipment-queries.ts';

/** By numeric id or by code (TMT-000123): the API accepts both on the same path. */
export const shipmentQuery = (idOrCode: string | number) =>
  queryOptions({
    queryKey: shipmentKeys.detail(idOrCode),
    queryFn: ({ signal }) => api.get<Shipment>(`/shipments/${encodeURIComponent(String(idOrCode))}`, undefined, signal),
  });

export const useShipment = (idOrCode: string | number | null | undefined) =>
  useQuery({ ...shipmentQuery(idOrCode ?? ''), enabled: idOrCode !== null && idOrCode !== undefined && idOrCode !== '' });
