import { z } from 'zod';
import { decimalNumber, isCleanText, PRIMITIVE_MESSAGES, recordId } from './primitives.ts';
import { divRoundHalfUp, toCents, toScaled, type Cents } from './money.ts';

export const PRODUCT_TYPES = ['liviano', 'medio', 'alto'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
/** The weight classes as staff read them (forms, detail, Factor Peso). */
export const PRODUCT_TYPE_LABELS: Record<ProductType, string> = { liviano: 'Liviano', medio: 'Medio', alto: 'Alto' };
export const productTypeSchema = z.enum(PRODUCT_TYPES, { error: 'Categoría inválida' });

export const DEFAULT_CURRENCY = 'PEN';

export interface WeightTier {
  from_kg: number;
  to_kg: number;
  factor_per_kg: number;
  sort_order: number;
}

/** New tables start with these (DESIGN.md section 5, spec section 9). */
export const DEFAULT_TIERS: readonly WeightTier[] = [
  { from_kg: 1, to_kg: 10, factor_per_kg: 1.4, sort_order: 1 },
  { from_kg: 11, to_kg: 1000, factor_per_kg: 1.3, sort_order: 2 },
];

export const PRICING_MESSAGES = {
  invalidTiers: 'Hay valores inválidos (desde ≥ 1, hasta ≥ desde, factor > 0).',
  overlapping: 'Hay tramos que se solapan...',
  outsideRanges: 'Peso fuera de los rangos configurados.',
  noTable: 'No se pudo cotizar el envío: no hay tabla de precios para esta ruta y categoría.',
  quoteFailed: 'No se pudo cotizar el envío',
  sameRoute: 'El origen y el destino deben ser distintos.',
  duplicate: 'Ya existe una tabla activa para esta ruta y categoría.',
  originNotFound: 'La sucursal de origen no existe.',
  destinationNotFound: 'La sucursal de destino no existe.',
  tableNotFound: 'Tabla de precios no encontrada.',
  noActiveTable: 'No hay tabla activa para guardar.',
} as const;

/** Factors are kept in ten-thousandths (numeric(12,4)). */
const FACTOR_SCALE = 4;
const factorUnits = (factor: number | string) => toScaled(factor, FACTOR_SCALE);

/** Weights come in 0.01 kg steps; the billable weight is the whole kg above, at least 1. */
export function billableWeightKg(weightKg: number): number {
  const hundredths = Math.round(weightKg * 100);
  return Math.max(1, Math.ceil(hundredths / 100));
}

/** billable kg × factor, rounded half up to the céntimo, computed on integers. */
export function linePriceCents(billableKg: number, factorPerKg: number | string): Cents {
  // kg × factor(1e-4) = price in 1e-4 soles; céntimos are 1e-2 soles.
  return divRoundHalfUp(billableKg * factorUnits(factorPerKg), 100);
}

/** Column limits (numeric(10,2) kg, numeric(12,4) factor): beyond them the database would refuse the row. */
export const MAX_TIER_KG = 100_000;
export const MAX_FACTOR_PER_KG = 10_000;
export const MAX_TIERS = 100;

/**
 * Spec section 5's rules plus the column limits the API enforces, so the editor never offers to
 * save a list the API will refuse (from ≤ to ≤ MAX_TIER_KG also bounds from).
 */
export function isTierValid(t: Pick<WeightTier, 'from_kg' | 'to_kg' | 'factor_per_kg'>): boolean {
  return (
    [t.from_kg, t.to_kg, t.factor_per_kg].every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    t.from_kg >= 1 &&
    t.to_kg >= t.from_kg &&
    t.to_kg <= MAX_TIER_KG &&
    t.factor_per_kg > 0 &&
    t.factor_per_kg <= MAX_FACTOR_PER_KG
  );
}

export function sortTiers<T extends Pick<WeightTier, 'from_kg'>>(tiers: readonly T[]): T[] {
  return [...tiers].sort((a, b) => a.from_kg - b.from_kg);
}

/** After sorting by start, a tier whose end is not below the next start overlaps it (1–10 and 10–20 overlap). */
export function hasOverlap(tiers: readonly Pick<WeightTier, 'from_kg' | 'to_kg'>[]): boolean {
  const sorted = sortTiers(tiers);
  return sorted.some((t, i) => i + 1 < sorted.length && t.to_kg >= sorted[i + 1]!.from_kg);
}

/** The positions (in the given order) of every tier that shares a kilogram with another, so the editor can mark them. */
export function overlappingTiers(tiers: readonly Pick<WeightTier, 'from_kg' | 'to_kg'>[]): Set<number> {
  const marked = new Set<number>();
  tiers.forEach((a, i) =>
    tiers.forEach((b, j) => {
      if (i < j && a.from_kg <= b.to_kg && b.from_kg <= a.to_kg) marked.add(i).add(j);
    }),
  );
  return marked;
}

export type TierProblem = 'invalid' | 'overlap' | null;

export function tierProblem(tiers: readonly WeightTier[]): TierProblem {
  if (!tiers.every(isTierValid)) return 'invalid';
  if (hasOverlap(tiers)) return 'overlap';
  return null;
}

/** The pricing editor swaps a reversed range instead of rejecting it. */
export function swapReversed<T extends Pick<WeightTier, 'from_kg' | 'to_kg'>>(tier: T): T {
  return tier.to_kg < tier.from_kg ? { ...tier, from_kg: tier.to_kg, to_kg: tier.from_kg } : tier;
}

/** A new tier starts at the last end + 1 (or 1), spans 10 kg, factor 1, order = count + 1. */
export function nextTier(tiers: readonly WeightTier[]): WeightTier {
  const last = sortTiers(tiers).at(-1);
  const from = last ? last.to_kg + 1 : 1;
  return { from_kg: from, to_kg: from + 10, factor_per_kg: 1, sort_order: tiers.length + 1 };
}

export function findTier<T extends Pick<WeightTier, 'from_kg' | 'to_kg'>>(tiers: readonly T[], billableKg: number): T | undefined {
  return tiers.find((t) => billableKg >= t.from_kg && billableKg <= t.to_kg);
}

export type TierQuote =
  { ok: true; billableWeightKg: number; tier: WeightTier; factorPerKg: number; priceCents: Cents } | { ok: false; billableWeightKg: number };

/** The one pricing function: the API quotes with it and the Factor Peso preview shows it. */
export function quoteWithTiers(tiers: readonly WeightTier[], weightKg: number): TierQuote {
  const billable = billableWeightKg(weightKg);
  const tier = findTier(tiers, billable);
  if (!tier) return { ok: false, billableWeightKg: billable };
  return {
    ok: true,
    billableWeightKg: billable,
    tier,
    factorPerKg: tier.factor_per_kg,
    priceCents: linePriceCents(billable, tier.factor_per_kg),
  };
}

/**
 * A number or a numeric string ("1.40" as numeric columns print). Plain coercion would turn
 * null, "" or true into 0/1 and let them reach the range rules looking like real values.
 */
const finiteNumber = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+(\.\d+)?$/, 'Debe ser un número')
        .transform(Number),
    ],
    {
      error: 'Debe ser un número',
    },
  )
  .refine(Number.isFinite, 'Debe ser un número');

/** A tier as sent to PUT /weight-factors/{id}/tiers; the range rules are checked on the whole list. */
export const weightTierSchema = z.object({
  from_kg: finiteNumber.refine((n) => Math.abs(n) <= MAX_TIER_KG, `Máximo ${MAX_TIER_KG} kg`),
  to_kg: finiteNumber.refine((n) => Math.abs(n) <= MAX_TIER_KG, `Máximo ${MAX_TIER_KG} kg`),
  factor_per_kg: finiteNumber.refine((n) => Math.abs(n) <= MAX_FACTOR_PER_KG, `Máximo ${MAX_FACTOR_PER_KG} por kg`),
  sort_order: z.coerce.number().int().min(0).max(10_000).optional(),
});

/** Body of PUT /weight-factors/{id}/tiers: the whole list, replaced as one. */
export const tierListSchema = z.object({
  tiers: z
    .array(weightTierSchema, { error: 'Los tramos deben ser una lista' })
    .min(1, 'Agrega al menos un tramo.')
    .max(MAX_TIERS, `Máximo ${MAX_TIERS} tramos`),
});
export type TierListInput = z.infer<typeof tierListSchema>;

/**
 * Rounds a tier to what the columns store (kg to 0.01, factor to 0.0001, half up) so the list that
 * is validated, saved and previewed is the one the database keeps, not a finer one it would round.
 */
export function normalizeTier(t: Pick<WeightTier, 'from_kg' | 'to_kg' | 'factor_per_kg'> & { sort_order?: number }): WeightTier {
  const fix = (n: number, scale: number) => (Number.isFinite(n) ? toScaled(n, scale) / 10 ** scale : n);
  return { from_kg: fix(t.from_kg, 2), to_kg: fix(t.to_kg, 2), factor_per_kg: fix(t.factor_per_kg, FACTOR_SCALE), sort_order: t.sort_order ?? 0 };
}

/** What is saved: normalized, sorted by start and numbered 1..n in that order. */
export function prepareTiers(tiers: readonly (Pick<WeightTier, 'from_kg' | 'to_kg' | 'factor_per_kg'> & { sort_order?: number })[]): WeightTier[] {
  return sortTiers(tiers.map(normalizeTier)).map((t, i) => ({ ...t, sort_order: i + 1 }));
}

export const createWeightFactorSchema = z
  .object({
    origin_branch_id: recordId('Origen inválido'),
    destination_branch_id: recordId('Destino inválido'),
    product_type: productTypeSchema,
    name: z
      .string()
      .trim()
      .max(120, 'Máximo 120 caracteres')
      .refine((v) => isCleanText(v), PRIMITIVE_MESSAGES.controlChars)
      .optional(),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .refine((c) => c === DEFAULT_CURRENCY, 'Solo se admite la moneda PEN.')
      .default(DEFAULT_CURRENCY),
  })
  .refine((v) => v.origin_branch_id !== v.destination_branch_id, {
    message: PRICING_MESSAGES.sameRoute,
    path: ['destination_branch_id'],
  });
export type CreateWeightFactorInput = z.input<typeof createWeightFactorSchema>;

export const quoteQuerySchema = z.object({
  originId: recordId('Origen inválido'),
  destinationId: recordId('Destino inválido'),
  productType: productTypeSchema,
  weightKg: decimalNumber('Peso inválido').pipe(z.number().positive('El peso debe ser mayor a 0').max(100_000, 'Peso demasiado alto')),
});
export type QuoteQuery = z.infer<typeof quoteQuerySchema>;

export interface Quote {
  price: number;
  currency: string;
  factorPerKg: number;
  tier: { from_kg: number; to_kg: number; factor_per_kg: number };
  billableWeightKg: number;
  usingReverse: boolean;
}

/** The heaviest class among the lines decides the shipment's category: alto > medio > liviano. */
export function dominantProductType(types: readonly ProductType[]): ProductType {
  if (types.includes('alto')) return 'alto';
  if (types.includes('medio')) return 'medio';
  return 'liviano';
}

/** A saved table as GET /weight-factors answers it (spec section 3: snake_case wire fields). */
export interface WeightFactorTable {
  id: number;
  origin_branch_id: number;
  destination_branch_id: number;
  origin_name: string;
  destination_name: string;
  product_type: ProductType;
  name: string;
  currency: string;
  active: boolean;
  tiers: WeightTier[];
}

/** A row of the Factor Peso summary: prices are null when no tier holds 1 kg or 10 kg. */
export interface WeightFactorSummary {
  id: number;
  origin_branch_id: number;
  destination_branch_id: number;
  origin_name: string;
  destination_name: string;
  product_type: ProductType;
  name: string;
  currency: string;
  tier_count: number;
  min_kg: number | null;
  max_kg: number | null;
  price_1kg: number | null;
  price_10kg: number | null;
}

export const PREVIEW_PAGE_SIZES = [15, 30, 60, 100] as const;
export const PREVIEW_DEFAULT_PAGE_SIZE = 30;
export const PREVIEW_DEFAULTS = { fromKg: 1, toKg: 10 } as const;
/** A preview lists one row per kg; this bounds the list a careless final weight could ask for. */
export const PREVIEW_MAX_KG = 10_000;

export interface PreviewFilters {
  fromKg: number;
  toKg: number;
  /** Only rows priced with this factor. */
  factor?: number | null;
  /** Soles, inclusive. */
  minPrice?: number | null;
  maxPrice?: number | null;
}

export interface PreviewRow {
  weightKg: number;
  /** null: the weight falls outside every tier. */
  factorPerKg: number | null;
  priceCents: Cents | null;
}

/**
 * Preview weights are whole kg, at least 1, at most PREVIEW_MAX_KG, and the final weight never
 * below the initial one.
 */
export function previewRange(fromKg: number, toKg: number): { fromKg: number; toKg: number } {
  const clamp = (n: number, fallback: number) => (Number.isFinite(n) ? Math.min(PREVIEW_MAX_KG, Math.max(1, Math.trunc(n))) : fallback);
  const from = clamp(fromKg, PREVIEW_DEFAULTS.fromKg);
  const to = clamp(toKg, Math.max(from, PREVIEW_DEFAULTS.toKg));
  return { fromKg: from, toKg: Math.max(from, to) };
}

/**
 * The preview table: each whole kg of the range quoted with quoteWithTiers (the API's function).
 * Any price or factor filter keeps only priced rows that match; price bounds compare in céntimos.
 * Only valid tiers price (the editor may hold a cleared factor, which has no price).
 */
export function previewRows(allTiers: readonly WeightTier[], filters: PreviewFilters): PreviewRow[] {
  const tiers = allTiers.filter(isTierValid);
  const { fromKg, toKg } = previewRange(filters.fromKg, filters.toKg);
  const isSet = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n);
  const factorUnit = isSet(filters.factor) ? factorUnits(filters.factor) : null;
  const min = isSet(filters.minPrice) ? toCents(filters.minPrice) : null;
  const max = isSet(filters.maxPrice) ? toCents(filters.maxPrice) : null;
  const filtered = factorUnit !== null || min !== null || max !== null;
  const rows: PreviewRow[] = [];
  for (let kg = fromKg; kg <= toKg; kg++) {
    const q = quoteWithTiers(tiers, kg);
    const row: PreviewRow = q.ok
      ? { weightKg: kg, factorPerKg: q.factorPerKg, priceCents: q.priceCents }
      : { weightKg: kg, factorPerKg: null, priceCents: null };
    if (filtered) {
      if (row.priceCents === null || row.factorPerKg === null) continue;
      if (factorUnit !== null && factorUnits(row.factorPerKg) !== factorUnit) continue;
      if (min !== null && row.priceCents < min) continue;
      if (max !== null && row.priceCents > max) continue;
    }
    rows.push(row);
  }
  return rows;
}

/** The distinct factors of a tier list, ascending (the preview's factor filter offers these). */
export function distinctFactors(tiers: readonly Pick<WeightTier, 'factor_per_kg'>[]): number[] {
  const valid = tiers.map((t) => t.factor_per_kg).filter((f) => Number.isFinite(f) && f > 0);
  return [...new Set(valid.map((f) => factorUnits(f)))].sort((a, b) => a - b).map((u) => u / 10 ** FACTOR_SCALE);
}
