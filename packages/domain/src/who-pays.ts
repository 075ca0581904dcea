import { z } from 'zod';
import { centsToString, type Cents } from './money.ts';
import { optionalRecordId, optionalText } from './primitives.ts';
import type { ShipmentStatus } from './shipments.ts';

/**
 * Who pays a shipment's freight and when (DESIGN.md 5b). The spec's payload has neither, so the
 * defaults (the sender, at the origin counter) keep it meaning what it always meant.
 */
export const PAYERS = ['remitente', 'destinatario', 'tercero'] as const;
export type Payer = (typeof PAYERS)[number];
export const PAYER_LABELS: Record<Payer, string> = { remitente: 'Remitente', destinatario: 'Destinatario', tercero: 'Tercero' };

export const PAYMENT_MOMENTS = ['origen', 'destino', 'credito'] as const;
export type PaymentMoment = (typeof PAYMENT_MOMENTS)[number];
export const PAYMENT_MOMENT_LABELS: Record<PaymentMoment, string> = { origen: 'Contado en origen', destino: 'Pago en destino', credito: 'Crédito' };

export const DEFAULT_PAYER: Payer = 'remitente';
export const DEFAULT_PAYMENT_MOMENT: PaymentMoment = 'origen';

export const payerSchema = z.enum(PAYERS, { error: 'Indica quién paga: remitente, destinatario o tercero.' });
export const paymentMomentSchema = z.enum(PAYMENT_MOMENTS, { error: 'Indica cuándo se paga: origen, destino o crédito.' });

const blankAsMissing = (v: unknown) => (v === '' || v === null ? undefined : v);

/**
 * The shipment's who-pays fields as a create (and the change command) takes them: missing ones are
 * the defaults, so the spec's payload without them is a sender paying at the origin counter.
 */
export const whoPaysFields = {
  payer: z.preprocess(blankAsMissing, payerSchema.default(DEFAULT_PAYER)),
  paymentMoment: z.preprocess(blankAsMissing, paymentMomentSchema.default(DEFAULT_PAYMENT_MOMENT)),
  payerDocType: z.preprocess(
    (v) => (v === '' || v === undefined ? null : typeof v === 'string' ? Number(v) : v),
    z.union([z.literal(1), z.literal(6)], { error: 'Tipo de documento inválido: DNI (1) o RUC (6).' }).nullable(),
  ),
  payerDocNumber: optionalText(15).pipe(
    z
      .string()
      .regex(/^(\d{8}|\d{11})$/, 'Documento del tercero inválido: DNI de 8 dígitos o RUC de 11.')
      .nullable(),
  ),
  payerName: optionalText(200),
  payerCustomerId: optionalRecordId('Cliente que paga inválido'),
  /**
   * An admin's reason to let a credit shipment through over its customer's limit or with overdue
   * facturas (issue 35): audited with the shipment. Ignored for anyone else and for other moments.
   */
  creditOverrideReason: optionalText(300),
};

export const whoPaysChangeSchema = z.object(whoPaysFields);
export type WhoPaysChange = z.output<typeof whoPaysChangeSchema>;

/** Only a third party keeps a document and name of its own; the sender and recipient are on the shipment. */
export function whoPaysColumns(v: Omit<WhoPaysChange, 'creditOverrideReason'>) {
  const third = v.payer === 'tercero';
  return {
    payer: v.payer,
    paymentMoment: v.paymentMoment,
    payerDocType: third ? (v.payerDocType ?? (v.payerDocNumber?.length === 11 ? 6 : 1)) : null,
    payerDocNumber: third ? v.payerDocNumber : null,
    payerName: third ? v.payerName : null,
    payerCustomerId: third ? v.payerCustomerId : null,
  };
}

/** A company's rules for pago en destino; a route may forbid it. */
export interface CollectionRules {
  /** The most freight a shipment may leave unpaid for the destination (Olva's S/ 500). */
  maxDestinationFreightCents: Cents;
  /** Above this weight the freight is paid at the origin; null = no such limit. */
  originOnlyAboveKg: number | null;
}

export const DEFAULT_COLLECTION_RULES: CollectionRules = { maxDestinationFreightCents: 50_000, originOnlyAboveKg: null };

export const WHO_PAYS_MESSAGES = {
  destinationNotOnRoute: 'Esta ruta no admite pago en destino.',
  destinationOverMax: (max: Cents) => `El pago en destino admite fletes de hasta S/ ${centsToString(max)}.`,
  destinationOverWeight: (kg: number) => `Los envíos de más de ${kg} kg se pagan en origen.`,
  creditNeedsAccount: 'El cliente no tiene una cuenta de crédito activa.',
  thirdPartyNeedsDocument: 'Indica el documento y el nombre del tercero que paga.',
  destinationNeedsRecipientOrThird: 'El remitente paga en origen o a crédito; en destino paga el destinatario o un tercero.',
  changeAfterPayment: 'El envío ya tiene un pago: quién paga y cuándo ya no cambian.',
  changeAfterLoading: 'El envío ya se cargó: quién paga y cuándo ya no cambian.',
  deliverAfterPayment: (dueCents: Cents) => `Cobra el flete antes de entregar: S/ ${centsToString(dueCents)} por cobrar.`,
  collectAtDestination: 'Este envío se paga en destino: lo cobra la sucursal de destino.',
  collectWhenArrived: 'El pago en destino se cobra cuando el envío llega a la agencia.',
  creditNotCollected: 'Este envío va a la cuenta de crédito del cliente: no se cobra en mostrador.',
  methodNotAccepted: (method: string) => `Esta sucursal no acepta el medio de pago ${method}.`,
} as const;

/** The branch whose counter collects the freight: the destination's for pago en destino, else the origin's. */
export function collectingBranchId(s: { paymentMoment: PaymentMoment; originBranchId: number; destinationBranchId: number }): number {
  return s.paymentMoment === 'destino' ? s.destinationBranchId : s.originBranchId;
}

export interface WhoPays {
  payer: Payer;
  paymentMoment: PaymentMoment;
  /** A third party's document and name (required for 'tercero'). */
  payerDocNumber?: string | null;
  payerName?: string | null;
}

export interface WhoPaysContext {
  rules: CollectionRules;
  /** The route allows pago en destino. */
  routeAllowsDestination: boolean;
  priceCents: Cents;
  /** The shipment's real weight, all lines. */
  weightKg: number;
  /** The paying customer has an active credit account. */
  hasCreditAccount: boolean;
}

/** Why this choice of who pays and when is refused, or null when it stands. */
export function whoPaysRefusal(choice: WhoPays, ctx: WhoPaysContext): { field: string; message: string } | null {
  if (choice.payer === 'tercero' && (!choice.payerDocNumber?.trim() || !choice.payerName?.trim())) {
    return { field: 'payerDocNumber', message: WHO_PAYS_MESSAGES.thirdPartyNeedsDocument };
  }
  if (choice.paymentMoment === 'credito' && !ctx.hasCreditAccount) return { field: 'paymentMoment', message: WHO_PAYS_MESSAGES.creditNeedsAccount };
  if (choice.paymentMoment !== 'destino') return null;
  // The sender is at the origin counter: leaving the freight for the destination only makes
  // sense when somebody else pays it there.
  if (choice.payer === 'remitente') return { field: 'payer', message: WHO_PAYS_MESSAGES.destinationNeedsRecipientOrThird };
  if (!ctx.routeAllowsDestination) return { field: 'paymentMoment', message: WHO_PAYS_MESSAGES.destinationNotOnRoute };
  if (ctx.priceCents > ctx.rules.maxDestinationFreightCents) {
    return { field: 'paymentMoment', message: WHO_PAYS_MESSAGES.destinationOverMax(ctx.rules.maxDestinationFreightCents) };
  }
  if (ctx.rules.originOnlyAboveKg !== null && ctx.weightKg > ctx.rules.originOnlyAboveKg) {
    return { field: 'paymentMoment', message: WHO_PAYS_MESSAGES.destinationOverWeight(ctx.rules.originOnlyAboveKg) };
  }
  return null;
}

/** Who pays and when may change until the freight is paid or the parcel is loaded. */
export function whoPaysChangeRefusal(shipment: { hasLivePayment: boolean; loaded: boolean }): string | null {
  if (shipment.hasLivePayment) return WHO_PAYS_MESSAGES.changeAfterPayment;
  if (shipment.loaded) return WHO_PAYS_MESSAGES.changeAfterLoading;
  return null;
}

export interface CollectableShipment {
  status: ShipmentStatus;
  paymentMoment: PaymentMoment;
  originBranchId: number;
  destinationBranchId: number;
  hasLivePayment: boolean;
}

/**
 * 'Por cobrar en destino' at a branch: pago en destino not yet paid, at that branch (En agencia)
 * or on its way there (En tránsito), so the counter sees what is coming.
 */
export function isCollectableAtDestination(s: CollectableShipment, branchId: number): boolean {
  return (
    s.paymentMoment === 'destino' &&
    !s.hasLivePayment &&
    s.destinationBranchId === branchId &&
    (s.status === 'En agencia' || s.status === 'En tránsito')
  );
}

/** Delivery waits for the money when the freight is collected at the destination. */
export function deliveryPaymentRefusal(s: { paymentMoment: PaymentMoment; paid: boolean; dueCents: Cents }): string | null {
  return s.paymentMoment === 'destino' && !s.paid ? WHO_PAYS_MESSAGES.deliverAfterPayment(s.dueCents) : null;
}

/**
 * A shipment sent back to its origin before its recipient paid: the sender now owes the freight
 * at the origin counter (the return leg itself charges what its own moment says).
 */
export function whoPaysAfterReturn(current: WhoPays, paid: boolean): WhoPays {
  if (paid || current.paymentMoment !== 'destino') return current;
  return { payer: 'remitente', paymentMoment: 'origen', payerDocNumber: null, payerName: null };
}

/**
 * The person a receipt is issued to (issue 33: to whoever pays): the third party's document and
 * name, the recipient's, or the sender's (whose document is the customer's, when known).
 */
export function payingParty(s: {
  payer: Payer;
  payerDocNumber: string | null;
  payerName: string | null;
  recipientDoc: string;
  recipientName: string;
  senderDoc: string | null;
  senderName: string;
}): { docNumber: string; name: string } {
  if (s.payer === 'tercero') return { docNumber: s.payerDocNumber ?? '', name: s.payerName ?? '' };
  if (s.payer === 'destinatario') return { docNumber: s.recipientDoc, name: s.recipientName };
  return { docNumber: s.senderDoc ?? '', name: s.senderName };
}
