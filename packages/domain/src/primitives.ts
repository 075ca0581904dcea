import { z } from 'zod';
import { LOGIN_FIELD_MESSAGES, USERNAME_MAX, USERNAME_MIN, USERNAME_PATTERN } from './login-rules.ts';

/**
 * The request primitives every schema is built from, written once: a strict record id, text that
 * refuses control characters, the optional-text rule (blank → null) and the username rule.
 */

export const PRIMITIVE_MESSAGES = {
  invalidId: 'Identificador inválido',
  controlChars: 'Contiene caracteres no permitidos',
} as const;

/** Ids are 32-bit serials: anything larger is not a record of ours (and would overflow the column). */
export const MAX_RECORD_ID = 2_147_483_647;

const DECIMAL_DIGITS = /^[0-9]+$/;

/**
 * A record id from a path, a query or a body: a JSON integer, or a string of decimal digits only.
 * `0x14`, `2e1`, `+20`, `' 20 '`, `true`, `[[1]]`, `1.5` are not ids (null).
 */
export function parseRecordId(value: unknown): number | null {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.length <= 12 && DECIMAL_DIGITS.test(value)) n = Number(value);
  else return null;
  return Number.isInteger(n) && n >= 1 && n <= MAX_RECORD_ID ? n : null;
}

/** A required record id; every refusal reads `message`. */
export const recordId = (message: string = PRIMITIVE_MESSAGES.invalidId) =>
  z.union([z.number({ error: message }), z.string({ error: message })], { error: message }).transform((raw, ctx) => {
    const id = parseRecordId(raw);
    if (id === null) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return id;
  });

/**
 * A page number or page size of a query, as strict as a record id: a JSON integer or decimal digits
 * only, from 1 (`0x2`, `1e1`, `+2`, `' 2 '`, `2.0` are refused with `message`); over `max.value`
 * it reads `max.message`.
 */
export const pageNumber = (message: string, max?: { value: number; message: string }) =>
  z.union([z.number({ error: message }), z.string({ error: message })], { error: message }).transform((raw, ctx) => {
    const n = parseRecordId(raw);
    if (n === null) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    if (max && n > max.value) {
      ctx.addIssue({ code: 'custom', message: max.message });
      return z.NEVER;
    }
    return n;
  });

export const PAGING_MESSAGES = {
  invalidPage: 'Página inválida',
  invalidPageSize: 'Tamaño de página inválido',
  invalidCursor: 'Posición de página inválida',
  pageTooDeep: 'Página fuera del rango numerado: continúa con "Siguiente".',
} as const;

/** Optional paging of a list; both absent means "everything". */
export const pagingQuery = z.object({
  page: pageNumber(PAGING_MESSAGES.invalidPage).optional(),
  pageSize: pageNumber(PAGING_MESSAGES.invalidPageSize, { value: 1000, message: 'Máximo 1000 por página' }).optional(),
});

/**
 * Numbered pages reach this many rows into a large list; past them the list goes on with
 * 'Siguiente' and 'Anterior' (keyset cursors), so no page costs much more than the first however
 * deep (issue 19). Shipments, movements, payments and the documents register share it.
 */
export const NUMBERED_PAGE_ROWS = 1000;

/** The last page a list of `pageSize` rows may ask for by number. */
export const lastNumberedPage = (pageSize: number) => Math.ceil(NUMBERED_PAGE_ROWS / pageSize);

/**
 * A keyset cursor of a large list: the row's sort value as a whole number (an instant in
 * microseconds since 1970, or a day as days since 1970) and its id, `1732345678123456.42`. Lists
 * answer `next`/`prev` cursors; nobody types them.
 */
export const KEYSET_CURSOR = /^[0-9]{1,17}\.[0-9]{1,10}$/;
/** The largest serial id (PostgreSQL integer). */
export const MAX_ROW_ID = 2_147_483_647;
const keysetCursor = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z
    .string({ error: PAGING_MESSAGES.invalidCursor })
    .regex(KEYSET_CURSOR, PAGING_MESSAGES.invalidCursor)
    // Ids are PostgreSQL integers: a bigger one is no row of ours, not a database error.
    .refine((v) => Number(v.split('.')[1]) <= MAX_ROW_ID, PAGING_MESSAGES.invalidCursor)
    .optional(),
);

/** The cursor fields of a large list's query. */
export const keysetCursorFields = {
  /** The page after (further down the list than) the row of this cursor; `page` then only numbers it for display. */
  after: keysetCursor,
  /** The page before (further up the list than) the row of this cursor. */
  before: keysetCursor,
};

/** The refinements every large list's query carries: one cursor at most; by number only as far as numbers reach. */
export const keysetChecks = {
  oneCursor: {
    check: (v: { after?: string | undefined; before?: string | undefined }) => !(v.after && v.before),
    params: { message: PAGING_MESSAGES.invalidCursor, path: ['before'] },
  },
  /** `defaultPageSize`: the size of a query that names none. */
  numbered: (defaultPageSize: number) => ({
    check: (v: { page?: number | undefined; pageSize?: number | undefined; after?: string | undefined; before?: string | undefined }) =>
      v.after !== undefined || v.before !== undefined || (v.page ?? 1) <= lastNumberedPage(v.pageSize ?? defaultPageSize),
    params: { message: PAGING_MESSAGES.pageTooDeep, path: ['page'] },
  }),
};

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** An optional record id: absent, null or blank → null; anything else must be a record id. */
export const optionalRecordId = (message: string = PRIMITIVE_MESSAGES.invalidId) =>
  z.preprocess((v) => (blank(v) ? null : v), recordId(message).nullable());

/** An optional filter id in a query: absent or blank → undefined. */
export const recordIdFilter = (message: string = PRIMITIVE_MESSAGES.invalidId) =>
  z.preprocess((v) => (blank(v) ? undefined : v), recordId(message).optional());

const PLAIN_DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * A number of a body or a query: a finite JSON number, or a plain decimal string ('12', '1.50')
 * as forms and query strings send. `true`, `'0x1'`, `'1e3'`, `' 2 '`, `[[1]]` are refused.
 */
export const decimalNumber = (message: string) =>
  z
    .union([z.number({ error: message }), z.string({ error: message })], { error: message })
    .transform((raw, ctx) => {
      const n = typeof raw === 'number' ? raw : PLAIN_DECIMAL.test(raw) ? Number(raw) : NaN;
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    })
    .pipe(z.number());

/** `{ id }` of a record's path. */
export const idParams = z.object({ id: recordId() });

/**
 * A shipment in a path: its id (decimal digits) or its code (`TMT-000123`). Numbers in other
 * notations (`0x14`, `2e1`, `+20`, `' 20 '`) are refused; other words are looked up (and not found).
 */
export const shipmentRef = z
  .string({ error: PRIMITIVE_MESSAGES.invalidId })
  .max(20, PRIMITIVE_MESSAGES.invalidId)
  .regex(/^([0-9]+|[A-Za-z][A-Za-z0-9-]*)$/, PRIMITIVE_MESSAGES.invalidId);

// C0 controls, DEL and C1 controls. Multi-line text keeps \t \n \r.
// Matching control characters is the point of these two patterns.
// eslint-disable-next-line no-control-regex
const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** True when the text holds no control character (multi-line text may hold \t \n \r). */
export function isCleanText(value: string, options: { multiline?: boolean } = {}): boolean {
  return !(options.multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(value);
}

/** A string refusing NUL and other control characters, for building text fields on. */
export const text = (options: { multiline?: boolean; error?: string } = {}) =>
  z
    .string(options.error === undefined ? undefined : { error: options.error })
    .refine((v) => isCleanText(v, options), PRIMITIVE_MESSAGES.controlChars);

/** Trimmed, required, at most `max` characters, clean. */
export const requiredText = (message: string, max = 80, options: { multiline?: boolean } = {}) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `Máximo ${max} caracteres`)
    .refine((v) => isCleanText(v, options), PRIMITIVE_MESSAGES.controlChars);

/** Blank → null, so an emptied optional field clears the stored value (spec: blank becomes null). */
export const optionalText = (max: number, options: { multiline?: boolean } = {}) =>
  z
    .string()
    .trim()
    .max(max, `Máximo ${max} caracteres`)
    .refine((v) => isCleanText(v, options), PRIMITIVE_MESSAGES.controlChars)
    .nullish()
    .transform((v) => (v ? v : null));

/** A search term of a query: trimmed, blank → undefined, clean. */
export const searchTerm = (max = 100) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v === null || v === '' ? undefined : v),
    z
      .string()
      .max(max, `Máximo ${max} caracteres`)
      .refine((v) => isCleanText(v), PRIMITIVE_MESSAGES.controlChars)
      .optional(),
  );

export { USERNAME_PATTERN } from './login-rules.ts';

/** Usernames are stored as an uppercase code without spaces: ' agente 1' → 'AGENTE1'. */
export function normalizeUsername(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

/** The username rule: 3–32 of letters, digits, `.` `_` `-` (after normalizing). */
export const usernameRule = (schema: z.ZodString) =>
  schema
    .min(USERNAME_MIN, LOGIN_FIELD_MESSAGES.usernameMin)
    .max(USERNAME_MAX, LOGIN_FIELD_MESSAGES.usernameMax)
    .regex(USERNAME_PATTERN, LOGIN_FIELD_MESSAGES.usernamePattern);
