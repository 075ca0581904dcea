import { nextTier, swapReversed, type WeightTier } from '@tramo/domain';

/** A row of the editor: a cleared input is '' until the user types a number again. */
export interface TierRow {
  key: number;
  from_kg: number | '';
  to_kg: number | '';
  factor_per_kg: number | '';
  sort_order: number;
}

let nextKey = 1;

export const toRows = (tiers: readonly WeightTier[]): TierRow[] => tiers.map((t) => ({ ...t, key: nextKey++ }));

/** The rows as tiers for the domain rules; an empty input is NaN, which the rules call invalid. */
export const toTiers = (rows: readonly TierRow[]): WeightTier[] =>
  rows.map((r) => ({
    from_kg: r.from_kg === '' ? Number.NaN : r.from_kg,
    to_kg: r.to_kg === '' ? Number.NaN : r.to_kg,
    factor_per_kg: r.factor_per_kg === '' ? Number.NaN : r.factor_per_kg,
    sort_order: r.sort_order,
  }));

/** The add-tier rule of the domain, applied to what is on screen. */
export function addRow(rows: readonly TierRow[]): TierRow[] {
  const complete = toTiers(rows).filter((t) => Number.isFinite(t.from_kg) && Number.isFinite(t.to_kg));
  const next = nextTier(complete);
  return [...rows, { ...next, sort_order: rows.length + 1, key: nextKey++ }];
}

/** On leaving a range input: a reversed range is swapped (spec section 5). */
export function swapRow(row: TierRow): TierRow {
  if (row.from_kg === '' || row.to_kg === '') return row;
  return swapReversed({ ...row, from_kg: row.from_kg, to_kg: row.to_kg });
}

/** Removing a tier renumbers the order of the rest. */
export const removeRow = (rows: readonly TierRow[], key: number): TierRow[] =>
  rows.filter((r) => r.key !== key).map((r, i) => ({ ...r, sort_order: i + 1 }));
