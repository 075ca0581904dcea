import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import type { App } from '../src/types.ts';

/**
 * The strict response check of test builds: every answer a route gives is validated against the
 * response schema the route declares for that status, with unknown keys refused (a key the schema
 * does not list — a hash, a secret — fails the test even though serialization would drop it).
 *
 * Exempt, explicitly: answers of requests no route schema covers — the 404 of unknown routes,
 * the router's 414/400 and Node's 431 (`frameworkErrors`, `clientErrorHandler`), static files —
 * and string/empty payloads (a 204, a route that sends its own JSON text).
 */
const ajv = new Ajv2020({ strict: false, allErrors: true });
const compiled = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: z.ZodType): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    // Output mode: objects come out with `additionalProperties: false`.
    const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
    validate = ajv.compile(json);
    compiled.set(schema, validate);
  }
  return validate;
}

/** The schema a route declares for `status`: exact code, then `4xx`-style range, then `default`. */
export function declaredResponse(responses: Record<string, unknown>, status: number): z.ZodType | undefined {
  const schema = responses[String(status)] ?? responses[`${String(status)[0]}xx`] ?? responses.default;
  return schema instanceof z.ZodType ? schema : undefined;
}

/** Adds the check to `app` (before its routes); mismatches are pushed to `violations`. */
export function installResponseContract(app: App, violations: string[]) {
  app.addHook('preSerialization', async (request, reply, payload) => {
    const responses = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
    if (!responses) return payload;
    const where = `${request.method} ${request.routeOptions.url ?? request.url} → ${reply.statusCode}`;
    const schema = declaredResponse(responses, reply.statusCode);
    if (!schema) {
      violations.push(`${where}: status not declared in the route's response schema`);
      return payload;
    }
    const validate = validatorFor(schema);
    const wire: unknown = JSON.parse(JSON.stringify(payload) ?? 'null');
    if (!validate(wire)) {
      const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('; ');
      violations.push(`${where}: answer does not match its schema: ${errors}`);
    }
    return payload;
  });
}
