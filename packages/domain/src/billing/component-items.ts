import { splitIgvInclusive } from './amounts.ts';
import type { Cents } from '../money.ts';

/**
 * A counter receipt item per price component (DESIGN.md 5b, issue 34): each freight line, the
 * minimum-charge adjustment, each surcharge and the insurance become one gravado item whose amount
 * includes IGV. SUNAT items are never negative, so the customer's discount (and a payment's audited
 * discount) is the items' own `descuento` (SUNAT.md: subtotal = valor unitario × cantidad −
 * descuento): the customer's discount on the freight items it was computed on, anything left over
 * the items in order of size. The items add up to the amount collected to the céntimo.
 */

export interface ReceiptComponent {
  kind: string;
  description: string;
  /** IGV included; the discount component is negative. */
  amountCents: Cents;
}

export interface ComponentItem {
  description: string;
  /** The component's amount with IGV, before its discount. */
  grossCents: Cents;
  /** Its share of the discounts, with IGV. */
  discountCents: Cents;
  /** grossCents − discountCents: what the item totals. */
  amountCents: Cents;
  /** The exact split of amountCents: net + IGV = amount. */
  netCents: Cents;
  igvCents: Cents;
  /** The net the item would have without its discount; grossNet − net is the line's `descuento`. */
  grossNetCents: Cents;
}

const FREIGHT_KINDS = new Set(['flete', 'minimo']);

/** Splits `total` over `capacities` in proportion, whole céntimos, no share above its capacity. */
function allocate(capacities: readonly Cents[], total: Cents): Cents[] {
  const sum = capacities.reduce((a, b) => a + b, 0);
  if (total <= 0 || sum <= 0) return capacities.map(() => 0);
  const shares = capacities.map((c) => Math.floor((c * total) / sum));
  let left = total - shares.reduce((a, b) => a + b, 0);
  // The remaining céntimos go to the largest remainders first (ties: the earlier item).
  const order = capacities
    .map((c, i) => ({ i, rest: (c * total) % sum }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i)
    .map((o) => o.i);
  for (const i of order) {
    if (left === 0) break;
    if (shares[i]! < capacities[i]!) {
      shares[i]! += 1;
      left -= 1;
    }
  }
  return shares;
}

/**
 * The receipt's items for a payment of `amountCents` against the shipment's stored components;
 * null when one item says it all (a single component, the spec's weight-only shipment) or when they
 * cannot be (no components, or the payment is more than they add up to): the caller keeps the
 * single 'Servicio de envío' item.
 */
export function receiptItemsFromComponents(components: readonly ReceiptComponent[] | null | undefined, amountCents: Cents): ComponentItem[] | null {
  if (!components?.length) return null;
  const items = components.filter((c) => c.amountCents > 0);
  const gross = items.reduce((sum, c) => sum + c.amountCents, 0);
  const totalDiscount = gross - amountCents;
  if (items.length < 2 || totalDiscount < 0 || amountCents <= 0) return null;
  const customerDiscount = Math.min(totalDiscount, -components.filter((c) => c.amountCents < 0).reduce((sum, c) => sum + c.amountCents, 0));
  const freight = items.map((c) => (FREIGHT_KINDS.has(c.kind) ? c.amountCents : 0));
  const onFreight = allocate(
    freight,
    Math.min(
      customerDiscount,
      freight.reduce((a, b) => a + b, 0),
    ),
  );
  const placed = onFreight.reduce((a, b) => a + b, 0);
  // Whatever the freight could not carry, and a payment's own discount, over every item (each keeps ≥ 1 céntimo when it can).
  const rest = allocate(
    items.map((c, i) => c.amountCents - onFreight[i]!),
    totalDiscount - placed,
  );
  return items.map((c, i) => {
    const discountCents = onFreight[i]! + rest[i]!;
    const amount = c.amountCents - discountCents;
    const { netCents, igvCents } = splitIgvInclusive(amount);
    return {
      description: c.description,
      grossCents: c.amountCents,
      discountCents,
      amountCents: amount,
      netCents,
      igvCents,
      grossNetCents: splitIgvInclusive(c.amountCents).netCents,
    };
  });
}
