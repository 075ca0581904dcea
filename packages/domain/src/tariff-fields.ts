import { z } from 'zod';
import { decimalNumber, optionalRecordId, recordId, requiredText } from './primitives.ts';
import { centsToNumber, toCents } from './money.ts';
import {
  MAX_TIERS,
  prepareTiers,
  PRICING_MESSAGES,
  productTypeSchema,
  tierProblem,
  weightTierSchema,
  type ProductType,
  type WeightTier,
} from './pricing.ts';
import { CHARGE_BASES, type PriceRequest, type TariffLineInput } from './tariffs.ts';

/**
 * The wire fields of issue 34 (DESIGN.md 5b): what a shipment line and a shipment add for
 * tariffs, the quote's body and answer, and the tariff catalogues' bodies. Every field is
 * optional with the spec's meaning as default, so the spec's payload prices as it always did.
 */

export const TARIFF_FIELD_MESSAGES = {
  packages: 'Bultos inválidos: un número entero de 1 a 9999.',
  dimension: 'Medida inválida: centímetros enteros de 1 a 1000.',
  basis: 'Tipo a cobrar inválido: peso, volumen o artículo.',
  article: 'Artículo inválido',
  declaredValue: 'Valor declarado inválido',
  surcharges: 'Recargos inválidos',
  amount: 'Monto inválido',
  percent: 'Porcentaje inválido: de 0 a 100.',
  divisor: 'Divisor inválido: un entero de 1000 a 10000.',
  unitCode: 'Código de unidad SUNAT inválido (p. ej. NIU, BX, BG).',
  surchargeAmount: 'Indica un monto fijo o un porcentaje, no ambos.',
  articleNotFound: 'El artículo no existe.',
  customerNotFound: 'El cliente no existe.',
  articleDuplicate: 'Ya existe un artículo con ese nombre.',
  cloneSameRoute: 'Elige rutas de destino distintas de la ruta de origen.',
} as const;

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

const dimensionCm = z.preprocess(
  blankToUndefined,
  decimalNumber(TARIFF_FIELD_MESSAGES.dimension)
    .pipe(z.number().int(TARIFF_FIELD_MESSAGES.dimension).min(1, TARIFF_FIELD_MESSAGES.dimension).max(1000, TARIFF_FIELD_MESSAGES.dimension))
    .optional(),
);

/** What a weight line adds for tariffs: bultos, size per package, basis and article. */
export const tariffLineFields = {
  packages: z.preprocess(
    blankToUndefined,
    decimalNumber(TARIFF_FIELD_MESSAGES.packages)
      .pipe(z.number().int(TARIFF_FIELD_MESSAGES.packages).min(1, TARIFF_FIELD_MESSAGES.packages).max(9999, TARIFF_FIELD_MESSAGES.packages))
      .default(1),
  ),
  lengthCm: dimensionCm,
  widthCm: dimensionCm,
  heightCm: dimensionCm,
  basis: z.preprocess(blankToUndefined, z.enum(CHARGE_BASES, { error: TARIFF_FIELD_MESSAGES.basis }).default('peso')),
  articleId: optionalRecordId(TARIFF_FIELD_MESSAGES.article),
};

/** Soles with at most 2 decimals, as céntimos. */
export const amountCents = (message: string, max = 10_000_000) =>
  decimalNumber(message)
    .pipe(z.number().min(0, message).max(max, message))
    .refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, message)
    .transform((n) => toCents(n.toFixed(2)));

/** What a shipment adds for tariffs: declared value, insurance and the surcharges chosen. */
export const tariffShipmentFields = {
  // Soles on the wire both ways (the form sends what it parsed): céntimos only inside priceRequestOf.
  declaredValue: z
    .preprocess(blankToUndefined, amountCents(TARIFF_FIELD_MESSAGES.declaredValue).optional())
    .transform((v) => (v === undefined ? null : centsToNumber(v))),
  insured: z.preprocess(blankToUndefined, z.boolean({ error: 'Seguro inválido' }).default(false)),
  surcharges: z.preprocess(
    blankToUndefined,
    z
      .array(z.string({ error: TARIFF_FIELD_MESSAGES.surcharges }).regex(/^[a-z_]{2,30}$/, TARIFF_FIELD_MESSAGES.surcharges), {
        error: TARIFF_FIELD_MESSAGES.surcharges,
      })
      .max(10, TARIFF_FIELD_MESSAGES.surcharges)
      .default([]),
  ),
};

type LineFields = { productType: TariffLineInput['productType']; weightKg: number } & Partial<z.output<z.ZodObject<typeof tariffLineFields>>>;
type ShipmentTariffFields = Partial<z.output<z.ZodObject<typeof tariffShipmentFields>>>;

/** A validated shipment (or quote) body as the pure priceShipment takes it. */
export function priceRequestOf(data: { lines: readonly LineFields[] } & ShipmentTariffFields): PriceRequest {
  return {
    lines: data.lines.map((l) => ({
      productType: l.productType,
      weightKg: l.weightKg,
      packages: l.packages ?? 1,
      lengthCm: l.lengthCm ?? null,
      widthCm: l.widthCm ?? null,
      heightCm: l.heightCm ?? null,
      basis: l.basis ?? 'peso',
      articleId: l.articleId ?? null,
    })),
    surcharges: data.surcharges ?? [],
    declaredValueCents: data.declaredValue == null ? null : toCents(data.declaredValue),
    insured: data.insured ?? false,
  };
}

/** A stored component of a shipment's price (shipments.price_components), amounts in soles. */
export const priceComponentAnswerSchema = z.object({
  kind: z.enum(['flete', 'minimo', 'recargo', 'seguro', 'descuento']),
  code: z.string().nullable(),
  description: z.string(),
  amount: z.number(),
});
export type PriceComponentAnswer = z.infer<typeof priceComponentAnswerSchema>;

export const quoteLineAnswerSchema = z.object({
  basis: z.enum(CHARGE_BASES),
  productType: productTypeSchema,
  packages: z.number(),
  realKg: z.number(),
  volumetricKg: z.number().nullable(),
  chargeableKg: z.number(),
  source: z.enum(['cliente', 'articulo', 'ruta']),
  tier: z.object({ from_kg: z.number(), to_kg: z.number(), factor_per_kg: z.number() }).nullable(),
  article: z.object({ id: z.number(), name: z.string(), unitCode: z.string(), unitPrice: z.number() }).nullable(),
  amount: z.number(),
});

export type QuoteLineAnswer = z.infer<typeof quoteLineAnswerSchema>;

/** POST /quotes: every component of a price (DESIGN.md 5b). */
export const tariffQuoteAnswerSchema = z.object({
  total: z.number(),
  currency: z.string(),
  usingReverse: z.boolean(),
  divisor: z.number(),
  components: z.array(priceComponentAnswerSchema),
  lines: z.array(quoteLineAnswerSchema),
});
export type TariffQuoteAnswer = z.infer<typeof tariffQuoteAnswerSchema>;

const percentBp = (message: string) =>
  decimalNumber(message)
    .pipe(z.number().min(0, message).max(100, message))
    .transform((n) => Math.round(n * 100));
const divisor = decimalNumber(TARIFF_FIELD_MESSAGES.divisor).pipe(
  z.number().int(TARIFF_FIELD_MESSAGES.divisor).min(1000, TARIFF_FIELD_MESSAGES.divisor).max(10_000, TARIFF_FIELD_MESSAGES.divisor),
);

/** PUT /tariffs/settings: percentages as people write them (2 = 2 %), amounts in soles. */
export const tariffSettingsBodySchema = z.object({
  volumetricDivisor: divisor,
  insuranceRate: percentBp(TARIFF_FIELD_MESSAGES.percent),
  insuranceMinimum: amountCents(TARIFF_FIELD_MESSAGES.amount),
  declaredValueThreshold: amountCents(TARIFF_FIELD_MESSAGES.amount),
  insuranceMandatoryAbove: z.boolean({ error: 'Valor inválido' }),
  maxDeclaredValue: amountCents(TARIFF_FIELD_MESSAGES.amount),
  cover: percentBp(TARIFF_FIELD_MESSAGES.percent),
  undeclaredCap: amountCents(TARIFF_FIELD_MESSAGES.amount),
  liabilityClause: requiredText('Indica la cláusula de responsabilidad.', 1000, { multiline: true }),
});

export const tariffSettingsAnswerSchema = z.object({
  volumetricDivisor: z.number(),
  insuranceRate: z.number(),
  insuranceMinimum: z.number(),
  declaredValueThreshold: z.number(),
  insuranceMandatoryAbove: z.boolean(),
  maxDeclaredValue: z.number(),
  cover: z.number(),
  undeclaredCap: z.number(),
  liabilityClause: z.string(),
});
export type TariffSettingsAnswer = z.infer<typeof tariffSettingsAnswerSchema>;

export const articleBodySchema = z.object({
  name: requiredText('Indica el nombre del artículo.', 80),
  unit: requiredText('Indica la unidad.', 30),
  unitCode: z
    .string({ error: TARIFF_FIELD_MESSAGES.unitCode })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{2,3}$/, TARIFF_FIELD_MESSAGES.unitCode),
});

export const articleAnswerSchema = z.object({ id: z.number(), name: z.string(), unit: z.string(), unitCode: z.string(), active: z.boolean() });

const routeFields = { originBranchId: recordId('Seleccione origen'), destinationBranchId: recordId('Seleccione destino') };

export const articlePriceBodySchema = z.object({
  ...routeFields,
  price: amountCents(TARIFF_FIELD_MESSAGES.amount).refine((c) => c > 0, 'El precio debe ser mayor a 0.'),
});
export const articlePriceAnswerSchema = z.object({
  articleId: z.number(),
  originBranchId: z.number(),
  destinationBranchId: z.number(),
  price: z.number(),
});

export const routeTariffBodySchema = z.object({
  ...routeFields,
  minimumCharge: amountCents(TARIFF_FIELD_MESSAGES.amount),
  volumetricDivisor: z.preprocess(blankToUndefined, divisor.optional()).transform((v) => v ?? null),
});
export const routeTariffAnswerSchema = z.object({
  originBranchId: z.number(),
  destinationBranchId: z.number(),
  minimumCharge: z.number(),
  volumetricDivisor: z.number().nullable(),
});

export const surchargeBodySchema = z
  .object({
    description: requiredText('Indica la descripción del recargo.', 80),
    fixedAmount: z.preprocess(blankToUndefined, amountCents(TARIFF_FIELD_MESSAGES.amount).optional()).transform((v) => v ?? null),
    percent: z.preprocess(blankToUndefined, percentBp(TARIFF_FIELD_MESSAGES.percent).optional()).transform((v) => v ?? null),
    active: z.boolean({ error: 'Valor inválido' }).default(true),
  })
  .refine((v) => (v.fixedAmount === null) !== (v.percent === null), { message: TARIFF_FIELD_MESSAGES.surchargeAmount, path: ['fixedAmount'] });
export const surchargeAnswerSchema = z.object({
  code: z.string(),
  description: z.string(),
  fixedAmount: z.number().nullable(),
  percent: z.number().nullable(),
  active: z.boolean(),
});

export const customerTariffBodySchema = z.object({ discount: percentBp(TARIFF_FIELD_MESSAGES.percent) });
export const customerTariffAnswerSchema = z.object({ customerId: z.number(), discount: z.number() });

/** 'Clonar tarifa': a route's article prices, minimum and divisor copied onto other routes. */
export const cloneTariffBodySchema = z
  .object({
    from: z.object(routeFields),
    to: z.array(z.object(routeFields), { error: 'Elige al menos una ruta.' }).min(1, 'Elige al menos una ruta.').max(50, 'Máximo 50 rutas.'),
  })
  .refine((v) => v.to.every((r) => r.originBranchId !== v.from.originBranchId || r.destinationBranchId !== v.from.destinationBranchId), {
    message: TARIFF_FIELD_MESSAGES.cloneSameRoute,
    path: ['to'],
  });

export const quoteBodyFields = {
  originBranchId: recordId('Seleccione origen'),
  destinationBranchId: recordId('Seleccione destino'),
  senderCustomerId: optionalRecordId('Remitente inválido'),
};
export const tariffLineSchemaFields = { productType: productTypeSchema, ...tariffLineFields };

/**
 * PUT /tariffs/customers/{id}/routes: a customer's own tiers (per class) and article prices on one
 * route (issue 34); both empty removes them and the customer's discount applies again.
 */
export const customerRoutePricesBodySchema = z
  .object({
    ...routeFields,
    tiers: z
      .partialRecord(
        productTypeSchema,
        z.array(weightTierSchema, { error: 'Los tramos deben ser una lista' }).max(MAX_TIERS, `Máximo ${MAX_TIERS} tramos`),
      )
      .default({}),
    articles: z
      .array(
        z.object({
          articleId: recordId(TARIFF_FIELD_MESSAGES.article),
          price: amountCents(TARIFF_FIELD_MESSAGES.amount).refine((c) => c > 0, 'El precio debe ser mayor a 0.'),
        }),
        { error: TARIFF_FIELD_MESSAGES.article },
      )
      .max(200, 'Máximo 200 artículos.')
      .default([]),
  })
  .transform((v, ctx) => {
    const tiers: Partial<Record<ProductType, WeightTier[]>> = {};
    for (const [type, list] of Object.entries(v.tiers) as [ProductType, z.infer<typeof weightTierSchema>[]][]) {
      if (!list.length) continue;
      const prepared = prepareTiers(list);
      const problem = tierProblem(prepared);
      if (problem) {
        ctx.addIssue({
          code: 'custom',
          path: ['tiers', type],
          message: problem === 'invalid' ? PRICING_MESSAGES.invalidTiers : PRICING_MESSAGES.overlapping,
        });
        return z.NEVER;
      }
      tiers[type] = prepared;
    }
    if (new Set(v.articles.map((a) => a.articleId)).size !== v.articles.length) {
      ctx.addIssue({ code: 'custom', path: ['articles'], message: 'Un artículo aparece dos veces.' });
      return z.NEVER;
    }
    return { ...v, tiers };
  });

export const customerRoutePricesAnswerSchema = z.object({
  customerId: z.number(),
  originBranchId: z.number(),
  destinationBranchId: z.number(),
  tiers: z.record(z.string(), z.array(z.object({ from_kg: z.number(), to_kg: z.number(), factor_per_kg: z.number() }))),
  articles: z.array(z.object({ articleId: z.number(), name: z.string(), price: z.number() })),
});
export type CustomerRoutePricesAnswer = z.infer<typeof customerRoutePricesAnswerSchema>;
