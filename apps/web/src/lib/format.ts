import { LIMA_TIME_ZONE, limaDateTime } from '@tramo/domain';

const money = new Intl.NumberFormat('es-PE', { style: 'currency', currency: 'PEN', minimumFractionDigits: 2 });
const number = new Intl.NumberFormat('es-PE', { maximumFractionDigits: 2 });
const date = new Intl.DateTimeFormat('es-PE', { timeZone: LIMA_TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' });

/** `S/ 1,234.50`, with a non-breaking space: the symbol never sits above its figure. */
export function formatMoney(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  return money.format(Number(value)).replace(/\s/g, '\u00a0');
}

/** es-PE: `1,000`, `245.3` (at most 2 decimals). */
export const formatNumber = (value: number | string) => number.format(Number(value));

const weight = new Intl.NumberFormat('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The one weight format: es-PE, 2 decimals, `1,245.30 kg` (never wraps); a dash when unknown. */
export function formatWeight(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  return `${weight.format(Number(value))}\u00a0kg`;
}

/** '1 envío', '3 envíos': a count with its noun in singular or plural. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(n)} ${n === 1 ? singular : plural}`;
}

/** `dd/mm/yyyy hh:mm` in Lima time; a dash when unknown. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return limaDateTime(value);
}

export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return date.format(new Date(value));
}
