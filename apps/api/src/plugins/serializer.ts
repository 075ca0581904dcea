import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Answers are written by a serializer compiled from each response schema (fast-json-stringify),
 * not by a zod `safeEncode` of the whole payload plus `JSON.stringify` on every answer: that pair
 * was one of the API's top costs over its SQL (issue 19). Undeclared keys still never reach the
 * wire (only declared properties are written) and a missing required field still throws (a 500).
 * Unlike zod it does not check types: a value of the wrong type is coerced, not refused. Reply
 * types (the zod type provider) and the strict response contract of the test builds catch that.
 *
 * A schema whose JSON is not simply its output (see `zodOnlyReason`) keeps zod's serializer.
 */

type Json = Record<string, unknown>;
type Serialize = (data: unknown) => string;

/**
 * Why zod's own serializer must write answers of `schema`, or null when the compiled one writes
 * the same JSON. Parts listed here pass; any other part falls back until someone checks it.
 */
export function zodOnlyReason(schema: z.ZodType): string | null {
  return findReason(schema, new Set());
}

/** Kinds whose JSON is the value itself once its children are. */
const PLAIN = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'enum',
  'literal',
  'unknown',
  'any',
  'object',
  'array',
  'record',
  'union',
  'optional',
  'nullable',
  'readonly',
]);

/** Why each other kind differs: what zod does on encode that a schema-driven writer cannot. */
const REASONS: Record<string, string> = {
  // The wire form of a pipe or codec is what encode gives back (its input side), while the
  // JSON Schema describes its output; a one-way transform cannot be encoded at all (a 500).
  pipe: 'pipe or codec: encoded through its reverse side',
  transform: 'transform: zod refuses to encode it',
  // Encode does not fill a default (an absent value fails), fast-json-stringify would write it;
  // catch swaps a failing value for its fallback.
  default: 'default: fast-json-stringify would fill it in',
  prefault: 'prefault: fast-json-stringify would fill it in',
  catch: 'catch: zod replaces a failing value',
  // Not JSON values: toJSONSchema can only say "anything" for them.
  date: 'date: not a JSON type',
  bigint: 'bigint: not a JSON type',
  // Recursion ($ref), tuples and intersections (allOf) have not been checked against zod.
  lazy: 'lazy: recursive schema',
  tuple: 'tuple: not checked',
  intersection: 'intersection: not checked',
};

function findReason(schema: z.ZodType, seen: Set<z.ZodType>): string | null {
  if (seen.has(schema)) return null;
  seen.add(schema);
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  // `.transform(f)` is a pipe into a transform.
  if (def.type === 'pipe' && (def.out as z.ZodType)._zod.def.type === 'transform') return REASONS.transform!;
  if (!PLAIN.has(def.type)) return REASONS[def.type] ?? `${def.type}: not checked`;
  // trim(), toLowerCase()… rewrite the value on encode too.
  if (def.checks?.some((check) => check._zod.def.check === 'overwrite')) return `${def.type} with trim/case change: zod rewrites it`;
  // A strict object refuses unknown keys (a 500 today) and a loose one passes them on; the
  // compiled writer would drop them both times.
  if (def.type === 'object' && def.catchall) return 'strict or loose object: unknown keys are not just dropped';
  // JSON.stringify writes an undefined item as null; fast-json-stringify has no such rule.
  const element = def.element as z.ZodType | undefined;
  if (element && (element._zod.optout === 'optional' || ['unknown', 'any'].includes(element._zod.def.type))) {
    return 'array of items that may be undefined: zod writes them as null';
  }
  if (def.type === 'record' && (def.keyType as z.ZodType)._zod.def.type !== 'string') return 'record keyed by an enum or literal: not checked';
  const children = [
    def.innerType,
    def.element,
    def.keyType,
    def.valueType,
    ...Object.values((def.shape as Record<string, unknown> | undefined) ?? {}),
    ...((def.options as unknown[] | undefined) ?? []),
  ];
  for (const child of children) {
    if (child instanceof z.ZodType) {
      const reason = findReason(child, seen);
      if (reason) return reason;
    }
  }
  return null;
}

/**
 * The response JSON Schema rewritten for fast-json-stringify, in place: it writes `nullable`
 * with one check where `anyOf`/type lists cost a validation per value, and its `required`
 * means "defined", which an "anything" property need not be.
 */
function normalize(schema: Json): Json {
  delete schema.$schema;
  // Undeclared keys are dropped without it too; with it, an object inside an anyOf would refuse
  // the payload's extra keys when fast-json-stringify picks the branch, where zod strips them.
  if (schema.additionalProperties === false) delete schema.additionalProperties;
  const options = schema.anyOf as Json[] | undefined;
  if (options) {
    const others = options.filter((o) => o.type !== 'null');
    if (others.length === 1 && options.length === 2 && others[0]!.$ref === undefined) {
      delete schema.anyOf;
      Object.assign(schema, others[0], { nullable: true });
    } else if (options.every((o) => o.const !== undefined && typeof o.type === 'string')) {
      // A union of literals: the type alone says how to write it.
      const types = [...new Set(options.map((o) => o.type))];
      delete schema.anyOf;
      Object.assign(schema, { type: types.length === 1 ? types[0] : types, enum: options.map((o) => o.const) });
    }
  }
  if (Array.isArray(schema.type) && schema.type.length === 2 && schema.type.includes('null')) {
    schema.type = schema.type.find((t) => t !== 'null');
    schema.nullable = true;
  }
  const properties = schema.properties as Record<string, Json> | undefined;
  if (properties && Array.isArray(schema.required)) {
    // zod takes undefined for unknown() and any(), and JSON.stringify leaves such a key out.
    schema.required = schema.required.filter((key: string) => !acceptsAnything(properties[key] ?? {}));
  }
  for (const key of ['properties', 'patternProperties', '$defs', 'definitions']) {
    for (const sub of Object.values((schema[key] as Record<string, Json> | undefined) ?? {})) normalize(sub);
  }
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else']) {
    const sub = schema[key];
    if (Array.isArray(sub)) sub.forEach((s: Json) => normalize(s));
    else if (sub && typeof sub === 'object') normalize(sub as Json);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    for (const sub of (schema[key] as Json[] | undefined) ?? []) normalize(sub);
  }
  return schema;
}

const acceptsAnything = (schema: Json) => !['type', 'anyOf', 'oneOf', 'allOf', 'const', 'enum', '$ref', 'not'].some((k) => k in schema);

/** One compiled writer per schema object: `answers()` shares the error schema across routes. */
const compiled = new WeakMap<z.ZodType, Serialize | null>();

function compiledFor(schema: z.ZodType): Serialize | null {
  let serialize = compiled.get(schema);
  if (serialize === undefined) {
    serialize = zodOnlyReason(schema)
      ? null
      : fastJsonStringify(normalize(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-07' }) as Json));
    compiled.set(schema, serialize);
  }
  return serialize;
}

export const serializerCompiler: FastifySerializerCompiler<unknown> = (route) =>
  (route.schema instanceof z.ZodType && compiledFor(route.schema)) || zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
