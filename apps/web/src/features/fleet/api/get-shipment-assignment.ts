import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShipmentAssignment } from '@tramo/domain';
import { api } from '../../../lib/api.ts';
import { fleetKeys } from './keys.ts';

/** The transport a shipment is loaded on; null when it is on none. */
export const shipmentAssignmentQuery = (shipmentId: string | number) =>
  queryOptions({
    queryKey: fleetKeys.assignment(shipmentId),
    queryFn: ({ signal }) => api.get<ShipmentAssignment | null>(`/shipments/${shipmentId}/assignment`, undefined, signal),
  });

export const useShipmentAssignment = (shipmentId: string | number) => useQuery(shipmentAssignmentQuery(shipmentId));
