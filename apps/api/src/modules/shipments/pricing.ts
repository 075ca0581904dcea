import {
  centsToString,
  dominantProductType,
  priceRequestOf,
  PRODUCT_TYPES,
  type CustomerTariff,
  type NewShipment,
  type ShipmentLine,
  type ShipmentUpdate,
} from '@tramo/domain';
import type { Tx } from '../../db/client.ts';
import {
  componentAnswers,
  findRouteTables,
  loadCompanyTariff,
  loadCustomerTariff,
  loadRouteExtras,
  priceShipmentFrom,
  type RouteTable,
  type TariffReferences,
} from '../pricing/index.ts';

export interface PricedLines {
  lines: ShipmentLine[];
  weightKg: string;
  billableWeightKg: number;
  productType: ShipmentLine['productType'];
  quotedPrice: string;
  quotedCurrency: string;
  quotedFactorPerKg: string;
  usingReverse: boolean;
  priceComponents: ReturnType<typeof componentAnswers>;
  declaredValue: string | null;
  insured: boolean;
  surcharges: string[];
}

type PricedInput = Pick<NewShipment, 'lines' | 'declaredValue' | 'insured' | 'surcharges'>;

/** As priceWith, reading the route's tables, its extras and the sender's discount inside the transaction (an edit). */
export async function priceLines(tx: Tx, data: PricedInput & Pick<NewShipment, 'originBranchId' | 'destinationBranchId' | 'senderCustomerId'>) {
  const [tables, company, route, customer] = await Promise.all([
    findRouteTables(tx, data.originBranchId, data.destinationBranchId, PRODUCT_TYPES),
    loadCompanyTariff(tx),
    loadRouteExtras(tx, data.originBranchId, data.destinationBranchId),
    loadCustomerTariff(tx, data.senderCustomerId, data),
  ]);
  return priceWith(tables, { company, route }, customer, data);
}

/**
 * Every line is requoted from the tables read (a creation's come from the reference cache): the
 * client's prices are never read. The whole price is the domain's breakdown (issue 34), stored
 * component by component. The shipment's factor is the first tier-priced line of the dominant
 * class (0 when every line is charged by article); usingReverse is true when any line was priced
 * from the reverse route's table.
 */
export function priceWith(
  tables: ReadonlyMap<ShipmentLine['productType'], RouteTable>,
  references: TariffReferences,
  customer: CustomerTariff | null,
  data: PricedInput,
): PricedLines {
  const priced = priceShipmentFrom(tables, references, customer, priceRequestOf(data));
  const { breakdown } = priced;
  const lines: ShipmentLine[] = breakdown.lines.map((l, i) => {
    const input = data.lines[i]!;
    return {
      productType: l.productType,
      weightKg: l.realKg,
      billableWeightKg: l.chargeableKg,
      factorPerKg: l.tier?.factor_per_kg ?? 0,
      price: Number(centsToString(l.amountCents)),
      currency: priced.currency,
      tier: l.tier,
      usingReverse: priced.lineUsesReverse[i]!,
      packages: l.packages,
      basis: l.basis,
      lengthCm: input.lengthCm ?? null,
      widthCm: input.widthCm ?? null,
      heightCm: input.heightCm ?? null,
      volumetricKg: l.volumetricKg,
      chargeableKg: l.chargeableKg,
      articleId: l.article?.id ?? null,
      articleName: l.article?.name ?? null,
    };
  });
  const hundredths = lines.reduce((acc, l) => acc + Math.round(l.weightKg * 100), 0);
  const productType = dominantProductType(lines.map((l) => l.productType));
  const lead = lines.find((l) => l.productType === productType && l.tier !== null);
  return {
    lines,
    weightKg: (hundredths / 100).toFixed(2),
    billableWeightKg: lines.reduce((acc, l) => acc + l.billableWeightKg, 0),
    productType,
    quotedPrice: centsToString(breakdown.totalCents),
    quotedCurrency: priced.currency,
    quotedFactorPerKg: String(lead?.factorPerKg ?? 0),
    usingReverse: breakdown.usingReverse,
    priceComponents: componentAnswers(breakdown),
    declaredValue: data.declaredValue === null ? null : data.declaredValue.toFixed(2),
    insured: data.insured,
    surcharges: [...new Set(data.surcharges)],
  };
}

const recipientName = (data: NewShipment | ShipmentUpdate) => data.recipientName ?? `${data.recipientFirstName} ${data.recipientLastName}`;
/** What a create and an edit both write of the form: the parties and the route. */
export function formColumns(data: NewShipment | ShipmentUpdate) {
  return {
    originBranchId: data.originBranchId,
    destinationBranchId: data.destinationBranchId,
    senderCustomerId: data.senderCustomerId,
    senderName: data.senderName,
    recipientFirstName: data.recipientFirstName,
    recipientLastName: data.recipientLastName,
    recipientName: recipientName(data),
    recipientDoc: data.recipientDoc,
    description: data.description,
  };
}

/** The price columns of lines priced from the tables: a creation's, and an edit that changes what sets the price. */
export function pricedColumns(priced: PricedLines) {
  return {
    productType: priced.productType,
    weightKg: priced.weightKg,
    billableWeightKg: priced.billableWeightKg,
    quotedPrice: priced.quotedPrice,
    quotedCurrency: priced.quotedCurrency,
    quotedFactorPerKg: priced.quotedFactorPerKg,
    usingReverse: priced.usingReverse,
    multiLineDetail: priced.lines,
    priceComponents: priced.priceComponents,
    declaredValue: priced.declaredValue,
    insured: priced.insured,
    surcharges: priced.surcharges,
  };
}
