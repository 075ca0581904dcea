import type { QueryClient } from '@tanstack/react-query';

/** Every fleet query lives under ['fleet'], so a load or an edit refreshes lists, loads and assignments together. */
export const fleetKeys = {
  all: ['fleet'] as const,
  transports: () => [...fleetKeys.all, 'transports'] as const,
  drivers: () => [...fleetKeys.all, 'drivers'] as const,
  load: (transportId: number) => [...fleetKeys.all, 'load', transportId] as const,
  loadable: () => [...fleetKeys.all, 'loadable'] as const,
  assignment: (shipmentId: string | number) => [...fleetKeys.all, 'assignment', String(shipmentId)] as const,
};

/**
 * After loading or unloading: fleet data, and the shipments feature's queries (its history shows
 * the 'Cargado en …' events). ['shipments'] is the root key that feature documents for all its queries.
 */
export function loadChanged(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: fleetKeys.all });
  void queryClient.invalidateQueries({ queryKey: ['shipments'] });
}
