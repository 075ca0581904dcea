import type { QueryClient } from '@tanstack/react-query';
import type { Shipment } from '../types.ts';
import { dashboardKey, shipmentKeys } from './keys.ts';

/**
 * After a shipment changes: the answer becomes its detail at once (by id and by code), and lists
 * and the Panel's counters refetch.
 */
export function shipmentChanged(queryClient: QueryClient, shipment?: Shipment) {
  if (shipment) {
    queryClient.setQueryData(shipmentKeys.detail(shipment.id), shipment);
    queryClient.setQueryData(shipmentKeys.detail(shipment.code), shipment);
  }
  void queryClient.invalidateQueries({ queryKey: shipmentKeys.lists() });
  void queryClient.invalidateQueries({ queryKey: dashboardKey });
}
