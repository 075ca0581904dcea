import { z } from 'zod';
import { toCents } from './money.ts';
import { PAYMENT_METHODS, PAYMENT_METHOD_NAMES, type PaymentMethod } from './payments/methods.ts';
import { decimalNumber, recordId } from './primitives.ts';
import { DEFAULT_COLLECTION_RULES, WHO_PAYS_MESSAGES, type CollectionRules } from './who-pays.ts';

/**
 * 'Reglas de cobro' (issue 33): the company's limits for pago en destino, the routes that refuse
 * it and the payment methods each branch's counter accepts. What is not written keeps its default:
 * every route allows pago en destino, every branch accepts every method.
 */
export const WHO_PAYS_RULES_MESSAGES = {
  maxFreight: 'Flete máximo inválido: un monto de 0 a 100000.',
  weight: 'Peso inválido: más de 0 kg, hasta 100000, o vacío para no limitar.',
  methods: 'Elige al menos un medio de pago para la sucursal.',
  method: 'Medio de pago inválido.',
  duplicateRoute: 'La misma ruta aparece dos veces.',
  duplicateBranch: 'La misma sucursal aparece dos veces.',
  sameBranch: 'El origen y destino de una ruta no pueden ser la misma sucursal.',
  branchNotFound: 'Sucursal no encontrada.',
  saved: 'Reglas de cobro guardadas',
} as const;

const routeRule = z
  .object({
    originBranchId: recordId(),
    destinationBranchId: recordId(),
    destinationAllowed: z.boolean({ error: 'Indica si admite pago en destino.' }),
  })
  .refine((r) => r.originBranchId !== r.destinationBranchId, { message: WHO_PAYS_RULES_MESSAGES.sameBranch, path: ['destinationBranchId'] });

const branchMethods = z.object({
  branchId: recordId(),
  methods: z
    .array(z.enum(PAYMENT_METHODS, { error: WHO_PAYS_RULES_MESSAGES.method }), { error: WHO_PAYS_RULES_MESSAGES.methods })
    .min(1, WHO_PAYS_RULES_MESSAGES.methods)
    .max(PAYMENT_METHODS.length)
    .transform((m) => [...new Set(m)]),
});

/** PUT /settings/who-pays: the whole set of rules, as the screen shows it. */
export const whoPaysRulesSchema = z.object({
  maxDestinationFreight: decimalNumber(WHO_PAYS_RULES_MESSAGES.maxFreight).pipe(
    z.number().min(0, WHO_PAYS_RULES_MESSAGES.maxFreight).max(100_000, WHO_PAYS_RULES_MESSAGES.maxFreight),
  ),
  originOnlyAboveKg: z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    decimalNumber(WHO_PAYS_RULES_MESSAGES.weight)
      .pipe(z.number().gt(0, WHO_PAYS_RULES_MESSAGES.weight).max(100_000, WHO_PAYS_RULES_MESSAGES.weight))
      .nullable(),
  ),
  routes: z
    .array(routeRule)
    .max(1000)
    .refine((rs) => new Set(rs.map((r) => `${r.originBranchId}:${r.destinationBranchId}`)).size === rs.length, WHO_PAYS_RULES_MESSAGES.duplicateRoute)
    .default([]),
  branchMethods: z
    .array(branchMethods)
    .max(1000)
    .refine((bs) => new Set(bs.map((b) => b.branchId)).size === bs.length, WHO_PAYS_RULES_MESSAGES.duplicateBranch)
    .default([]),
});
export type WhoPaysRules = z.output<typeof whoPaysRulesSchema>;

export const whoPaysRulesAnswerSchema = z.object({
  maxDestinationFreight: z.number(),
  originOnlyAboveKg: z.number().nullable(),
  routes: z.array(z.object({ originBranchId: z.number(), destinationBranchId: z.number(), destinationAllowed: z.boolean() })),
  branchMethods: z.array(z.object({ branchId: z.number(), methods: z.array(z.enum(PAYMENT_METHODS)) })),
});

export const DEFAULT_WHO_PAYS_RULES: WhoPaysRules = {
  maxDestinationFreight: DEFAULT_COLLECTION_RULES.maxDestinationFreightCents / 100,
  originOnlyAboveKg: DEFAULT_COLLECTION_RULES.originOnlyAboveKg,
  routes: [],
  branchMethods: [],
};

/** The company's limits as the who-pays rule reads them. */
export function collectionRulesOf(rules: Pick<WhoPaysRules, 'maxDestinationFreight' | 'originOnlyAboveKg'>): CollectionRules {
  return { maxDestinationFreightCents: toCents(rules.maxDestinationFreight), originOnlyAboveKg: rules.originOnlyAboveKg };
}

/** Why a branch's counter refuses this method, or null; `accepted` null = every method. */
export function methodRefusal(method: PaymentMethod, accepted: readonly PaymentMethod[] | null): string | null {
  if (accepted === null || accepted.includes(method)) return null;
  return WHO_PAYS_MESSAGES.methodNotAccepted(PAYMENT_METHOD_NAMES[method]);
}
