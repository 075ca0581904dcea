import { LIMA_TIME_ZONE } from '@tramo/domain';

const money = new Intl.NumberFormat('es-PE', { style: 'currency', currency: 'PEN', minimumFractionDigits: 2 });
const number = new Intl.NumberFormat('es-PE', { maximumFractionDigits: 2 });
const dateTime = new Intl.DateTimeFormat('es-PE', {
  timeZone: LIMA_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});
const date = new Intl.DateTimeFormat('es-PE', { timeZone: LIMA_TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' });

/** `S/ 1,234.50` */
export function formatMoney(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  return money.format(Number(value)).replace(/\u00a0/g, ' ');
}

export const formatNumber = (value: number | string) => number.format(Number(value));

/** `dd/mm/yyyy hh:mm` in Lima time. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return dateTime.format(new Date(value)).replace(',', '');
}

export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '—';
  return date.format(new Date(value));
}
