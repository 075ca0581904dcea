import { addDays, dayMs } from '../calendar.ts';
import type { CreditPeriod } from './accounts.ts';

/**
 * Invoicing periods (issue 35) in Lima dates: a week runs Monday to Sunday, a fortnight the 1st to
 * the 15th and the 16th to the month's end, a month the 1st to its last day. 'Facturar periodo'
 * invoices a period once it has ended (its last day is before today).
 */
export interface InvoicingPeriod {
  from: string;
  to: string;
}

const lastOfMonth = (day: string) => {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

/** The period of `kind` that contains `day`. */
export function periodContaining(kind: CreditPeriod, day: string): InvoicingPeriod {
  if (kind === 'semanal') {
    const weekday = (new Date(dayMs(day)).getUTCDay() + 6) % 7; // Monday = 0
    const from = addDays(day, -weekday);
    return { from, to: addDays(from, 6) };
  }
  const month = day.slice(0, 8);
  if (kind === 'quincenal')
    return Number(day.slice(8, 10)) <= 15 ? { from: `${month}01`, to: `${month}15` } : { from: `${month}16`, to: lastOfMonth(day) };
  return { from: `${month}01`, to: lastOfMonth(day) };
}

/** The latest period of `kind` that has fully ended before `today`. */
export const lastEndedPeriod = (kind: CreditPeriod, today: string): InvoicingPeriod =>
  periodContaining(kind, addDays(periodContaining(kind, today).from, -1));

/** Due date of an invoice issued on `issueDate` with `termsDays` of credit. */
export const dueDateFor = (issueDate: string, termsDays: number) => addDays(issueDate, termsDays);
