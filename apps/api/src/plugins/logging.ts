import type { FastifyRequest } from 'fastify';
import { pgError } from '../lib/errors.ts';

/**
 * The server log holds no secret and no personal data: database errors carry the parameters of
 * their query (password and secret-code hashes, names, documents), pg's `detail` repeats the
 * refused row, and a URL's query string holds what staff searched for.
 */

// Fields that hold a secret wherever they appear in a logged object (pino's redact paths).
const SECRET_FIELDS = ['password', 'newPassword', 'currentPassword', 'secretCode', 'token', 'tempPassword', 'passwordHash', 'secretCodeHash'];
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
];

type LoggedError = {
  type: string;
  message: string;
  stack: string;
  code?: string;
  statusCode?: number;
  sqlState?: string;
  constraint?: string;
  table?: string;
  column?: string;
};

/** The stack's frames without its first lines, which repeat the message (with a query's parameters). */
const framesOf = (stack = '') =>
  stack
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .join('\n');

/**
 * An error as the log may show it. A database error keeps its SQLSTATE, constraint, table,
 * column, PostgreSQL's message and where it was thrown, never the query's parameters nor pg's
 * `detail`; a data exception's message (class 22) quotes the refused value, so that is masked.
 */
export function loggableError(err: unknown): LoggedError {
  const error = err instanceof Error ? err : new Error(String(err));
  const database = pgError(error);
  if (database) {
    return {
      type: 'DatabaseError',
      sqlState: database.code,
      constraint: database.constraint,
      table: database.table,
      column: database.column,
      message: database.code.startsWith('22') ? database.message.replace(/"[^"]*"/g, '"…"') : database.message,
      stack: framesOf(error.stack),
    };
  }
  // drizzle's wrapper of a failure without SQLSTATE (a lost connection): its message lists the parameters.
  const query = (error as { query?: unknown }).query;
  if (typeof query === 'string' && 'params' in error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { type: error.name, message: `Failed query: ${query}${cause}`, stack: framesOf(error.stack) };
  }
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  return {
    type: error.name,
    message: error.message,
    stack: error.stack ?? '',
    code: typeof code === 'string' ? code : undefined,
    statusCode: typeof statusCode === 'number' ? statusCode : undefined,
  };
}

/** The request line without its query string. */
function loggableRequest(request: FastifyRequest) {
  return { method: request.method, url: request.url.split('?')[0], host: request.host, remoteAddress: request.ip };
}

/** Pino options for the server log; `stream` lets tests read it back. */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream) {
  return {
    level,
    stream,
    redact: { paths: REDACT_PATHS, censor: '[oculto]' },
    serializers: { err: loggableError, req: loggableRequest },
  };
}
