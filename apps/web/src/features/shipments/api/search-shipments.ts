import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { ShipmentSearchRow } from '@tramo/domain';
import { shipmentKeys } from '../../../lib/shipment-queries.ts';

/** GET /shipments/search: code, recipient document or name, every branch, read-only (at most 20). */
export const shipmentSearchQuery = (q: string) =>
  queryOptions({
    queryKey: shipmentKeys.search(q),
    queryFn: ({ signal }) => api.get<ShipmentSearchRow[]>('/shipments/search', { q }, signal),
  });

export const useShipmentSearch = (q: string) => useQuery({ ...shipmentSearchQuery(q), enabled: q.trim().length > 0 });
