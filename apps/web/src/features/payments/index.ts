// What other features may use from payments: the one payment modal, and the destination's list it collects from (issue 33).
export { PaymentModal } from './components/PaymentModal.tsx';
export { useShipmentsDueAtDestination, type CollectShipment } from './api/payments.ts';
export { CollectAction, type CollectableShipment } from './components/CollectAction.tsx';
