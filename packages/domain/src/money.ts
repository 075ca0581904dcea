import Big from 'big.js';

/**
 * Money is counted in integer céntimos so sums never drift (0.1 + 0.2 problems are impossible);
 * it crosses the wire as a number with at most 2 decimals and is stored as numeric(12,2).
 */
export type Cents = number;

/** A decimal at `scale` decimals as an integer (12.345 at 2 → 1235), rounding half away from zero beyond them. */
export function scaledOf(value: Big, scale: number): number {
  return Number(value.round(scale, Big.roundHalfUp).times(new Big(10).pow(scale)).toFixed(0));
}

/** What a decimal may look like: an optional minus, digits with at most one point (no exponent). */
const DECIMAL_TEXT = /^-?(\d+\.?\d*|\.\d+)$/;

/** Exact decimal → integer at `scale` decimals, rounding half away from zero beyond it (the billing amounts' big.js rounding). Throws on non-numbers. */
export function toScaled(value: number | string, scale: number): number {
  const text = typeof value === 'number' ? numberToPlain(value) : value.trim();
  if (!DECIMAL_TEXT.test(text)) throw new RangeError(`not a decimal: ${value}`);
  return scaledOf(new Big(text), scale);
}

function numberToPlain(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  // toString gives the shortest exact representation (1.35 → "1.35"); avoid exponent forms.
  const s = String(n);
  return s.includes('e') ? n.toFixed(12) : s;
}

export const toCents = (value: number | string): Cents => toScaled(value, 2);

/** 1234 → 12.34 (a number: at most 2 decimals, exactly representable as printed). */
export const centsToNumber = (cents: Cents): number => Number(centsToString(cents));

/** 1234 → "12.34", for numeric columns. */
export const centsToString = (cents: Cents): string => (cents / 100).toFixed(2);

/** Integer division rounding half up (both operands positive or zero). */
export function divRoundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((numerator * 2 + denominator) / (denominator * 2));
}

export const sumCents = (values: readonly Cents[]): Cents => values.reduce((a, b) => a + b, 0);
