import * as drizzle from 'drizzle-orm';
import { Column, is, sql, SQL } from 'drizzle-orm';
import { PgDialect, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../db/client.ts';

type Selection = Record<string, PgColumn | SQL | SQL.Aliased>;
type Query = { sql: string; params: unknown[] };
type Field = { path: string[]; field: PgColumn | SQL | SQL.Aliased };
type MapRows = (rows: unknown[][]) => unknown[];
type Decoder = { mapFromDriverValue(value: unknown): unknown };

// An expression's decoder (its mapWith) is drizzle-internal: there at runtime, left out of its types.
const decoderOf = (field: Field['field']): Decoder =>
  is(field, Column) ? field : ((is(field, SQL) ? field : field.sql) as unknown as { decoder: Decoder }).decoder;

// Drizzle's own ordering of a selection for its result mapper: exported at runtime, left out of its types.
const { orderSelectedFields } = drizzle as unknown as { orderSelectedFields(fields: Selection): never };

/**
 * Drizzle's row mapping of a flat selection (each value through its column's or expression's
 * decoder, null kept), with each decoder found once per statement: drizzle's own mapper asks
 * `is()` of every field of every row, ~40 µs of a page of shipments (issue 19).
 */
function rowMapper(selection: Selection): { fields: never; mapRows: MapRows } {
  const fields = orderSelectedFields(selection);
  const ordered = fields as Field[];
  const keys = ordered.map((f) => f.path[0]!);
  const decoders = ordered.map(({ field }) => decoderOf(field));
  const mapRows: MapRows = (rows) =>
    rows.map((row) => {
      const mapped: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) mapped[keys[i]!] = row[i] === null ? null : decoders[i]!.mapFromDriverValue(row[i]);
      return mapped;
    });
  return { fields, mapRows };
}

interface Statement {
  name: string;
  query: Query;
  fields: never;
  mapRows: MapRows;
}
const statements = new Map<string, Statement>();

/** Runs a built statement, named and prepared, in the session it is given (the pool or a transaction). */
async function run<Row>(db: Db | Tx, statement: Statement, values: Record<string, unknown>): Promise<Row[]> {
  return (await db._.session.prepareQuery(statement.query, statement.fields, statement.name, true, statement.mapRows).execute(values)) as Row[];
}

/** Renders a fragment as both engines' drizzle does (no casing option: names as the schema spells them). */
const dialect = new PgDialect();

/**
 * Inserts one row and answers `returning` of it, through a statement built once per shape instead of
 * on every call. Drizzle re-walks every column of the table each time it builds a query, about
 * 0.3 ms for the shipment insert with its returned columns: a tenth of a creation's CPU on the
 * API's busiest write. Built once, the statement runs named and prepared, so PostgreSQL also parses
 * and plans it once per connection; it runs in whatever session it is given, a transaction or the pool.
 *
 * `name` names the statement and its shape: callers pass the same `returning` and `fixed` under one
 * name. The shape is also keyed by the columns given a value and those given null (undefined ones
 * are left to their default, as drizzle's own insert does). `fixed` holds SQL expressions the statement embeds (a
 * sequence's next value).
 */
export async function insertReturning<Row>(
  db: Db | Tx,
  name: string,
  table: PgTable,
  values: Record<string, unknown>,
  returning: Selection,
  fixed: Record<string, SQL> = {},
): Promise<Row> {
  const given = Object.keys(values)
    .filter((k) => values[k] !== undefined && values[k] !== null)
    .sort();
  // A null is written into the text, as drizzle does: through a column's encoder a JSON column
  // would store the JSON value null instead of SQL NULL.
  const nulls = Object.keys(values)
    .filter((k) => values[k] === null)
    .sort();
  const key = `${name}:${given.join(',')}:${nulls.join(',')}`;
  let statement = statements.get(key);
  if (!statement) {
    const placeholders = Object.fromEntries(given.map((k) => [k, sql.placeholder(k)]));
    const query = db
      .insert(table)
      .values({ ...placeholders, ...Object.fromEntries(nulls.map((k) => [k, sql`null`])), ...fixed } as never)
      .returning(returning)
      .toSQL();
    statement = { name: `${name}_${statements.size}`, query, ...rowMapper(returning) };
    statements.set(key, statement);
  }
  const [row] = await run<Row>(db, statement, values);
  return row!;
}

/**
 * A query whose text never changes (its values are `sql.placeholder`s), built by drizzle on first
 * use instead of on every call, and run named and prepared in the session it is given. For the
 * reads of the busiest paths; `selection` is the query's own select list, for drizzle's row mapping.
 */
export function preparedQuery<Row>(name: string, selection: Selection, build: (db: Db | Tx) => { toSQL(): Query }) {
  let statement: Statement | undefined;
  return async (db: Db | Tx, values: Record<string, unknown>): Promise<Row[]> => {
    statement ??= { name, query: build(db).toSQL(), ...rowMapper(selection) };
    return run<Row>(db, statement, values);
  };
}

/** As preparedQuery, for a statement written as SQL (`sql.placeholder`s for its values); `selection` maps its columns in order. */
export function preparedSql<Row>(name: string, selection: Selection, text: SQL) {
  return preparedQuery<Row>(name, selection, () => ({ toSQL: () => dialect.sqlToQuery(text) }));
}

/**
 * As preparedQuery, for a select whose selection exists only once it is built: one that reads a
 * `with` of its own (a data-modifying CTE's `returning`). The built select's own fields map its rows.
 */
export function preparedSelect<Row>(name: string, build: (db: Db | Tx) => { toSQL(): Query; _: { selectedFields: unknown } }) {
  let statement: Statement | undefined;
  return async (db: Db | Tx, values: Record<string, unknown>): Promise<Row[]> => {
    if (!statement) {
      const built = build(db);
      statement = { name, query: built.toSQL(), ...rowMapper(built._.selectedFields as Selection) };
    }
    return run<Row>(db, statement, values);
  };
}

/**
 * A select whose columns and joins never change while its conditions do (a list's filters, a page
 * and its cursor): drizzle renders the fixed head (`select … from … join …`) on first use, and each
 * call renders only `tail` (where, order, limit), run unnamed: the conditions' shapes are too many
 * to prepare. Walking some 30 columns and two joins was most of drizzle's build of a page of
 * shipments, ~0.2 ms a request (issue 19). The head holds no parameter, so the tail's number from
 * $1; rows are mapped as drizzle maps its own select of `selection`.
 */
export function selectWithFixedHead<Row>(selection: Selection, head: (db: Db | Tx) => { toSQL(): Query }) {
  let built: { text: SQL; fields: never; mapRows: MapRows } | undefined;
  return async (db: Db | Tx, tail: SQL): Promise<Row[]> => {
    if (!built) {
      const { sql: text, params } = head(db).toSQL();
      if (params.length > 0) throw new Error('selectWithFixedHead: the head must hold no parameter');
      built = { text: sql.raw(text), ...rowMapper(selection) };
    }
    const query = dialect.sqlToQuery(sql`${built.text} ${tail}`);
    return (await db._.session.prepareQuery(query, built.fields, undefined, true, built.mapRows).execute()) as Row[];
  };
}
