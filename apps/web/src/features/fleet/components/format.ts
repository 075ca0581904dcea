import type { DriverRef } from '@tramo/domain';
import { formatNumber } from '../../../lib/format.ts';

/** '12,000 kg', or a dash when unknown. */
export const formatKg = (value: number | null | undefined) => (value === null || value === undefined ? '—' : `${formatNumber(value)} kg`);

export const driverNames = (...drivers: (DriverRef | null)[]) =>
  drivers
    .filter((d): d is DriverRef => d !== null)
    .map((d) => d.full_name)
    .join(' · ') || 'Sin conductor';

export const plates = (primary: string, secondary: string | null) => (secondary ? `${primary} / ${secondary}` : primary);
