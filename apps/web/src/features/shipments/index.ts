// What other features may use from shipments: the label modal, the list query and the types.
export { LabelModal } from './components/LabelModal.tsx';
export { useShipments, type ShipmentListParams } from './api/get-shipments.ts';
export { dashboardKey } from './api/keys.ts';
export type { Shipment, ShipmentEvent, ShipmentPage } from './types.ts';
