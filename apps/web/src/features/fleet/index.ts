/** What other features may use from the fleet feature (the shipments pages wire these in). */
export { AssignTransportModal, type AssignTransportModalProps } from './components/AssignTransportModal.tsx';
export { ShipmentTransportBox } from './components/ShipmentTransportBox.tsx';
export { TransportStatusPill } from './components/TransportStatusPill.tsx';
export { useLoadedPlates } from './api/get-loaded-plates.ts';
export { FleetDocumentsAlert } from './components/FleetDocumentsAlert.tsx';
