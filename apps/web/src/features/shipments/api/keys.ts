/**
 * Every shipment query lives under ['shipments'] and the Panel under ['dashboard'], so a mutation
 * refreshes lists, details and counters with two invalidations.
 */
export const shipmentKeys = {
  all: ['shipments'] as const,
  lists: () => [...shipmentKeys.all, 'list'] as const,
  detail: (idOrCode: string | number) => [...shipmentKeys.all, 'detail', String(idOrCode)] as const,
};

export const dashboardKey = ['dashboard'] as const;
