import { hashKey, type QueryClient } from '@tanstack/react-query';
import type { Shipment } from '../types.ts';
import { dashboardKey, shipmentKeys } from './keys.ts';

/**
 * After a shipment changes (here, by a delivery, or by loading it onto a transport): the answer, when
 * there is one, becomes its detail at once under every key it is read by; every other shipment
 * query (lists, searches, histories) and the Panel's counters refetch.
 */
export function shipmentsChanged(queryClient: QueryClient, shipment?: Shipment) {
  const answered = shipment ? [shipmentKeys.detail(shipment.id), shipmentKeys.detail(shipment.code), shipmentKeys.byCode(shipment.code)] : [];
  for (const key of answered) queryClient.setQueryData(key, shipment);
  const fresh = new Set(answered.map(hashKey));
  void queryClient.invalidateQueries({ queryKey: shipmentKeys.all, predicate: (query) => !fresh.has(query.queryHash) });
  void queryClient.invalidateQueries({ queryKey: dashboardKey });
}
