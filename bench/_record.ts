// What the API sends the database for one request, recorded from the driver (node-postgres), and
// its replay: the read benchmark replays a GET's statements as they were; the writes benchmark's
// raw-SQL floor replays a write's statements, prepared and in as many round trips as the API's,
// with the values that came from an earlier statement's answer (a new row's id, the number a series
// gave) or from the request (the shipment paid) taken from this run's, so each replay is a new write.
import pg from 'pg';

export interface Recorded {
  /** The statement's name when the API sent it prepared (named). */
  name: string | null;
  text: string;
  values: unknown[];
  /** What the statement answered, cell by cell (filled when its answer arrives). */
  cells: unknown[];
  /** The connection it went on. */
  client?: object;
}

let recording: Recorded[] | null = null;
let installed = false;

const cellsOf = (rows: unknown[]): unknown[] => rows.flatMap((row) => (Array.isArray(row) ? row : Object.values(row as object)));

/** Patches pg.Client.prototype.query once, so that start()…stop() captures every statement of this process. */
function install() {
  if (installed) return;
  installed = true;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    // pg.Pool's own query (a statement outside a transaction) hands the client a callback and gets
    // no promise back: its answer's cells are taken in the callback, so a later statement's values
    // can be traced to them as to a promise's (an emission answered by the id its insert returned).
    let answered: ((rows: unknown[]) => void) | null = null;
    const last = args.at(-1);
    if (recording && typeof last === 'function') {
      args[args.length - 1] = (err: unknown, res: { rows?: unknown[] } | undefined) => {
        if (!err) answered?.(res?.rows ?? []);
        return (last as (e: unknown, r: unknown) => unknown)(err, res);
      };
    }
    const result = query.apply(this, args);
    if (recording) {
      const [config, params] = args as [string | { text: string; name?: string; values?: unknown[] }, unknown[] | undefined];
      const entry: Recorded =
        typeof config === 'string'
          ? { name: null, text: config, values: Array.isArray(params) ? params : [], cells: [] }
          : { name: config.name ?? null, text: config.text, values: config.values ?? (Array.isArray(params) ? params : []), cells: [] };
      entry.client = this;
      recording.push(entry);
      answered = (rows) => void (entry.cells = cellsOf(rows));
      if (result && typeof (result as Promise<unknown>).then === 'function')
        (result as Promise<{ rows?: unknown[] } | undefined>).then(
          (r) => void (entry.cells = cellsOf(r?.rows ?? [])),
          () => {},
        );
    }
    return result;
  } as typeof pg.Client.prototype.query;
}

/**
 * Records every statement sent while `work` runs. The app's background rounds (the Panel's counters
 * folded every second) may run meanwhile on connections of their own: a statement matching `ignore`
 * drops its whole transaction on its connection (from its `begin` to its `commit`) from the record.
 */
export async function record(
  work: () => Promise<unknown>,
  ignore: RegExp = /pg_try_advisory_xact_lock|shipment_daily_count_deltas/,
): Promise<Recorded[]> {
  install();
  recording = [];
  let done: Recorded[];
  try {
    await work();
    // The answers' cells arrive on the driver's promises, which settle before `work` can go on.
    done = recording;
  } finally {
    recording = null;
  }
  const dropped = new Set<Recorded>();
  for (const client of new Set(done.map((st) => st.client))) {
    let segment: Recorded[] = [];
    for (const st of done.filter((x) => x.client === client)) {
      segment.push(st);
      const closes = /^\s*(commit|rollback)\s*$/i.test(st.text) || (segment.length === 1 && !/^\s*begin\s*$/i.test(st.text));
      if (closes) {
        if (segment.some((x) => ignore.test(x.text))) segment.forEach((x) => dropped.add(x));
        segment = [];
      }
    }
    if (segment.some((x) => ignore.test(x.text))) segment.forEach((x) => dropped.add(x));
  }
  return done.filter((st) => !dropped.has(st));
}

/** Starts recording the statements of one request made elsewhere (the read benchmark's loop). */
export function startRecording() {
  install();
  recording = [];
}
export function stopRecording(): Recorded[] {
  const done = recording ?? [];
  recording = null;
  return done;
}

type Source = { input: string } | { statement: number; cell: number } | null;
/** A value worth tracing back: an id, a number, a code; not a flag, an empty text or a JSON document. */
const traceable = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v > 1) || (typeof v === 'string' && /^[A-Z0-9-]{2,40}$/i.test(v));

/**
 * A write's statements as a plan to replay: each value that equals a cell of an earlier statement's
 * answer (the latest one that had it) or else one of `inputs` (the request's own values, e.g. the
 * shipment paid) is taken from this replay's; every other value is sent as recorded. Equal values
 * of different meaning would be confused: record on a database whose ids have diverged (a seeded one). Text values that hold
 * an earlier answer's id inside a key ('PAGO-123-1') are rewritten with the new id alike.
 */
export function replayPlan(recorded: Recorded[], inputs: Record<string, unknown> = {}) {
  const inputKeys = Object.entries(inputs).map(([key, value]) => [key, String(value)] as const);
  const sources: Source[][] = recorded.map((st, k) =>
    st.values.map((v) => {
      if (!traceable(v)) return null;
      const text = String(v);
      // An earlier answer first (the latest that had it: the shipment row read by its id answers
      // the new id too), else the request's own value.
      for (let j = k - 1; j >= 0; j--) {
        const cell = recorded[j]!.cells.findIndex((c) => c !== null && c !== undefined && String(c) === text);
        if (cell >= 0) return { statement: j, cell };
      }
      const input = inputKeys.find(([, value]) => value === text);
      return input ? { input: input[0] } : null;
    }),
  );
  // Ids inside keys: a recorded integer cell found as a dash-delimited part of a later text value.
  const embedded: { statement: number; value: number; from: { statement: number; cell: number }; original: string }[] = [];
  recorded.forEach((st, k) =>
    st.values.forEach((v, i) => {
      if (typeof v !== 'string' || sources[k]![i] || v.length > 60) return;
      for (let j = k - 1; j >= 0; j--) {
        const cell = recorded[j]!.cells.findIndex((c) => typeof c === 'number' && c > 1 && v.split('-').includes(String(c)));
        if (cell >= 0) {
          embedded.push({ statement: k, value: i, from: { statement: j, cell }, original: String(recorded[j]!.cells[cell]) });
          return;
        }
      }
    }),
  );
  const traced = sources.flat().filter(Boolean).length + embedded.length;

  /** One replay on `client`, prepared: each statement under a name of its own, as many round trips as recorded. */
  async function run(client: pg.ClientBase, newInputs: Record<string, unknown> = {}) {
    const answers: unknown[][] = [];
    for (let k = 0; k < recorded.length; k++) {
      const st = recorded[k]!;
      const values = st.values.map((v, i) => {
        const source = sources[k]![i];
        if (!source) return v;
        if ('input' in source) return newInputs[source.input] ?? v;
        return answers[source.statement]?.[source.cell] ?? v;
      });
      for (const e of embedded.filter((x) => x.statement === k)) {
        const now = answers[e.from.statement]?.[e.from.cell];
        if (now !== undefined)
          values[e.value] = String(values[e.value])
            .split('-')
            .map((part) => (part === e.original ? String(now) : part))
            .join('-');
      }
      const res = await client.query({
        name: st.text === 'begin' || st.text === 'commit' ? undefined : `raw_${hash(st.text)}`,
        text: st.text,
        values,
      });
      answers.push(cellsOf(res.rows ?? []));
    }
  }
  return { run, statements: recorded.length, traced, recorded, sources };
}

/** A short stable name for a statement's text (prepared statements are per connection and per name). */
function hash(text: string) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36) + text.length.toString(36);
}
