/** Lima is UTC-5 all year (no DST), so a Lima calendar day is a fixed UTC window. */
export const LIMA_OFFSET_MINUTES = -5 * 60;
export const LIMA_TIME_ZONE = 'America/Lima';

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** What every form and filter says of a day that is not one of the calendar. */
export const INVALID_DAY_MESSAGE = 'Fecha inválida (AAAA-MM-DD).';

export function isIsoDay(value: string): boolean {
  if (!DAY_PATTERN.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The UTC instant when the Lima day `YYYY-MM-DD` starts. */
export function limaDayStart(day: string): Date {
  return new Date(Date.parse(`${day}T00:00:00Z`) - LIMA_OFFSET_MINUTES * 60_000);
}

/** The UTC instant when the Lima day after `day` starts (exclusive end of an inclusive day filter). */
export function limaDayEnd(day: string): Date {
  return new Date(limaDayStart(day).getTime() + 86_400_000);
}

/** The Lima calendar day (`YYYY-MM-DD`) that contains an instant. */
export function limaDay(instant: Date): string {
  return new Date(instant.getTime() + LIMA_OFFSET_MINUTES * 60_000).toISOString().slice(0, 10);
}
