// What other features may use from deliveries: the proof of a delivered shipment (issue 18).
export { PhotoInput } from './components/ProofInputs.tsx';
export { DeliveryProofView } from './components/DeliveryProofView.tsx';
