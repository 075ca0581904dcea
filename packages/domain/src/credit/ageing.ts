import { daysBetween } from '../calendar.ts';
import { sumCents, type Cents } from '../money.ts';

/**
 * Ageing of receivables (issue 35): an open invoice is 'por vencer' until the end of its due date
 * (Lima), then 1–30, 31–60, 61–90 or over 90 days overdue, counting whole Lima days. `today` is the
 * Lima date (YYYY-MM-DD); month lengths do not matter, only days between dates.
 */
export const AGEING_BUCKETS = ['porVencer', 'd1a30', 'd31a60', 'd61a90', 'mas90'] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];
export const AGEING_BUCKET_LABELS: Record<AgeingBucket, string> = {
  porVencer: 'Por vencer',
  d1a30: '1–30 días',
  d31a60: '31–60 días',
  d61a90: '61–90 días',
  mas90: 'Más de 90 días',
};

/** Whole days from the due date to today; 0 or less = not yet overdue. */
export function daysOverdue(dueDate: string, today: string): number {
  return daysBetween(dueDate, today);
}

export function ageingBucket(dueDate: string, today: string): AgeingBucket {
  const days = daysOverdue(dueDate, today);
  if (days <= 0) return 'porVencer';
  if (days <= 30) return 'd1a30';
  if (days <= 60) return 'd31a60';
  if (days <= 90) return 'd61a90';
  return 'mas90';
}

export type AgeingTotals = Record<AgeingBucket, Cents> & { total: Cents };

export const emptyAgeing = (): AgeingTotals => ({ porVencer: 0, d1a30: 0, d31a60: 0, d61a90: 0, mas90: 0, total: 0 });

/** Open amounts summed per bucket. */
export function ageingTotals(items: readonly { dueDate: string; openCents: Cents }[], today: string): AgeingTotals {
  const totals = emptyAgeing();
  for (const item of items) totals[ageingBucket(item.dueDate, today)] += item.openCents;
  totals.total = sumCents(AGEING_BUCKETS.map((b) => totals[b]));
  return totals;
}

/** Is any of these open past its due date? (What refuses new credit: 'Cliente con facturas vencidas.') */
export const anyOverdue = (items: readonly { dueDate: string; openCents: Cents }[], today: string) =>
  items.some((i) => i.openCents > 0 && daysOverdue(i.dueDate, today) > 0);
