// What the deliveries screen reuses from tracking: finding a shipment and opening it.
export { ShipmentFinder, type ShipmentFinderProps } from './components/ShipmentFinder.tsx';
