import { z } from 'zod';
import { centsToString, toCents, type Cents } from '../money.ts';
import { decimalNumber, optionalText, recordId, requiredText } from '../primitives.ts';

/**
 * Credit accounts (issue 35): a RUC customer who ships now and pays against a factura later. The
 * account sets how much may be owed at once (the limit), how long an invoice may stay unpaid (the
 * terms) and how often its shipments are invoiced (the period).
 */
export const CREDIT_PERIODS = ['semanal', 'quincenal', 'mensual'] as const;
export type CreditPeriod = (typeof CREDIT_PERIODS)[number];
export const CREDIT_PERIOD_LABELS: Record<CreditPeriod, string> = { semanal: 'Semanal', quincenal: 'Quincenal', mensual: 'Mensual' };

export const CREDIT_ACCOUNT_STATUSES = ['activa', 'suspendida'] as const;
export type CreditAccountStatus = (typeof CREDIT_ACCOUNT_STATUSES)[number];
export const CREDIT_ACCOUNT_STATUS_LABELS: Record<CreditAccountStatus, string> = { activa: 'Activa', suspendida: 'Suspendida' };

export const CREDIT_MESSAGES = {
  limit: 'Límite de crédito inválido: un monto mayor que 0, hasta 10000000.',
  terms: 'Plazo inválido: de 1 a 180 días.',
  period: 'Periodo de facturación inválido: semanal, quincenal o mensual.',
  status: 'Estado inválido: activa o suspendida.',
  contactName: 'Contacto requerido',
  contactEmail: 'Correo del contacto inválido.',
  contactPhone: 'Teléfono del contacto inválido: 9 dígitos.',
  contactNeeded: 'Indica el correo o el teléfono del contacto para los estados de cuenta.',
  rucOnly: 'Solo un cliente con RUC puede tener cuenta de crédito.',
  accountExists: 'El cliente ya tiene una cuenta de crédito.',
  accountNotFound: 'Cuenta de crédito no encontrada.',
  noActiveAccount: 'El cliente no tiene una cuenta de crédito activa.',
  overLimit: (availableCents: Cents) => `Línea de crédito excedida: disponible S/ ${centsToString(Math.max(availableCents, 0))}.`,
  overdue: 'Cliente con facturas vencidas.',
  overrideReason: 'Indica el motivo de la autorización (mínimo 10 caracteres).',
  saved: 'Cuenta de crédito guardada',
} as const;

export const MAX_CREDIT_LIMIT_CENTS: Cents = 1_000_000_000;

export const creditAccountSchema = z
  .object({
    customerId: recordId('Cliente inválido'),
    limit: decimalNumber(CREDIT_MESSAGES.limit).refine((v) => v > 0 && toCents(v) <= MAX_CREDIT_LIMIT_CENTS, CREDIT_MESSAGES.limit),
    termsDays: z.coerce
      .number({ error: CREDIT_MESSAGES.terms })
      .int(CREDIT_MESSAGES.terms)
      .min(1, CREDIT_MESSAGES.terms)
      .max(180, CREDIT_MESSAGES.terms),
    period: z.enum(CREDIT_PERIODS, { error: CREDIT_MESSAGES.period }),
    status: z.enum(CREDIT_ACCOUNT_STATUSES, { error: CREDIT_MESSAGES.status }).default('activa'),
    contactName: requiredText(CREDIT_MESSAGES.contactName, 120),
    contactEmail: optionalText(120).pipe(z.email(CREDIT_MESSAGES.contactEmail).nullable()),
    contactPhone: optionalText(9).pipe(
      z
        .string()
        .regex(/^9\d{8}$/, CREDIT_MESSAGES.contactPhone)
        .nullable(),
    ),
  })
  .refine((a) => a.contactEmail || a.contactPhone, { message: CREDIT_MESSAGES.contactNeeded, path: ['contactEmail'] });
export type CreditAccountInput = z.input<typeof creditAccountSchema>;
export type CreditAccountValues = z.output<typeof creditAccountSchema>;

/** What the account stands at when a new credit shipment is asked for. */
export interface CreditPosition {
  status: CreditAccountStatus;
  limitCents: Cents;
  /** Everything owed now: uninvoiced credit shipments plus invoices' open balances. */
  balanceCents: Cents;
  /** An invoice of the account is past its due date with money still open. */
  hasOverdue: boolean;
}

export type CreditRefusal = { code: 'NO_CREDIT_ACCOUNT' | 'CREDIT_OVERDUE' | 'CREDIT_LIMIT'; message: string };

/**
 * Why a credit shipment of `amountCents` is refused, or null when the account takes it. A suspended
 * account is as good as none; overdue invoices stop new credit before the limit is looked at, since
 * the company's first question is whether the customer pays at all. The limit is inclusive: a
 * shipment that brings the balance exactly to it goes.
 */
export function creditRefusal(position: CreditPosition | null, amountCents: Cents): CreditRefusal | null {
  if (!position || position.status !== 'activa') return { code: 'NO_CREDIT_ACCOUNT', message: CREDIT_MESSAGES.noActiveAccount };
  if (position.hasOverdue) return { code: 'CREDIT_OVERDUE', message: CREDIT_MESSAGES.overdue };
  const available = position.limitCents - position.balanceCents;
  if (amountCents > available) return { code: 'CREDIT_LIMIT', message: CREDIT_MESSAGES.overLimit(available) };
  return null;
}

/** An admin lets one refused credit shipment through, with a reason that is audited. */
export const creditOverrideSchema = z.object({
  reason: requiredText(CREDIT_MESSAGES.overrideReason, 300).refine((r) => r.trim().length >= 10, CREDIT_MESSAGES.overrideReason),
});
