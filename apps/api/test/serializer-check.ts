import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { serializerCompiler } from '../src/plugins/serializer.ts';
import type { App } from '../src/types.ts';

/** The same JSON whatever the order of keys (the compiled writer puts required keys first). */
function canonical(json: string): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
          )
        : value;
  return JSON.stringify(sorted(JSON.parse(json)));
}

/**
 * Test builds write every answer with the production (compiled) serializer and also with zod's
 * `safeEncode` + `JSON.stringify` it replaced; a different JSON, or one failing where the other
 * does not, is a violation. So every API suite checks that answers leave exactly as before.
 * A payload zod refuses for its types is left to the response contract, which reports it.
 */
export function installSerializerCrossCheck(app: App, violations: string[]) {
  app.setSerializerCompiler((route) => {
    const serialize = serializerCompiler(route);
    const reference = zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
    const where = `${route.method} ${route.url} → ${route.httpStatus ?? ''}`;
    return (data) => {
      let expected: string | Error;
      try {
        expected = reference(data);
      } catch (err) {
        expected = err as Error;
      }
      let json: string;
      try {
        json = serialize(data);
      } catch (err) {
        if (!(expected instanceof Error)) violations.push(`${where}: the compiled serializer threw (${String(err)}) where zod wrote ${expected}`);
        throw err;
      }
      if (typeof expected === 'string' && canonical(json) !== canonical(expected)) {
        violations.push(`${where}: the compiled serializer wrote ${json}, zod ${expected}`);
      }
      return json;
    };
  });
}
