import { z } from 'zod';
import { centsToString, sumCents, toCents, type Cents } from '../money.ts';
import { isIsoDay, INVALID_DAY_MESSAGE } from '../dates.ts';
import { decimalNumber, optionalText, recordId, requiredText } from '../primitives.ts';

/**
 * Cobranza (issue 35): a customer's payment against its invoices. A payment is applied to the
 * invoices it names, or, by default, to the oldest open ones first (by due date, then issue date,
 * then number), each as far as its open balance goes; what is left over stays on the account as a
 * credit balance for later invoices. All in céntimos, so every allocation adds up exactly.
 */
export const COLLECTION_METHODS = ['transferencia', 'deposito', 'cheque', 'efectivo'] as const;
export type CollectionMethod = (typeof COLLECTION_METHODS)[number];
export const COLLECTION_METHOD_LABELS: Record<CollectionMethod, string> = {
  transferencia: 'Transferencia',
  deposito: 'Depósito',
  cheque: 'Cheque',
  efectivo: 'Efectivo',
};

export const COLLECTION_MESSAGES = {
  amount: 'Importe inválido: mayor que 0, con 2 decimales como máximo.',
  method: 'Medio de cobro inválido: transferencia, depósito, cheque o efectivo.',
  date: INVALID_DAY_MESSAGE,
  futureDate: 'La fecha del cobro no puede ser futura.',
  operation: 'Número de operación requerido',
  bank: 'Banco requerido',
  allocationOver: (doc: string, open: Cents) => `${doc}: se puede aplicar hasta S/ ${centsToString(open)}.`,
  allocationsOverAmount: 'Lo aplicado a las facturas supera el importe del cobro.',
  duplicateInvoice: 'La misma factura aparece dos veces.',
  invoiceNotOpen: 'La factura no es de este cliente o ya no tiene saldo.',
  voidReason: 'Indica el motivo de la anulación (mínimo 10 caracteres).',
  saved: 'Cobro registrado',
} as const;

/** A positive amount of soles with at most 2 decimals (12.345 is refused, not rounded). */
const amount = decimalNumber(COLLECTION_MESSAGES.amount).refine(
  (v) => v > 0 && v <= 100_000_000 && toCents(v) / 100 === v,
  COLLECTION_MESSAGES.amount,
);

export const collectionSchema = z
  .object({
    customerId: recordId('Cliente inválido'),
    receivedOn: z.string({ error: COLLECTION_MESSAGES.date }).refine(isIsoDay, COLLECTION_MESSAGES.date),
    method: z.enum(COLLECTION_METHODS, { error: COLLECTION_MESSAGES.method }),
    amount,
    bank: optionalText(60),
    operationNumber: optionalText(40),
    note: optionalText(300, { multiline: true }),
    /** Explicit allocations; empty or missing = oldest first. */
    allocations: z
      .array(z.object({ documentId: recordId('Factura inválida'), amount }))
      .max(200)
      .optional()
      .default([]),
  })
  .superRefine((c, ctx) => {
    // A bank movement is traced by its bank and operation number; cash needs neither.
    if (c.method !== 'efectivo' && !c.bank) ctx.addIssue({ code: 'custom', path: ['bank'], message: COLLECTION_MESSAGES.bank });
    if (c.method !== 'efectivo' && !c.operationNumber)
      ctx.addIssue({ code: 'custom', path: ['operationNumber'], message: COLLECTION_MESSAGES.operation });
    const ids = c.allocations.map((a) => a.documentId);
    if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['allocations'], message: COLLECTION_MESSAGES.duplicateInvoice });
    if (sumCents(c.allocations.map((a) => toCents(a.amount))) > toCents(c.amount))
      ctx.addIssue({ code: 'custom', path: ['allocations'], message: COLLECTION_MESSAGES.allocationsOverAmount });
  });
export type CollectionInput = z.input<typeof collectionSchema>;
export type CollectionValues = z.output<typeof collectionSchema>;

export const collectionVoidSchema = z.object({
  reason: requiredText(COLLECTION_MESSAGES.voidReason, 300).refine((r) => r.length >= 10, COLLECTION_MESSAGES.voidReason),
});

/** An invoice as cobranza sees it: what is still open on it, and when it falls due. */
export interface OpenInvoice {
  documentId: number;
  /** 'F001-12', for messages. */
  label: string;
  issueDate: string;
  dueDate: string;
  openCents: Cents;
}

export interface Allocation {
  documentId: number;
  amountCents: Cents;
}

export type AllocationResult = { ok: true; allocations: Allocation[]; unappliedCents: Cents } | { ok: false; message: string; path: 'allocations' };

/** Oldest first: due date, then issue date, then the document's id (its number within a series). */
export function oldestFirst<T extends Pick<OpenInvoice, 'dueDate' | 'issueDate' | 'documentId'>>(invoices: readonly T[]): T[] {
  return [...invoices].sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.issueDate.localeCompare(b.issueDate) || a.documentId - b.documentId);
}

/**
 * Applies a payment of `amountCents` to `open` invoices: the explicit allocations when given (each
 * at most its invoice's open balance), else oldest first. The remainder is the credit balance.
 */
export function allocateCollection(amountCents: Cents, open: readonly OpenInvoice[], explicit: readonly Allocation[] = []): AllocationResult {
  if (explicit.length > 0) {
    const byId = new Map(open.map((i) => [i.documentId, i]));
    for (const a of explicit) {
      const invoice = byId.get(a.documentId);
      if (!invoice || invoice.openCents <= 0) return { ok: false, message: COLLECTION_MESSAGES.invoiceNotOpen, path: 'allocations' };
      if (a.amountCents > invoice.openCents)
        return { ok: false, message: COLLECTION_MESSAGES.allocationOver(invoice.label, invoice.openCents), path: 'allocations' };
    }
    const applied = sumCents(explicit.map((a) => a.amountCents));
    if (applied > amountCents) return { ok: false, message: COLLECTION_MESSAGES.allocationsOverAmount, path: 'allocations' };
    return { ok: true, allocations: explicit.filter((a) => a.amountCents > 0).map((a) => ({ ...a })), unappliedCents: amountCents - applied };
  }
  let left = amountCents;
  const allocations: Allocation[] = [];
  for (const invoice of oldestFirst(open)) {
    if (left === 0) break;
    if (invoice.openCents <= 0) continue;
    const take = Math.min(left, invoice.openCents);
    allocations.push({ documentId: invoice.documentId, amountCents: take });
    left -= take;
  }
  return { ok: true, allocations, unappliedCents: left };
}
