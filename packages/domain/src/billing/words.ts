import type { Cents } from '../money.ts';

/*
 * The amount in words every printed comprobante carries, the way Peruvian invoices write it:
 * 'SON: CIENTO DIECIOCHO CON 00/100 SOLES'. Units end in UNO (VEINTIUNO, TREINTA Y UNO), shortened
 * to UN/ÚN before MIL and MILLÓN (VEINTIÚN MIL, UN MILLÓN); 1000 is MIL, not UN MIL.
 */

const UNITS = ['', 'UNO', 'DOS', 'TRES', 'CUATRO', 'CINCO', 'SEIS', 'SIETE', 'OCHO', 'NUEVE'];
const TEENS = ['DIEZ', 'ONCE', 'DOCE', 'TRECE', 'CATORCE', 'QUINCE', 'DIECISÉIS', 'DIECISIETE', 'DIECIOCHO', 'DIECINUEVE'];
const TWENTIES = [
  'VEINTE',
  'VEINTIUNO',
  'VEINTIDÓS',
  'VEINTITRÉS',
  'VEINTICUATRO',
  'VEINTICINCO',
  'VEINTISÉIS',
  'VEINTISIETE',
  'VEINTIOCHO',
  'VEINTINUEVE',
];
const TENS = ['', '', '', 'TREINTA', 'CUARENTA', 'CINCUENTA', 'SESENTA', 'SETENTA', 'OCHENTA', 'NOVENTA'];
const HUNDREDS = [
  '',
  'CIENTO',
  'DOSCIENTOS',
  'TRESCIENTOS',
  'CUATROCIENTOS',
  'QUINIENTOS',
  'SEISCIENTOS',
  'SETECIENTOS',
  'OCHOCIENTOS',
  'NOVECIENTOS',
];

/** 1..99 in words. */
function tens(n: number): string {
  if (n < 10) return UNITS[n]!;
  if (n < 20) return TEENS[n - 10]!;
  if (n < 30) return TWENTIES[n - 20]!;
  const unit = n % 10;
  return unit === 0 ? TENS[Math.floor(n / 10)]! : `${TENS[Math.floor(n / 10)]} Y ${UNITS[unit]}`;
}

/** 1..999 in words. */
function hundreds(n: number): string {
  if (n === 100) return 'CIEN';
  const rest = n % 100;
  const head = HUNDREDS[Math.floor(n / 100)]!;
  if (rest === 0) return head;
  return head ? `${head} ${tens(rest)}` : tens(rest);
}

/** Words before MIL or MILLÓN(ES): a final UNO becomes UN (VEINTIUNO → VEINTIÚN, TREINTA Y UNO → TREINTA Y UN). */
function shorten(words: string): string {
  if (words.endsWith('VEINTIUNO')) return `${words.slice(0, -'VEINTIUNO'.length)}VEINTIÚN`;
  return words.endsWith('UNO') ? words.slice(0, -1) : words;
}

/** 1..999,999 in words. */
function thousands(n: number): string {
  const high = Math.floor(n / 1000);
  const low = n % 1000;
  const head = high === 0 ? '' : high === 1 ? 'MIL' : `${shorten(hundreds(high))} MIL`;
  return [head, low ? hundreds(low) : ''].filter(Boolean).join(' ');
}

/** A whole number of soles in words (0 → CERO), up to 999,999,999,999. */
export function integerInWords(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 999_999_999_999) throw new RangeError(`out of range: ${n}`);
  if (n === 0) return 'CERO';
  const millions = Math.floor(n / 1_000_000);
  const rest = n % 1_000_000;
  const head = millions === 0 ? '' : millions === 1 ? 'UN MILLÓN' : `${shorten(thousands(millions))} MILLONES`;
  return [head, rest ? thousands(rest) : ''].filter(Boolean).join(' ');
}

/** 'SON: CIENTO DIECIOCHO CON 00/100 SOLES' for 11800 céntimos. */
export function amountInWords(cents: Cents): string {
  if (!Number.isInteger(cents) || cents < 0) throw new RangeError(`not an amount in céntimos: ${cents}`);
  const soles = Math.floor(cents / 100);
  const centimos = String(cents % 100).padStart(2, '0');
  return `SON: ${integerInWords(soles)} CON ${centimos}/100 SOLES`;
}
