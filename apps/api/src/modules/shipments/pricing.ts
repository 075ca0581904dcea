import {
  centsToString,
  dominantProductType,
  PRICING_MESSAGES,
  sumCents,
  totalLines,
  type NewShipment,
  type ProductType,
  type ShipmentLine,
  type ShipmentLineInput,
  type ShipmentUpdate,
} from '@tramo/domain';
import type { Tx } from '../../db/client.ts';
import { AppError, unprocessable } from '../../lib/errors.ts';
import { findRouteTables, quoteFromTable, type RouteTable } from '../pricing/index.ts';

export interface PricedLines {
  lines: ShipmentLine[];
  weightKg: string;
  billableWeightKg: number;
  productType: ShipmentLine['productType'];
  quotedPrice: string;
  quotedCurrency: string;
  quotedFactorPerKg: string;
  usingReverse: boolean;
}

/**
 * Every line is requoted from the price tables inside the transaction: the client's prices are
 * never read. The shipment's factor is the first line of the dominant class (the one its category
 * comes from); usingReverse is true when any line was priced from the reverse route's table.
 */
export async function priceLines(tx: Tx, originId: number, destinationId: number, input: ShipmentLineInput[]): Promise<PricedLines> {
  // One query for the tables of every class the lines use.
  const tables = await findRouteTables(
    tx,
    originId,
    destinationId,
    input.map((l) => l.productType),
  );
  return priceWith(tables, input);
}

/** As priceLines, on a route's tables already read (a creation's come from the reference cache). */
export function priceWith(tables: Map<ProductType, RouteTable>, input: ShipmentLineInput[]): PricedLines {
  const lines: ShipmentLine[] = [];
  const cents: number[] = [];
  for (const [i, line] of input.entries()) {
    try {
      const quote = quoteFromTable(tables.get(line.productType), line.weightKg);
      cents.push(quote.priceCents);
      lines.push({
        productType: line.productType,
        weightKg: line.weightKg,
        billableWeightKg: quote.billableWeightKg,
        factorPerKg: quote.factorPerKg,
        price: quote.price,
        currency: quote.currency,
        tier: quote.tier,
        usingReverse: quote.usingReverse,
      });
    } catch (err) {
      // No price table for the route is a business refusal here, not a missing resource.
      if (err instanceof AppError && (err.statusCode === 404 || err.statusCode === 422)) {
        const field = err.statusCode === 404 ? `lines.${i}.productType` : `lines.${i}.weightKg`;
        const message = err.statusCode === 404 ? PRICING_MESSAGES.noTable : PRICING_MESSAGES.outsideRanges;
        throw unprocessable(message, { [field]: message }, err.statusCode === 404 ? 'NO_PRICE_TABLE' : 'OUT_OF_RANGE');
      }
      throw err;
    }
  }
  const totals = totalLines(lines);
  const productType = dominantProductType(lines.map((l) => l.productType));
  const lead = lines.find((l) => l.productType === productType)!;
  return {
    lines,
    weightKg: totals.weightKg.toFixed(2),
    billableWeightKg: totals.billableWeightKg,
    productType,
    quotedPrice: centsToString(sumCents(cents)),
    quotedCurrency: lead.currency,
    quotedFactorPerKg: String(lead.factorPerKg),
    usingReverse: lines.some((l) => l.usingReverse),
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
  };
}
