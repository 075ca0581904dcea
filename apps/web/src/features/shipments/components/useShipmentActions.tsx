import { cancelRefusal, SHIPMENT_MESSAGES } from '@tramo/domain';
import { confirmDanger } from '../../../components/ui/confirm.tsx';
import { notify } from '../../../lib/notify.ts';
import { useCancelShipment } from '../api/cancel-shipment.ts';
import type { Shipment } from '../types.ts';

/** The one question before a shipment is cancelled, by the cancel action or by choosing Anulado. */
export const confirmCancel = (shipment: Pick<Shipment, 'code'>) =>
  confirmDanger({
    title: 'Anular envío',
    message: `¿Anular el envío ${shipment.code}? Quedará en estado Anulado y no podrá reactivarse.`,
    confirmLabel: 'Anular envío',
  });

/** Cancel with confirmation, the same from the list and from the detail. */
export function useCancelAction() {
  const cancel = useCancelShipment();
  const run = async (shipment: Shipment) => {
    // The refusals of spec section 8 need no round trip when the status already says no.
    const refusal = cancelRefusal(shipment.status);
    if (refusal) {
      notify.error(refusal);
      return;
    }
    if (!(await confirmCancel(shipment))) return;
    cancel.mutate(shipment.id, {
      onSuccess: () => notify.success(SHIPMENT_MESSAGES.cancelled),
      onError: (err) => notify.error(err),
    });
  };
  return { run, isPending: cancel.isPending };
}
