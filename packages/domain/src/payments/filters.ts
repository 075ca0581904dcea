/** The movements report's filters (spec section 5 'Movements filters', section 7). */
import { z } from 'zod';
import { isIsoDay } from '../dates.ts';
import { recordIdFilter } from '../primitives.ts';
import { PAYMENT_MESSAGES } from './messages.ts';
import { PAYMENT_METHODS, PAYMENT_STATUSES } from './methods.ts';

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const day = z.preprocess(
  blankToUndefined,
  z
    .string()
    .refine((v) => isIsoDay(v), PAYMENT_MESSAGES.date)
    .optional(),
);

/** True when both days are given and 'from' comes after 'to' (the screen then runs no query). */
export const invalidRange = (from?: string | null, to?: string | null): boolean => Boolean(from && to && from > to);

/** The filter fields alone (a route extends them with paging, then checks the range with `checkRange`). */
export const movementFilterFields = z.object({
  dateFrom: day,
  dateTo: day,
  /** The branch that collected (the payment's). */
  branchId: recordIdFilter(),
  /** The branch that sold (the shipment's origin; issue 33). */
  soldBranchId: recordIdFilter(),
  userId: recordIdFilter(PAYMENT_MESSAGES.userId),
  method: z.preprocess(blankToUndefined, z.enum(PAYMENT_METHODS, { error: PAYMENT_MESSAGES.method }).optional()),
  status: z.preprocess(blankToUndefined, z.enum(PAYMENT_STATUSES).optional()),
});

/** 'Rango de fechas inválido' on dateTo when dateFrom comes after it. */
export const checkRange = <T extends z.ZodType<{ dateFrom?: string | undefined; dateTo?: string | undefined }>>(schema: T) =>
  schema.refine((v) => !invalidRange(v.dateFrom, v.dateTo), { path: ['dateTo'], message: PAYMENT_MESSAGES.dateRange });

export const movementFiltersSchema = checkRange(movementFilterFields);
export type MovementFilters = z.output<typeof movementFilterFields>;

/** `?date=` of the daily report and the sessions list: a Lima day, today when absent. */
export const dayQuerySchema = z.object({ date: day });
