// What other features and the pages composed in app/routes may use from shipments: its queries and
// mutations, the shared views, the list's URL filters, and the types. Its query keys and the one
// refresh after a change live in lib/shipment-queries.ts, since other features change shipments too.
export { LabelModal } from './components/LabelModal.tsx';
export { ReturnModal } from './components/ReturnModal.tsx';
export { PublicTrackingBox } from './components/PublicTrackingBox.tsx';
export { DescriptionModal, ManagePanel, SecretCodeModal } from './components/ManagePanel.tsx';
export { useCancelAction } from './components/useShipmentActions.tsx';
export { ShipmentHistory } from './components/ShipmentHistory.tsx';
export { ShipmentsTable, type ShipmentColumn, type ShipmentSearchColumn } from './components/ShipmentsTable.tsx';
export { BranchFilter, DateRangeFilter, FilterPlaceholder, FilterSelect, StatusFilter } from './components/ShipmentFilters.tsx';
export { FILTER_KEYS, isRangeInvalid, LIST_URL_DEFAULTS, listParamsFrom, type FilterKey } from './components/list-params.ts';
export { useShipment } from './api/get-shipment.ts';
export { shipmentsQuery, useShipments, type ShipmentListParams } from './api/get-shipments.ts';
export { useShipmentByCode } from './api/get-shipment-by-code.ts';
export { useShipmentSearch } from './api/search-shipments.ts';
export { useDeleteCheckpoint } from './api/delete-checkpoint.ts';
export type { Shipment, ShipmentEvent } from './types.ts';
export { PriceBreakdown } from './components/PriceBreakdown.tsx';
export { WhoPaysBox } from './components/WhoPaysBox.tsx';
