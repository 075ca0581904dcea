/**
 * Money is counted in integer céntimos so sums never drift (0.1 + 0.2 problems are impossible);
 * it crosses the wire as a number with at most 2 decimals and is stored as numeric(12,2).
 */
export type Cents = number;

/** Exact decimal → integer at `scale` decimals, rounding half up beyond it. Throws on non-numbers. */
export function toScaled(value: number | string, scale: number): number {
  const text = typeof value === 'number' ? numberToPlain(value) : value.trim();
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) throw new RangeError(`not a decimal: ${value}`);
  const [, sign, int = '', frac = ''] = match;
  const padded = (frac + '0'.repeat(scale + 1)).slice(0, scale + 1);
  let scaled = Number(int || '0') * 10 ** scale + Number(padded.slice(0, scale) || '0');
  if (Number(padded[scale]) >= 5) scaled += 1;
  return sign === '-' ? -scaled : scaled;
}

function numberToPlain(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  // toString gives the shortest exact representation (1.35 → "1.35"); avoid exponent forms.
  const s = String(n);
  return s.includes('e') ? n.toFixed(12) : s;
}

export const toCents = (value: number | string): Cents => toScaled(value, 2);

/** 1234 → 12.34 (a number: at most 2 decimals, exactly representable as printed). */
export const centsToNumber = (cents: Cents): number => Number((cents / 100).toFixed(2));

/** 1234 → "12.34", for numeric columns. */
export const centsToString = (cents: Cents): string => (cents / 100).toFixed(2);

/** Integer division rounding half up (both operands positive or zero). */
export function divRoundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((numerator * 2 + denominator) / (denominator * 2));
}

export const sumCents = (values: readonly Cents[]): Cents => values.reduce((a, b) => a + b, 0);
