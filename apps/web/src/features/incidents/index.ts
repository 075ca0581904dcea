/** What other features use of incidents: the box on the shipment detail. */
export { ShipmentIncidents } from './components/ShipmentIncidents.tsx';
