import { whoPaysRefusal, type WhoPaysChange } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { unprocessable } from '../../lib/errors.ts';
import { rulesForRoute } from '../who-pays/index.ts';

/**
 * Who pays a shipment and when (issue 33), checked against the company's and the route's rules.
 * The plain case (the sender at origin) reads nothing: a creation's hot path stays one statement.
 */
export async function checkWhoPays(
  db: Db | Tx,
  choice: WhoPaysChange,
  shipment: { originBranchId: number; destinationBranchId: number; priceCents: number; weightKg: number },
): Promise<void> {
  const plain = choice.paymentMoment === 'origen' && choice.payer !== 'tercero';
  if (plain) return;
  const route =
    choice.paymentMoment === 'destino'
      ? await rulesForRoute(db, shipment.originBranchId, shipment.destinationBranchId)
      : { rules: { maxDestinationFreightCents: 0, originOnlyAboveKg: null }, routeAllowsDestination: false };
  const refusal = whoPaysRefusal(choice, {
    ...route,
    priceCents: shipment.priceCents,
    weightKg: shipment.weightKg,
    // Credit accounts are another issue's: until they exist, nobody has one.
    hasCreditAccount: false,
  });
  if (refusal) throw unprocessable(refusal.message, { [refusal.field]: refusal.message }, 'WHO_PAYS_REFUSED');
}
