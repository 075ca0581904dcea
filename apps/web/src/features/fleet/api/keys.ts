import type { QueryClient } from '@tanstack/react-query';
import { shipmentsChanged } from '../../../lib/shipment-queries.ts';

/** Whose documents: the API path segment of a vehicle or a driver. */
export type DocumentHolderKind = 'transports' | 'drivers';

/** Every fleet query lives under ['fleet'], so a load or an edit refreshes lists, loads and assignments together. */
export const fleetKeys = {
  all: ['fleet'] as const,
  transports: () => [...fleetKeys.all, 'transports'] as const,
  drivers: () => [...fleetKeys.all, 'drivers'] as const,
  load: (transportId: number) => [...fleetKeys.all, 'load', transportId] as const,
  loadable: () => [...fleetKeys.all, 'loadable'] as const,
  assignment: (shipmentId: string | number) => [...fleetKeys.all, 'assignment', String(shipmentId)] as const,
  trip: (transportId: number) => [...fleetKeys.all, 'trip', transportId] as const,
  unloadCheck: (transportId: number) => [...fleetKeys.all, 'unload-check', transportId] as const,
  expiringDocuments: (within: number) => [...fleetKeys.all, 'expiring-documents', within] as const,
  holderDocuments: (kind: DocumentHolderKind, id: number) => [...fleetKeys.all, 'documents', kind, id] as const,
  compliance: (transportId: number) => [...fleetKeys.all, 'compliance', transportId] as const,
};

/** After loading or unloading: fleet data, and the shipments (their history shows the 'Cargado en …' events). */
export function loadChanged(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: fleetKeys.all });
  shipmentsChanged(queryClient);
}
