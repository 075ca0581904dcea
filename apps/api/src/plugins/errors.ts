import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, pgError, triggerRefusal } from '../lib/errors.ts';

/** `/username` or `/lines/0/weightKg` → `username`, `lines.0.weightKg`. */
function fieldName(instancePath: string): string {
  return instancePath.replace(/^\//, '').replaceAll('/', '.');
}

/** Every error leaves as `{ error, code, fields? }` in Spanish; a 5xx only for our own faults. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // A rule the database enforces (a trigger) refused the change: the client's 409, as the service would say it.
    const known = err instanceof AppError ? err : triggerRefusal(err);
    if (known) {
      if (known.retryAfterSeconds !== undefined) reply.header('Retry-After', String(known.retryAfterSeconds));
      return reply.status(known.statusCode).send({ error: known.message, code: known.code, fields: known.fields });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const key = fieldName(issue.instancePath) || '_';
        fields[key] ??= issue.message ?? 'Valor inválido';
      }
      // The message alone: it is shown to staff as is, and `fields` already says where it belongs.
      return reply.status(400).send({ error: err.validation[0]?.message ?? 'Datos inválidos', code: 'VALIDATION', fields });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(400).send({ error: 'El cuerpo de la solicitud no es JSON válido.', code: 'BAD_JSON' });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ error: 'Tipo de contenido no soportado.', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ error: 'La solicitud es demasiado grande.', code: 'BODY_TOO_LARGE' });
    }
    // SQLSTATE class 22 (data exception: a number past its column, a malformed value) only comes
    // from input that slipped past validation; it is the client's mistake, never a crash of ours.
    if (pgError(err)?.code.startsWith('22')) {
      request.log.warn({ err }, 'data exception from input');
      return reply.status(400).send({ error: 'Valor fuera de rango o inválido.', code: 'INVALID_VALUE' });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ error: 'Solicitud inválida.', code: err.code ?? 'BAD_REQUEST' });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: 'Error del servidor', code: 'INTERNAL' });
  });
}

/**
 * Errors the router raises before any route runs (`frameworkErrors`): a path parameter past
 * `maxParamLength`, a URL that does not decode. Spanish, and the URL is not echoed back.
 */
export function answerRouterError(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(414).send({ error: 'La dirección de la solicitud es demasiado larga.', code: 'URI_TOO_LONG' });
  }
  return reply.status(400).send({ error: 'La dirección de la solicitud no es válida.', code: 'BAD_URL' });
}

const CLIENT_ERRORS: Record<string, readonly [status: number, reason: string, body: { error: string; code: string }]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    { error: 'La solicitud es demasiado grande (dirección o encabezados).', code: 'HEADERS_TOO_LARGE' },
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', { error: 'La solicitud tardó demasiado.', code: 'REQUEST_TIMEOUT' }],
};
const BAD_HTTP = [400, 'Bad Request', { error: 'La solicitud HTTP no es válida.', code: 'BAD_HTTP_REQUEST' }] as const;

/**
 * What Node's HTTP parser refuses before Fastify sees a request (`clientErrorHandler`): a request
 * line or headers over 16 KB (431), a timeout, bytes that are not HTTP. Written on the socket.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body] = CLIENT_ERRORS[err.code ?? ''] ?? BAD_HTTP;
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(err);
}
