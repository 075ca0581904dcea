import { isIsoDay } from '../dates.ts';
import { centsToString, sumCents, type Cents } from '../money.ts';

/*
 * A credit sale (forma de pago 'Crédito') lists its instalments: cuota n, due date and amount. Their
 * sum must be exactly the amount still to be paid, and every due date must come after the issue
 * date. The spec allowed ±0.01 and a due date on the issue day; SUNAT rejects both (3265: the
 * instalments must equal the net payable; 3267: a due date after the issue date), so the stricter
 * rule is the one a real carrier can issue with.
 */

export interface Instalment {
  cuota: number;
  /** Due date, YYYY-MM-DD (Lima). */
  fecha_de_pago: string;
  importeCents: Cents;
}

export const INSTALMENT_MESSAGES = {
  required: 'Venta al crédito: agrega al menos una cuota.',
  sum: (sum: string, expected: string) => `La suma de las cuotas (S/ ${sum}) debe ser igual al monto pendiente de pago (S/ ${expected}).`,
  dueDateRequired: (n: number) => `Cuota ${n}: la fecha de pago es obligatoria.`,
  dueDateInvalid: (n: number) => `Cuota ${n}: la fecha de pago no es válida.`,
  dueDateBeforeIssue: (n: number) => `Cuota ${n}: la fecha de pago debe ser posterior a la fecha de emisión.`,
  amountPositive: (n: number) => `Cuota ${n}: el importe debe ser mayor que 0.`,
  contadoWithInstalments: 'Una venta al contado no lleva cuotas.',
} as const;

/**
 * What the instalments must add up to: the total, less the detracción the customer deposits in the
 * Banco de la Nación instead of paying the issuer (SUNAT rejects a credit invoice whose pending
 * amount includes it; Nubefact's example says the same: "no considerar el monto de la detracción").
 */
export function pendingAmountCents(totalCents: Cents, detractionCents: Cents = 0): Cents {
  return totalCents - detractionCents;
}

/** Every instalment rule that fails for a credit sale, as 'Corrige:' messages. */
export function instalmentProblems(instalments: readonly Instalment[], issueDate: string, pendingCents: Cents): string[] {
  if (instalments.length === 0) return [INSTALMENT_MESSAGES.required];
  const problems: string[] = [];
  instalments.forEach((c, i) => {
    const n = i + 1;
    if (!c.fecha_de_pago) problems.push(INSTALMENT_MESSAGES.dueDateRequired(n));
    else if (!isIsoDay(c.fecha_de_pago)) problems.push(INSTALMENT_MESSAGES.dueDateInvalid(n));
    else if (isIsoDay(issueDate) && c.fecha_de_pago <= issueDate) problems.push(INSTALMENT_MESSAGES.dueDateBeforeIssue(n));
    if (!(c.importeCents > 0)) problems.push(INSTALMENT_MESSAGES.amountPositive(n));
  });
  const sum = sumCents(instalments.map((c) => c.importeCents));
  if (sum !== pendingCents) problems.push(INSTALMENT_MESSAGES.sum(centsToString(sum), centsToString(pendingCents)));
  return problems;
}

/** The invoice's due date (fecha de vencimiento): the last instalment's. */
export function lastDueDate(instalments: readonly Instalment[]): string | null {
  return instalments.reduce<string | null>((last, c) => (last === null || c.fecha_de_pago > last ? c.fecha_de_pago : last), null);
}
