// What the deliveries screen reuses from tracking: the searches and the shipment views.
export { useShipmentSearch } from './api/search-shipments.ts';
export { shipmentByCodeKey, useShipmentByCode } from './api/get-shipment-by-code.ts';
export { ShipmentResults } from './components/ShipmentResults.tsx';
export { ShipmentHistory } from './components/ShipmentHistory.tsx';
export { Field, lastEvent } from './components/Field.tsx';
