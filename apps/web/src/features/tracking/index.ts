// What the deliveries screen reuses from tracking: the shipment views.
export { ShipmentResults } from './components/ShipmentResults.tsx';
export { ShipmentHistory } from './components/ShipmentHistory.tsx';
export { Field, lastEvent } from './components/Field.tsx';
