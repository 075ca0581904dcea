import {
  BILLING_MESSAGES,
  COLLECTION_MESSAGES,
  CREDIT_NOTE_MESSAGES,
  PAYMENT_MESSAGES,
  SHIPMENT_MESSAGES,
  WHO_PAYS_MONEY_MESSAGES,
} from '@tramo/domain';
/** An error the client should see as is: `{ error, code, fields }` with its HTTP status. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    /** Sent as `Retry-After` (a 429 that says when to come back). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) => new AppError(400, 'VALIDATION', message, fields);
export const unauthorized = (message: string) => new AppError(401, 'UNAUTHORIZED', message);
export const forbidden = (message: string, code = 'FORBIDDEN') => new AppError(403, code, message);
export const notFound = (message: string) => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string, fields?: Record<string, string>, code = 'CONFLICT') => new AppError(409, code, message, fields);
export const unprocessable = (message: string, fields?: Record<string, string>, code = 'BUSINESS_RULE') => new AppError(422, code, message, fields);
export const tooManyRequests = (message: string, code = 'TOO_MANY_REQUESTS', retryAfterSeconds?: number) =>
  new AppError(429, code, message, undefined, retryAfterSeconds);

interface PgErrorLike {
  code?: string;
  message?: string;
  constraint?: string;
  constraint_name?: string;
  table?: string;
  table_name?: string;
  column?: string;
  column_name?: string;
}

export interface PgErrorFields {
  code: string;
  message: string;
  constraint: string | undefined;
  table: string | undefined;
  column: string | undefined;
}

/**
 * drizzle wraps driver errors (DrizzleQueryError with the driver error as `cause`); both drivers
 * expose the SQLSTATE as `code`. Returns the SQLSTATE, PostgreSQL's message and the constraint,
 * table and column it names, if any.
 */
export function pgError(err: unknown): PgErrorFields | null {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current; depth++) {
    const e = current as PgErrorLike & { cause?: unknown };
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return {
        code: e.code,
        message: e.message ?? '',
        constraint: e.constraint ?? e.constraint_name,
        table: e.table ?? e.table_name,
        column: e.column ?? e.column_name,
      };
    }
    current = e.cause;
  }
  return null;
}

export const isUniqueViolation = (err: unknown) => pgError(err)?.code === '23505';
/**
 * A row still referenced elsewhere. PostgreSQL 15 reports ON DELETE RESTRICT as 23503
 * (foreign_key_violation); PostgreSQL 18, which the embedded engine runs, as 23001 (restrict_violation).
 */
export const isForeignKeyViolation = (err: unknown) => ['23503', '23001'].includes(pgError(err)?.code ?? '');

/**
 * Rules the database's triggers hold beside the service that checks them first (a request that
 * raced past the service's check, another code path, an operator's SQL): each raises SQLSTATE
 * 'TR409' with a message that starts with the rule's name and a colon (migration 0037), answered
 * here as the service would. The Spanish words live in the domain, once.
 */
export const TRIGGER_SQLSTATE = 'TR409';
/** A refusal, or one built from what the trigger's message says after the rule's name. */
const TRIGGER_REFUSALS: Record<string, AppError | ((detail: string) => AppError)> = {
  'tramo.receipt_of_live_payment': conflict(BILLING_MESSAGES.receiptOfPayment, undefined, 'RECEIPT_OF_PAYMENT'),
  'tramo.payment_of_cancelled_shipment': conflict(PAYMENT_MESSAGES.shipmentCancelled),
  'tramo.cancel_of_charged_shipment': conflict(SHIPMENT_MESSAGES.paidNotCancellable),
  'tramo.reprice_of_charged_shipment': conflict(SHIPMENT_MESSAGES.paidNotRepriceable),
  'tramo.allocation_of_voided_collection': conflict(COLLECTION_MESSAGES.collectionVoided),
  'tramo.allocation_to_foreign_invoice': conflict(COLLECTION_MESSAGES.invoiceNotOpen),
  'tramo.allocation_over_collection': conflict(COLLECTION_MESSAGES.allocationsOverAmount),
  'tramo.allocation_over_invoice': conflict(COLLECTION_MESSAGES.invoiceChanged),
  'tramo.credit_note_over_invoice': conflict(CREDIT_NOTE_MESSAGES.invoiceChanged),
  // Migration 0115: '<the comprobante that bills the shipments> bills shipments …'.
  'tramo.credit_note_shipments_taken': (detail) =>
    conflict(CREDIT_NOTE_MESSAGES.voidShipmentsTaken(/^[A-Z0-9]{4}-\d{8}\b/.exec(detail)?.[0] ?? null), undefined, 'CREDIT_NOTE_SHIPMENTS_TAKEN'),
  'tramo.collection_rewrite': conflict(COLLECTION_MESSAGES.collectionRewrite),
  'tramo.void_of_delivered_destination_payment': conflict(WHO_PAYS_MONEY_MESSAGES.voidAfterDelivery, undefined, 'DESTINATION_PAID_DELIVERED'),
};

/** A trigger's refusal as the client's 409 (see TRIGGER_REFUSALS); null for any other error. */
export function triggerRefusal(err: unknown): AppError | null {
  const pg = pgError(err);
  if (pg?.code !== TRIGGER_SQLSTATE) return null;
  const colon = pg.message.indexOf(':');
  const refusal = TRIGGER_REFUSALS[colon < 0 ? pg.message : pg.message.slice(0, colon)];
  return typeof refusal === 'function' ? refusal(pg.message.slice(colon + 1).trim()) : (refusal ?? null);
}

/** The Spanish message of a trigger's refusal (see `triggerRefusal`); null for any other error. */
export function databaseConflict(err: unknown): string | null {
  return triggerRefusal(err)?.message ?? null;
}
