import type { DriverRef } from '@tramo/domain';
import { formatWeight } from '../../../lib/format.ts';

/** '12,000.00 kg' (the one weight format), or a dash when unknown. */
export const formatKg = (value: number | null | undefined) => formatWeight(value);

export const driverNames = (...drivers: (DriverRef | null)[]) =>
  drivers
    .filter((d): d is DriverRef => d !== null)
    .map((d) => d.full_name)
    .join(' · ') || 'Sin conductor';

export const plates = (primary: string, secondary: string | null) => (secondary ? `${primary} / ${secondary}` : primary);
