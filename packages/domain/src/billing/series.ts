import { DEFAULT_SERIES, SERIES_PREFIX, type ModifiableDocumentType, type SunatDocumentType } from './catalogs.ts';

/*
 * Series and numbers (SUNAT.md "Document types and series"): a series has exactly 4 characters (SUNAT
 * error 1001, Nubefact error 20: 'F1' is refused) and
 * starts with its type's letter; a document dated before today (Lima) was issued in contingency and
 * takes a numeric series starting with 0 ('0001'); numbers run 1..99,999,999 per series.
 */

export const SERIES_LENGTH = 4;
export const MAX_DOCUMENT_NUMBER = 99_999_999;

export const SERIES_MESSAGES = {
  required: 'La serie es obligatoria.',
  length: 'La serie debe tener exactamente 4 caracteres (por ejemplo F001).',
  alphanumeric: 'La serie solo admite letras mayúsculas y números.',
  prefix: (label: string, letter: string) => `La serie de ${label} debe empezar con ${letter}.`,
  creditNote: (expected: string, modified: string) => `La serie de una nota de crédito que modifica ${modified} es ${expected}.`,
  contingency: 'Con fecha de emisión pasada el documento se emite en contingencia: la serie debe ser numérica y empezar con 0 (por ejemplo 0001).',
  contingencyOnlyPast: 'Una serie que empieza con 0 es de contingencia: solo se usa con una fecha de emisión pasada.',
} as const;

/** The article and name each type is called by in a sentence ('una factura'). */
const TYPE_IN_SENTENCE: Record<SunatDocumentType, string> = {
  '01': 'una factura',
  '03': 'una boleta',
  '07': 'una nota de crédito',
  '09': 'una guía de remisión remitente',
  '31': 'una guía de remisión transportista',
  '20': 'un comprobante de retención',
  '40': 'un comprobante de percepción',
};

/** A document dated before today (both Lima days, YYYY-MM-DD) goes out in contingency. */
export function isContingency(issueDate: string, today: string): boolean {
  return issueDate < today;
}

/** A contingency series: 4 digits starting with 0. */
export function isContingencySeries(series: string): boolean {
  return /^0\d{3}$/.test(series);
}

/** The series a credit note must use: FFF1 when it modifies a factura, else BBB1. */
export function creditNoteSeries(modifiedType: ModifiableDocumentType): string {
  return modifiedType === '01' ? DEFAULT_SERIES['01'] : DEFAULT_SERIES['03'];
}

export interface SeriesContext {
  /** For a credit note: the type of the document it modifies. */
  modifiedType?: ModifiableDocumentType | null;
  /** Issue date before today (Lima): see `isContingency`. */
  contingency: boolean;
}

/** The series the form proposes for a type: the default, the credit note's forced one, or 0001 in contingency. */
export function suggestedSeries(type: SunatDocumentType, ctx: SeriesContext): string {
  if (ctx.contingency) return '0001';
  if (type === '07') return creditNoteSeries(ctx.modifiedType ?? '01');
  return DEFAULT_SERIES[type];
}

/** Every series rule that fails, as the form's 'Corrige:' messages. */
export function seriesProblems(type: SunatDocumentType, series: string, ctx: SeriesContext): string[] {
  if (series.trim() === '') return [SERIES_MESSAGES.required];
  const problems: string[] = [];
  if (series.length !== SERIES_LENGTH) problems.push(SERIES_MESSAGES.length);
  if (!/^[A-Z0-9]+$/.test(series)) problems.push(SERIES_MESSAGES.alphanumeric);
  if (ctx.contingency) {
    if (!isContingencySeries(series)) problems.push(SERIES_MESSAGES.contingency);
    return problems;
  }
  if (series.startsWith('0')) {
    problems.push(SERIES_MESSAGES.contingencyOnlyPast);
    return problems;
  }
  if (type === '07') {
    if (ctx.modifiedType) {
      const expected = creditNoteSeries(ctx.modifiedType);
      if (series !== expected) problems.push(SERIES_MESSAGES.creditNote(expected, ctx.modifiedType === '01' ? 'una factura' : 'una boleta'));
    }
    return problems;
  }
  const letter = SERIES_PREFIX[type];
  if (!series.startsWith(letter)) problems.push(SERIES_MESSAGES.prefix(TYPE_IN_SENTENCE[type], letter));
  return problems;
}

export function isValidDocumentNumber(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= MAX_DOCUMENT_NUMBER;
}

/** `F001-00000123`: the series and the number padded to 8 digits. */
export function formatDocumentNumber(series: string, number: number): string {
  if (!isValidDocumentNumber(number)) throw new RangeError(`document number out of range: ${number}`);
  return `${series}-${String(number).padStart(8, '0')}`;
}

/** The key a document is known by everywhere (provider store, retries): `01-FFF1-123`. */
export function documentKey(type: SunatDocumentType, series: string, number: number): string {
  return `${type}-${series}-${number}`;
}
