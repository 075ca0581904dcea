import { divRoundHalfUp, type Cents } from '../money.ts';
import type { InvoiceDocumentType } from './catalogs.ts';

/*
 * Detracción (SPOT) of the road freight service (Annex 3, code 027 of R.S. 183-2004/SUNAT and its
 * amendments): 4 % on the greater of the amount charged and the reference value, for an operation
 * above S/ 400.
 *
 * Rounding: since 1 January 2015 (R.S. 343-2014/SUNAT) SPOT deposits are made in whole soles, the
 * amount rounded to the nearest sol (half up). Issuers print that whole amount on the invoice and
 * Nubefact's own answers carry it (a 12 % detracción of S/ 1,699.20 is sent as 204.00), so the
 * amount here is whole soles expressed in céntimos.
 */

export const DETRACTION_FREIGHT = {
  /** SPOT good/service code (catalogue 54). */
  serviceCode: '027',
  percent: 4,
  /** The operation must exceed this, in céntimos (S/ 400.00). */
  thresholdCents: 40_000,
} as const;

/** Does a document of this type and total carry the freight detracción? Only a factura above S/ 400. */
export function detractionApplies(type: InvoiceDocumentType, totalCents: Cents): boolean {
  return type === '01' && totalCents > DETRACTION_FREIGHT.thresholdCents;
}

/** The base: the greater of the invoice total and the reference value (valor referencial), if any. */
export function detractionBaseCents(totalCents: Cents, referenceValueCents?: Cents | null): Cents {
  return Math.max(totalCents, referenceValueCents ?? 0);
}

/** 4 % of the base, rounded half up to whole soles; returned in céntimos (S/ 37.00 → 3700). */
export function detractionAmountCents(totalCents: Cents, referenceValueCents?: Cents | null): Cents {
  const base = detractionBaseCents(totalCents, referenceValueCents);
  return divRoundHalfUp(base * DETRACTION_FREIGHT.percent, 100 * 100) * 100;
}
