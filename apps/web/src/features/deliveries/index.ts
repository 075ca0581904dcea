// What other features may use from deliveries: the proof of a delivered shipment (issue 18).
export { DeliveryProofView } from './components/DeliveryProofView.tsx';
