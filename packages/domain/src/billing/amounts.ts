import Big from 'big.js';
import { divRoundHalfUp, scaledOf, sumCents, type Cents } from '../money.ts';
import { IGV_PERCENT, type IgvType } from './catalogs.ts';

/*
 * Document arithmetic, exact. Money is integer céntimos; quantities and unit values are decimals
 * handled by big.js (exact decimal strings, no binary floating point anywhere in a product or a sum).
 *
 * Precision: SUNAT's UBL 2.1 accepts up to 10 decimals on InvoicedQuantity and on the unit value
 * (cbc:PriceAmount), so a line may carry a unit value such as 0.8474576271 (S/ 1.00 net of IGV).
 * Every amount that reaches a total (line subtotal, IGV, total) has 2 decimals: each is rounded
 * half up to the céntimo on its own line, and the header totals are sums of those rounded amounts,
 * which is what SUNAT checks the header against.
 */

export const QUANTITY_DECIMALS = 10;
export const UNIT_VALUE_DECIMALS = 10;

/** A decimal as it arrives from a form or JSON: a number (shortest representation) or a string. */
export type DecimalInput = number | string;

const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

/** A non-negative plain decimal ('12', '0.5', 3.25) as a Big; null when it is anything else. */
export function parseDecimal(value: DecimalInput): Big | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  // String(n) is the shortest text that reads back as n (0.1 → "0.1"); exponent forms are refused.
  const text = typeof value === 'number' ? String(value) : value.trim();
  return DECIMAL_TEXT.test(text) ? new Big(text) : null;
}

/** How many decimals a value needs (1.50 → 1, 2 → 0). */
export function decimalPlaces(value: Big): number {
  return Math.max(0, value.c.length - value.e - 1);
}

/** Decimal soles → céntimos, rounding half up beyond the second decimal. */
export function bigToCents(value: Big): Cents {
  return scaledOf(value, 2);
}

/** IGV of a taxable amount: 18 % rounded half up to the céntimo, in integers. */
export function igvOf(taxableCents: Cents): Cents {
  return divRoundHalfUp(taxableCents * IGV_PERCENT, 100);
}

/** One item as the form and the payload describe it. */
export interface LineInput {
  quantity: DecimalInput;
  /** Value of one unit without IGV (valor unitario). */
  unitValue: DecimalInput;
  /** Discount on the whole line in soles, without IGV; at most 2 decimals. */
  discount?: DecimalInput | null;
  igvType: IgvType;
}

/** A line's amounts as SUNAT receives them. */
export interface LineAmounts {
  igvType: IgvType;
  /** quantity × unit value, before the discount. */
  grossCents: Cents;
  discountCents: Cents;
  /** Taxable base (valor de venta): quantity × unit value − discount. */
  subtotalCents: Cents;
  igvCents: Cents;
  totalCents: Cents;
  /** Canonical decimal text of the quantity and unit value (what the XML and provider receive). */
  quantity: string;
  unitValue: string;
  /** One unit with IGV (precio unitario), at up to 10 decimals. */
  unitPrice: string;
}

const plain = (value: Big): string => value.toFixed();

function must(value: DecimalInput, what: string): Big {
  const parsed = parseDecimal(value);
  if (!parsed) throw new RangeError(`${what} is not a decimal: ${value}`);
  return parsed;
}

/**
 * A line's subtotal, IGV and total. IGV is 18 % of the rounded subtotal (not of the exact product):
 * SUNAT checks each line's TaxAmount against its TaxableAmount × rate, and the TaxableAmount it
 * sees is the rounded subtotal. Validate with `invoiceProblems` first: this throws on a non-decimal.
 */
export function lineAmounts(line: LineInput): LineAmounts {
  const quantity = must(line.quantity, 'quantity');
  const unitValue = must(line.unitValue, 'unitValue');
  const discount = line.discount === undefined || line.discount === null || line.discount === '' ? new Big(0) : must(line.discount, 'discount');
  const grossCents = bigToCents(quantity.times(unitValue));
  const subtotalCents = bigToCents(quantity.times(unitValue).minus(discount));
  const discountCents = grossCents - subtotalCents;
  const igvCents = line.igvType === '10' ? igvOf(subtotalCents) : 0;
  const unitPrice =
    line.igvType === '10'
      ? unitValue
          .times(100 + IGV_PERCENT)
          .div(100)
          .round(UNIT_VALUE_DECIMALS, Big.roundHalfUp)
      : unitValue;
  return {
    igvType: line.igvType,
    grossCents,
    discountCents,
    subtotalCents,
    igvCents,
    totalCents: subtotalCents + igvCents,
    quantity: plain(quantity),
    unitValue: plain(unitValue),
    unitPrice: plain(unitPrice),
  };
}

/**
 * From an amount that includes IGV (the payment modal's): net = amount / 1.18 rounded half up,
 * IGV = amount − net, so net + IGV is the amount to the céntimo.
 */
export function splitIgvInclusive(amountCents: Cents): { netCents: Cents; igvCents: Cents } {
  const netCents = divRoundHalfUp(amountCents * 100, 100 + IGV_PERCENT);
  return { netCents, igvCents: amountCents - netCents };
}

/**
 * One gravado line of quantity 1 whose total is an IGV-inclusive amount (a payment's receipt, item
 * 'Servicio de envío'). Its IGV is amount − net, which can differ by one céntimo from 18 % of the
 * net; SUNAT tolerates ±1 céntimo on a line's tax, and the receipt must total what was collected.
 */
export function inclusiveLineAmounts(amountCents: Cents): LineAmounts {
  const { netCents, igvCents } = splitIgvInclusive(amountCents);
  const net = new Big(netCents).div(100);
  return {
    igvType: '10',
    grossCents: netCents,
    discountCents: 0,
    subtotalCents: netCents,
    igvCents,
    totalCents: amountCents,
    quantity: '1',
    unitValue: plain(net),
    unitPrice: plain(new Big(amountCents).div(100)),
  };
}

/** The header of a document: sums of the rounded line amounts. */
export interface DocumentTotals {
  gravadaCents: Cents;
  exoneradaCents: Cents;
  inafectaCents: Cents;
  igvCents: Cents;
  discountCents: Cents;
  totalCents: Cents;
}

export function documentTotals(lines: readonly LineAmounts[]): DocumentTotals {
  const base = (type: IgvType) => sumCents(lines.filter((l) => l.igvType === type).map((l) => l.subtotalCents));
  return {
    gravadaCents: base('10'),
    exoneradaCents: base('20'),
    inafectaCents: base('30'),
    igvCents: sumCents(lines.map((l) => l.igvCents)),
    discountCents: sumCents(lines.map((l) => l.discountCents)),
    totalCents: sumCents(lines.map((l) => l.totalCents)),
  };
}

/** Lines and header in one call: what the form's live totals and the API both use. */
export function computeDocument(lines: readonly LineInput[]): { lines: LineAmounts[]; totals: DocumentTotals } {
  const amounts = lines.map(lineAmounts);
  return { lines: amounts, totals: documentTotals(amounts) };
}
