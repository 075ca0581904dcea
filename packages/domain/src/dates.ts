import { DAY_MS, dayMs, msDay } from './calendar.ts';

/** Lima is UTC-5 all year (no DST), so a Lima calendar day is a fixed UTC window. */
export const LIMA_OFFSET_MINUTES = -5 * 60;
export const LIMA_TIME_ZONE = 'America/Lima';

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** What every form and filter says of a day that is not one of the calendar. */
export const INVALID_DAY_MESSAGE = 'Fecha inválida (AAAA-MM-DD).';

export function isIsoDay(value: string): boolean {
  if (!DAY_PATTERN.test(value)) return false;
  const ms = dayMs(value);
  return !Number.isNaN(ms) && msDay(ms) === value;
}

/** The UTC instant when the Lima day `YYYY-MM-DD` starts. */
export function limaDayStart(day: string): Date {
  return new Date(dayMs(day) - LIMA_OFFSET_MINUTES * 60_000);
}

/** The UTC instant when the Lima day after `day` starts (exclusive end of an inclusive day filter). */
export function limaDayEnd(day: string): Date {
  return new Date(limaDayStart(day).getTime() + DAY_MS);
}

/** Lima's clock at an instant as UTC fields: only the ISO text of that shifted instant is read. */
const limaClock = (instant: Date) => new Date(instant.getTime() + LIMA_OFFSET_MINUTES * 60_000).toISOString();

/** The Lima calendar day (`YYYY-MM-DD`) that contains an instant. */
export function limaDay(instant: Date): string {
  return limaClock(instant).slice(0, 10);
}

/** Lima's wall-clock time (`hh:mm:ss`) at an instant: a UBL IssueTime. */
export const limaTime = (instant: Date) => limaClock(instant).slice(11, 19);

/** A calendar day (`YYYY-MM-DD`, already a Lima date: an issue or due date) as `dd/mm/yyyy`; no instant, so no time zone. */
export const dayText = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** `dd/mm/yyyy hh:mm` in Lima time (DESIGN.md section 2a), for screens, exports and PDFs alike. */
export function limaDateTime(value: string | Date): string {
  const iso = limaClock(new Date(value));
  return `${dayText(iso)} ${iso.slice(11, 16)}`;
}
