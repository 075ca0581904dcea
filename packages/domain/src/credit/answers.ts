import { z } from 'zod';
import { INVALID_DAY_MESSAGE, isIsoDay } from '../dates.ts';
import { AGEING_BUCKETS } from './ageing.ts';
import { CREDIT_ACCOUNT_STATUSES, CREDIT_PERIODS } from './accounts.ts';
import { COLLECTION_METHODS } from './allocation.ts';
import { STATEMENT_LINE_KINDS } from './statement.ts';

/** The credit API's answers (issue 35); amounts in soles with 2 decimals, as every answer. */
export const creditAccountAnswerSchema = z.object({
  customerId: z.number(),
  customerName: z.string(),
  docNumber: z.string(),
  limit: z.number(),
  termsDays: z.number(),
  period: z.enum(CREDIT_PERIODS),
  status: z.enum(CREDIT_ACCOUNT_STATUSES),
  contactName: z.string(),
  contactEmail: z.string().nullable(),
  contactPhone: z.string().nullable(),
  /** Uninvoiced credit shipments + open facturas − money not yet applied. */
  balance: z.number(),
  available: z.number(),
  uninvoiced: z.number(),
  unapplied: z.number(),
  overdue: z.boolean(),
});
export type CreditAccountAnswer = z.infer<typeof creditAccountAnswerSchema>;

export const creditInvoiceAnswerSchema = z.object({
  id: z.number(),
  number: z.string(),
  issueDate: z.string(),
  dueDate: z.string(),
  total: z.number(),
  credited: z.number(),
  collected: z.number(),
  detraction: z.number(),
  detractionStatus: z.enum(['pendiente', 'depositada']).nullable(),
  constancia: z.string().nullable(),
  open: z.number(),
  bucket: z.enum(AGEING_BUCKETS),
});

export const creditCollectionAnswerSchema = z.object({
  id: z.number(),
  receivedOn: z.string(),
  method: z.enum(COLLECTION_METHODS),
  amount: z.number(),
  bank: z.string().nullable(),
  operationNumber: z.string().nullable(),
  note: z.string().nullable(),
  status: z.enum(['vigente', 'anulado']),
  voidReason: z.string().nullable(),
  applied: z.number(),
  unapplied: z.number(),
  allocations: z.array(z.object({ documentId: z.number(), amount: z.number() })),
  createdByName: z.string(),
});

export const creditAccountDetailAnswerSchema = creditAccountAnswerSchema.extend({
  invoices: z.array(creditInvoiceAnswerSchema),
  collections: z.array(creditCollectionAnswerSchema),
  shipments: z.array(z.object({ id: z.number(), code: z.string(), createdAt: z.string(), route: z.string(), amount: z.number() })),
});

const ageingAmounts = { porVencer: z.number(), d1a30: z.number(), d31a60: z.number(), d61a90: z.number(), mas90: z.number(), total: z.number() };

export const creditAgeingAnswerSchema = z.object({
  items: z.array(
    z.object({
      customerId: z.number(),
      customerName: z.string(),
      docNumber: z.string(),
      limit: z.number(),
      balance: z.number(),
      overLimit: z.boolean(),
      ...ageingAmounts,
    }),
  ),
  totals: z.object(ageingAmounts),
  /** The same totals per branch that issued the factura (else where its first shipment originated); null: none. */
  branches: z.array(z.object({ branchId: z.number().nullable(), branchName: z.string(), ...ageingAmounts })),
});

export const creditStatementAnswerSchema = z.object({
  customerId: z.number(),
  customerName: z.string(),
  docNumber: z.string(),
  from: z.string(),
  to: z.string(),
  opening: z.number(),
  debits: z.number(),
  credits: z.number(),
  closing: z.number(),
  rows: z.array(
    z.object({
      date: z.string(),
      kind: z.enum(STATEMENT_LINE_KINDS),
      reference: z.string(),
      debit: z.number(),
      credit: z.number(),
      document: z.number().nullable(),
      balance: z.number(),
    }),
  ),
  due: z.array(z.object({ reference: z.string(), dueDate: z.string(), open: z.number(), bucket: z.enum(AGEING_BUCKETS) })),
});
export type CreditStatementAnswer = z.infer<typeof creditStatementAnswerSchema>;

export const detractionDepositSchema = z.object({
  constancia: z
    .string({ error: 'Número de constancia requerido' })
    .trim()
    .regex(/^[0-9A-Za-z-]{4,30}$/, 'Número de constancia inválido: de 4 a 30 letras, dígitos o guiones.'),
  depositedOn: z.string({ error: 'Fecha inválida (AAAA-MM-DD).' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Fecha inválida (AAAA-MM-DD).'),
});

/** A calendar day that exists (2026-02-30 is refused here, not by the database's date cast). */
const statementDay = z.string({ error: INVALID_DAY_MESSAGE }).refine(isIsoDay, INVALID_DAY_MESSAGE);
export const statementQuerySchema = z.object({ from: statementDay, to: statementDay });
export type CreditAccountDetail = z.infer<typeof creditAccountDetailAnswerSchema>;
export type CreditInvoiceAnswer = z.infer<typeof creditInvoiceAnswerSchema>;
export type CreditCollectionAnswer = z.infer<typeof creditCollectionAnswerSchema>;
export type CreditAgeingAnswer = z.infer<typeof creditAgeingAnswerSchema>;

export const periodInvoicePreviewSchema = z.object({
  shipments: z.array(z.object({ id: z.number(), code: z.string(), route: z.string(), amount: z.number() })),
  items: z.array(z.object({ description: z.string(), unitValue: z.number() })),
  gravada: z.number(),
  igv: z.number(),
  total: z.number(),
  detraction: z.number().nullable(),
  needsDetractionAccount: z.boolean(),
  trip: z
    .object({
      originUbigeo: z.string(),
      originAddress: z.string(),
      destinationUbigeo: z.string(),
      destinationAddress: z.string(),
      detail: z.string(),
      serviceReference: z.string(),
      effectiveLoadReference: z.string(),
      nominalLoadReference: z.string(),
    })
    .nullable(),
  dueDate: z.string(),
  payable: z.number(),
});
export type PeriodInvoicePreview = z.infer<typeof periodInvoicePreviewSchema>;

/** What the counter may know of a customer's credit (issue 35): whether 'Crédito' is offered, and how much is left. */
export const creditStatusAnswerSchema = z.object({ active: z.boolean(), available: z.number().nullable(), overdue: z.boolean() });
export type CreditStatusAnswer = z.infer<typeof creditStatusAnswerSchema>;
