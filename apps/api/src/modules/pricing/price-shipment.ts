import {
  centsToNumber,
  PRICING_MESSAGES,
  priceShipment,
  type CustomerTariff,
  type PriceBreakdown,
  type PriceRequest,
  type ProductType,
  type RouteTariff,
  type WeightTier,
} from '@tramo/domain';
import { unprocessable } from '../../lib/errors.ts';
import type { RouteTable } from './quote.ts';
import type { TariffReferences } from './tariffs.ts';

export interface PricedShipment {
  breakdown: PriceBreakdown;
  /** Per line: its tier came from the reverse route's table. */
  lineUsesReverse: boolean[];
  currency: string;
  divisor: number;
}

const CODES: Record<string, string> = {
  [PRICING_MESSAGES.noTable]: 'NO_PRICE_TABLE',
  [PRICING_MESSAGES.outsideRanges]: 'OUT_OF_RANGE',
};

/**
 * A shipment's whole price from the tables read (Factor Peso per class, the route's extras, the
 * company's settings and the sender's discount), through the domain's one priceShipment. A refusal
 * is a 422 naming the form field; the create, the edit and POST /quotes all come through here, so
 * the quote a counter sees is the price the shipment stores.
 */
export function priceShipmentFrom(
  tables: ReadonlyMap<ProductType, RouteTable>,
  references: TariffReferences,
  customer: CustomerTariff | null,
  request: PriceRequest,
): PricedShipment {
  const tiers: Partial<Record<ProductType, readonly WeightTier[]>> = {};
  for (const [type, table] of tables) tiers[type] = table.tiers;
  const route: RouteTariff = {
    tiers,
    articles: references.route.articles,
    usingReverse: false,
    minimumChargeCents: references.route.minimumChargeCents,
    divisor: references.route.divisor,
  };
  const result = priceShipment(request, route, references.company, customer);
  if (!result.ok) {
    const { message, field } = result.problem;
    throw unprocessable(message, { [field]: message }, CODES[message] ?? 'TARIFF_RULE');
  }
  const lineUsesReverse = result.breakdown.lines.map((l) => l.tier !== null && (tables.get(l.productType)?.usingReverse ?? false));
  const breakdown = { ...result.breakdown, usingReverse: lineUsesReverse.some(Boolean) };
  const currency = tables.values().next().value?.currency ?? 'PEN';
  return { breakdown, lineUsesReverse, currency, divisor: references.route.divisor ?? references.company.divisor };
}

/** The stored and answered shape of a component: soles, as every amount on the wire. */
export function componentAnswers(breakdown: PriceBreakdown) {
  return breakdown.components.map((c) => ({ kind: c.kind, code: c.code, description: c.description, amount: centsToNumber(c.amountCents) }));
}

/** POST /quotes' answer (DESIGN.md 5b). */
export function quoteAnswer(priced: PricedShipment) {
  const { breakdown } = priced;
  return {
    total: centsToNumber(breakdown.totalCents),
    currency: priced.currency,
    usingReverse: breakdown.usingReverse,
    divisor: priced.divisor,
    components: componentAnswers(breakdown),
    lines: breakdown.lines.map((l) => ({
      basis: l.basis,
      productType: l.productType,
      packages: l.packages,
      realKg: l.realKg,
      volumetricKg: l.volumetricKg,
      chargeableKg: l.chargeableKg,
      source: l.source,
      tier: l.tier,
      article: l.article
        ? { id: l.article.id, name: l.article.name, unitCode: l.article.unitCode, unitPrice: centsToNumber(l.article.unitPriceCents) }
        : null,
      amount: centsToNumber(l.amountCents),
    })),
  };
}
