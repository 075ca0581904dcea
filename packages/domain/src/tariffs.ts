import { divRoundHalfUp, toScaled, type Cents } from './money.ts';
import { findTier, type ProductType, type WeightTier } from './pricing.ts';

/**
 * What a shipment costs, component by component (DESIGN.md 5b): lines priced by weight, volume or
 * article, the minimum-charge adjustment, surcharges, insurance on the declared value and a
 * customer's discount. Every amount is an integer of céntimos, each component rounded half up on
 * its own, so the breakdown a counter shows, the price stored and the receipt's items add up to
 * the same céntimo. Pure: the API feeds it the tables it read, the form the tables it was sent.
 */

export const CHARGE_BASES = ['peso', 'volumen', 'articulo'] as const;
export type ChargeBasis = (typeof CHARGE_BASES)[number];
export const CHARGE_BASIS_LABELS: Record<ChargeBasis, string> = { peso: 'Peso', volumen: 'Volumen', articulo: 'Artículo' };

/** Road freight's usual divisor (cm³ per kg); air would be 5000. Per company, overridable per route. */
export const DEFAULT_VOLUMETRIC_DIVISOR = 6000;

export const TARIFF_MESSAGES = {
  noTable: 'No se pudo cotizar el envío: no hay tabla de precios para esta ruta y categoría.',
  outsideRanges: 'Peso fuera de los rangos configurados.',
  noArticle: 'Elige un artículo del catálogo.',
  articleWithoutPrice: 'El artículo no tiene precio en esta ruta.',
  dimensionsIncomplete: 'Indica largo, ancho y alto (cm), o ninguno.',
  volumeNeedsDimensions: 'Para cobrar por volumen indica largo, ancho y alto (cm).',
  unknownSurcharge: 'Recargo desconocido.',
  declaredValueRequired: 'Indica el valor declarado para asegurar el envío.',
  insuranceRequired: 'El seguro es obligatorio para un valor declarado mayor a S/ {threshold}.',
  declaredValueTooHigh: 'El valor declarado supera el máximo asegurable (S/ {max}).',
} as const;

export interface TariffLineInput {
  productType: ProductType;
  /** Bultos: the line's count of packages (at least 1). */
  packages: number;
  /** The line's real weight, all its packages together, in 0.01 kg steps. */
  weightKg: number;
  /** One package's size in whole centimetres; all three or none. */
  lengthCm?: number | null;
  widthCm?: number | null;
  heightCm?: number | null;
  basis: ChargeBasis;
  articleId?: number | null;
}

export interface ArticlePrice {
  articleId: number;
  name: string;
  /** SUNAT unit code (catálogo 03), e.g. NIU for a unit, BG for a bag. */
  unitCode: string;
  priceCents: Cents;
}

/** A set of prices for one route: the route's own, or a customer's negotiated ones for it. */
export interface PriceList {
  tiers: Partial<Record<ProductType, readonly WeightTier[]>>;
  articles: ReadonlyMap<number, ArticlePrice>;
}

export interface RouteTariff extends PriceList {
  /** The reverse route's tables answer when this route has none (DESIGN.md 5). */
  usingReverse: boolean;
  /** 0 = none. */
  minimumChargeCents: Cents;
  /** null = the company's divisor. */
  divisor: number | null;
}

export type CustomerTariff =
  | { kind: 'descuento'; customerName: string; /** basis points: 1000 = 10 % */ discountBp: number }
  | { kind: 'propia'; customerName: string; prices: PriceList };

export interface SurchargeRule {
  code: string;
  description: string;
  /** A fixed amount, or basis points of the freight (lines and minimum adjustment). */
  fixedCents?: Cents;
  percentBp?: number;
}

export interface InsuranceRule {
  /** Premium in basis points of the declared value: 200 = 2 %. */
  rateBp: number;
  minimumPremiumCents: Cents;
  /** Above this declared value insurance is mandatory when `mandatoryAbove`. */
  thresholdCents: Cents;
  mandatoryAbove: boolean;
  /** The most a shipment may declare (0 = no cap). */
  maxDeclaredCents: Cents;
}

export interface TariffSettings {
  divisor: number;
  insurance: InsuranceRule;
  surcharges: ReadonlyMap<string, SurchargeRule>;
}

export interface PriceRequest {
  lines: readonly TariffLineInput[];
  surcharges?: readonly string[];
  declaredValueCents?: Cents | null;
  insured?: boolean;
}

export type PriceSource = 'cliente' | 'articulo' | 'ruta';

export interface PricedTariffLine {
  basis: ChargeBasis;
  productType: ProductType;
  packages: number;
  realKg: number;
  /** null when the line has no dimensions. */
  volumetricKg: number | null;
  /** Whole kg charged: the real weight for 'peso', the larger of real and volumetric for 'volumen'. */
  chargeableKg: number;
  source: PriceSource;
  tier: { from_kg: number; to_kg: number; factor_per_kg: number } | null;
  article: { id: number; name: string; unitCode: string; unitPriceCents: Cents } | null;
  amountCents: Cents;
}

export type ComponentKind = 'flete' | 'minimo' | 'recargo' | 'seguro' | 'descuento';

export interface PriceComponent {
  kind: ComponentKind;
  /** The surcharge's code, the line's position for freight. */
  code: string | null;
  description: string;
  amountCents: Cents;
}

export interface PriceBreakdown {
  lines: PricedTariffLine[];
  components: PriceComponent[];
  totalCents: Cents;
  usingReverse: boolean;
}

export interface PricingProblem {
  message: string;
  /** The form field the message belongs to, e.g. 'lines.1.articleId'. */
  field: string;
}

export type PriceResult = { ok: true; breakdown: PriceBreakdown } | { ok: false; problem: PricingProblem };

const FACTOR_SCALE = 4;
const ceilDiv = (a: number, b: number) => Math.floor((a + b - 1) / b);
const percentOf = (cents: Cents, bp: number): Cents => divRoundHalfUp(cents * bp, 10_000);
const soles = (cents: Cents) => (cents / 100).toFixed(2);
const fail = (message: string, field: string): PriceResult => ({ ok: false, problem: { message, field } });

/** A line's real weight as DESIGN.md 5 bills it: whole kg above, at least 1. */
export function realChargeableKg(weightKg: number): number {
  return Math.max(1, ceilDiv(Math.round(weightKg * 100), 100));
}

/** L × W × H × bultos ÷ divisor, to 0.01 kg (half up); null without all three sizes. */
export function volumetricKg(line: Pick<TariffLineInput, 'lengthCm' | 'widthCm' | 'heightCm' | 'packages'>, divisor: number): number | null {
  const { lengthCm: l, widthCm: w, heightCm: h } = line;
  if (!l || !w || !h) return null;
  return divRoundHalfUp(l * w * h * line.packages * 100, divisor) / 100;
}

/** Whole kg to charge: the real weight by 'peso', the larger of real and volumetric by 'volumen'. */
export function chargeableKg(line: TariffLineInput, divisor: number): number {
  const real = realChargeableKg(line.weightKg);
  const { lengthCm: l, widthCm: w, heightCm: h } = line;
  if (line.basis !== 'volumen' || !l || !w || !h) return real;
  // Exact: the volume in cm³ against divisor × kg, never a rounded volumetric figure.
  return Math.max(real, ceilDiv(l * w * h * line.packages, divisor));
}

function hasSomeDimension(line: TariffLineInput) {
  return [line.lengthCm, line.widthCm, line.heightCm].some((v) => v != null && v !== 0);
}
function hasAllDimensions(line: TariffLineInput) {
  return [line.lengthCm, line.widthCm, line.heightCm].every((v) => v != null && v > 0);
}

/** The customer's own prices come first, then the route's (articles and tiers alike). */
function priceLine(
  line: TariffLineInput,
  index: number,
  route: RouteTariff,
  customer: CustomerTariff | null,
  divisor: number,
): PriceResult | PricedTariffLine {
  const field = (name: string) => `lines.${index}.${name}`;
  if (hasSomeDimension(line) && !hasAllDimensions(line)) return fail(TARIFF_MESSAGES.dimensionsIncomplete, field('lengthCm'));
  if (line.basis === 'volumen' && !hasAllDimensions(line)) return fail(TARIFF_MESSAGES.volumeNeedsDimensions, field('lengthCm'));
  const own = customer?.kind === 'propia' ? customer.prices : null;
  const base = {
    basis: line.basis,
    productType: line.productType,
    packages: line.packages,
    realKg: line.weightKg,
    volumetricKg: volumetricKg(line, divisor),
  };
  if (line.basis === 'articulo') {
    if (line.articleId == null) return fail(TARIFF_MESSAGES.noArticle, field('articleId'));
    const ownPrice = own?.articles.get(line.articleId);
    const price = ownPrice ?? route.articles.get(line.articleId);
    if (!price) return fail(TARIFF_MESSAGES.articleWithoutPrice, field('articleId'));
    return {
      ...base,
      chargeableKg: realChargeableKg(line.weightKg),
      source: ownPrice ? 'cliente' : 'articulo',
      tier: null,
      article: { id: price.articleId, name: price.name, unitCode: price.unitCode, unitPriceCents: price.priceCents },
      amountCents: price.priceCents * line.packages,
    };
  }
  const ownTiers = own?.tiers[line.productType];
  const tiers = ownTiers ?? route.tiers[line.productType];
  if (!tiers) return fail(TARIFF_MESSAGES.noTable, field('productType'));
  const kg = chargeableKg(line, divisor);
  const tier = findTier(tiers, kg);
  if (!tier) return fail(TARIFF_MESSAGES.outsideRanges, field('weightKg'));
  return {
    ...base,
    chargeableKg: kg,
    source: ownTiers ? 'cliente' : 'ruta',
    tier: { from_kg: tier.from_kg, to_kg: tier.to_kg, factor_per_kg: tier.factor_per_kg },
    article: null,
    // kg × factor (1e-4 soles) to céntimos, half up: the same figure as quoteWithTiers.
    amountCents: divRoundHalfUp(kg * toScaled(tier.factor_per_kg, FACTOR_SCALE), 100),
  };
}

function lineDescription(line: PricedTariffLine): string {
  if (line.article) return `Flete ${line.article.name} × ${line.packages}`;
  const basis = line.basis === 'volumen' ? 'volumen' : 'peso';
  return `Flete ${line.chargeableKg} kg (${basis})`;
}

/** The premium for a declared value: its rate, never below the minimum premium. */
export function insurancePremium(rule: InsuranceRule, declaredValueCents: Cents): Cents {
  return Math.max(rule.minimumPremiumCents, percentOf(declaredValueCents, rule.rateBp));
}

function insuranceComponent(request: PriceRequest, rule: InsuranceRule): PriceResult | PriceComponent | null {
  const declared = request.declaredValueCents ?? null;
  if (declared !== null && rule.maxDeclaredCents > 0 && declared > rule.maxDeclaredCents) {
    return fail(TARIFF_MESSAGES.declaredValueTooHigh.replace('{max}', soles(rule.maxDeclaredCents)), 'declaredValue');
  }
  const mandatory = declared !== null && rule.mandatoryAbove && declared > rule.thresholdCents;
  if (mandatory && !request.insured) {
    return fail(TARIFF_MESSAGES.insuranceRequired.replace('{threshold}', soles(rule.thresholdCents)), 'insured');
  }
  if (!request.insured) return null;
  if (declared === null || declared <= 0) return fail(TARIFF_MESSAGES.declaredValueRequired, 'declaredValue');
  return { kind: 'seguro', code: null, description: `Seguro (valor declarado S/ ${soles(declared)})`, amountCents: insurancePremium(rule, declared) };
}

/**
 * The whole price of a shipment. Order: lines, minimum adjustment (when the lines fall short of
 * the route's minimum), surcharges (fixed, or a percentage of that freight), insurance, then the
 * customer's discount on the freight alone (never on surcharges nor insurance, and never below 0).
 */
export function priceShipment(
  request: PriceRequest,
  route: RouteTariff,
  settings: TariffSettings,
  customer: CustomerTariff | null = null,
): PriceResult {
  const divisor = route.divisor ?? settings.divisor;
  const lines: PricedTariffLine[] = [];
  for (const [i, input] of request.lines.entries()) {
    const priced = priceLine(input, i, route, customer, divisor);
    if ('ok' in priced) return priced;
    lines.push(priced);
  }
  const components: PriceComponent[] = lines.map((l, i) => ({
    kind: 'flete',
    code: String(i + 1),
    description: lineDescription(l),
    amountCents: l.amountCents,
  }));
  const linesTotal = lines.reduce((sum, l) => sum + l.amountCents, 0);
  const minimumAdjustment = Math.max(0, route.minimumChargeCents - linesTotal);
  if (minimumAdjustment > 0) {
    components.push({
      kind: 'minimo',
      code: null,
      description: `Ajuste a cargo mínimo (S/ ${soles(route.minimumChargeCents)})`,
      amountCents: minimumAdjustment,
    });
  }
  const freight = linesTotal + minimumAdjustment;
  for (const code of new Set(request.surcharges ?? [])) {
    const rule = settings.surcharges.get(code);
    if (!rule) return fail(TARIFF_MESSAGES.unknownSurcharge, 'surcharges');
    const amount = (rule.fixedCents ?? 0) + (rule.percentBp ? percentOf(freight, rule.percentBp) : 0);
    components.push({ kind: 'recargo', code, description: rule.description, amountCents: amount });
  }
  const insurance = insuranceComponent(request, settings.insurance);
  if (insurance && 'ok' in insurance) return insurance;
  if (insurance) components.push(insurance);
  if (customer?.kind === 'descuento' && customer.discountBp > 0) {
    const discount = Math.min(freight, percentOf(freight, customer.discountBp));
    if (discount > 0) {
      components.push({
        kind: 'descuento',
        code: null,
        description: `Descuento ${customer.customerName} (${customer.discountBp / 100} %)`,
        amountCents: -discount,
      });
    }
  }
  const totalCents = components.reduce((sum, c) => sum + c.amountCents, 0);
  return { ok: true, breakdown: { lines, components, totalCents, usingReverse: route.usingReverse } };
}

/**
 * What the carrier owes for a lost or damaged shipment under the liability clause: the declared
 * value × the cover (e.g. 90 %), or the cap for undeclared goods.
 */
export function compensationDue(declaredValueCents: Cents | null, coverBp: number, undeclaredCapCents: Cents): Cents {
  if (declaredValueCents === null || declaredValueCents <= 0) return undeclaredCapCents;
  return percentOf(declaredValueCents, coverBp);
}

/** The incident reasons the liability clause compensates: the goods were lost or damaged. */
export const COMPENSABLE_INCIDENT_REASONS: readonly string[] = ['dañado', 'extraviado', 'faltante en desembarque'];

export interface IncidentCompensation {
  amountCents: Cents;
  /** 'declarado': the declared (and insured) value × the cover; 'tope': the cap for undeclared goods. */
  basis: 'declarado' | 'tope';
  description: string;
}

/**
 * What the clause pays for an incident of loss or damage (issue 34): an insured shipment's declared
 * value × the cover (e.g. 90 %), else the cap for undeclared goods; null for any other incident.
 * A value declared without insurance is not covered: the clause is on the declared and insured value.
 */
export function incidentCompensation(
  reason: string,
  shipment: { declaredValueCents: Cents | null; insured: boolean },
  clause: { coverBp: number; undeclaredCapCents: Cents },
): IncidentCompensation | null {
  if (!COMPENSABLE_INCIDENT_REASONS.includes(reason)) return null;
  const declared = shipment.insured ? shipment.declaredValueCents : null;
  const amountCents = compensationDue(declared, clause.coverBp, clause.undeclaredCapCents);
  if (declared !== null && declared > 0) {
    return {
      amountCents,
      basis: 'declarado',
      description: `Indemnización según la cláusula: ${clause.coverBp / 100} % del valor declarado S/ ${soles(declared)} = S/ ${soles(amountCents)}`,
    };
  }
  return { amountCents, basis: 'tope', description: `Indemnización según la cláusula: tope sin valor declarado S/ ${soles(amountCents)}` };
}
