/**
 * Every shipment query lives under ['shipments'] and the Panel under ['dashboard'], so one helper
 * (`shipmentsChanged`) refreshes lists, searches, details and counters after any change.
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
