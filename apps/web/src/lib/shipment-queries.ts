import { hashKey, type QueryClient } from '@tanstack/react-query';
import type { Shipment } from '@tramo/domain';

/**
 * Every shipment query lives under ['shipments'] and the Panel under ['dashboard'], so one helper
 * (`shipmentsChanged`) refreshes lists, searches, details and counters after any change. Here and
 * not in the shipments feature: deliveries, fleet and incidents change shipments too, and a
 * feature they all imported for this would import them back for its pages.
 */
export const shipmentKeys = {
  all: ['shipments'] as const,
  lists: () => [...shipmentKeys.all, 'list'] as const,
  detail: (idOrCode: string | number) => [...shipmentKeys.all, 'detail', String(idOrCode)] as const,
  /** Tracking and deliveries read any branch's shipment by its code. */
  byCode: (code: string) => [...shipmentKeys.all, 'code', code.toUpperCase()] as const,
  search: (q: string) => [...shipmentKeys.all, 'search', q] as const,
};

export const dashboardKey = ['dashboard'] as const;

/**
 * After a shipment changes (by its own screens, a delivery, or loading it onto a transport): the
 * answer, when there is one, becomes its detail at once under every key it is read by; every other
 * shipment query (lists, searches, histories) and the Panel's counters refetch.
 */
export function shipmentsChanged(queryClient: QueryClient, shipment?: Shipment) {
  const answered = shipment ? [shipmentKeys.detail(shipment.id), shipmentKeys.detail(shipment.code), shipmentKeys.byCode(shipment.code)] : [];
  for (const key of answered) queryClient.setQueryData(key, shipment);
  const fresh = new Set(answered.map(hashKey));
  void queryClient.invalidateQueries({ queryKey: shipmentKeys.all, predicate: (query) => !fresh.has(query.queryHash) });
  void queryClient.invalidateQueries({ queryKey: dashboardKey });
}
