// What other features may use from shipments: its queries, the keys and the one refresh after a
// change, the shared views, and the types.
export { LabelModal } from './components/LabelModal.tsx';
export { ShipmentHistory } from './components/ShipmentHistory.tsx';
export { ShipmentsTable, type ShipmentColumn, type ShipmentSearchColumn } from './components/ShipmentsTable.tsx';
export { BranchFilter, DateRangeFilter, StatusFilter } from './components/ShipmentFilters.tsx';
export { useShipments, type ShipmentListParams } from './api/get-shipments.ts';
export { useShipmentByCode } from './api/get-shipment-by-code.ts';
export { useShipmentSearch } from './api/search-shipments.ts';
export { dashboardKey, shipmentKeys } from './api/keys.ts';
export { shipmentsChanged } from './api/invalidate.ts';
export type { Shipment } from './types.ts';
