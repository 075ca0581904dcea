/**
 * The movements CSV (spec sections 7 and 9): `movimientos_filtrados.csv`, 16 columns, a UTF-8
 * byte-order mark, a `sep=` line, the separator by the locale (';' where the decimal mark is a
 * comma, else ','), line breaks of a cell flattened, quotes and separators escaped.
 */
import { limaDateTime } from '../dates.ts';
import { PAYMENT_STATUS_LABELS, type PaymentStatus } from './methods.ts';

export type CsvSeparator = ',' | ';';

/** The locale's decimal mark: ',' for es-ES, '.' for es-PE and en-US. */
export function decimalMarkOf(locale: string): string {
  try {
    return new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  } catch {
    return '.';
  }
}

/** ';' when the locale writes decimals with a comma (so amounts stay one cell), else ','. */
export const csvSeparatorFor = (locale: string): CsvSeparator => (decimalMarkOf(locale) === ',' ? ';' : ',');

export const CSV_BOM = '\uFEFF';
export const CSV_EOL = '\r\n';

/**
 * A text cell a spreadsheet would read as a formula (OWASP CSV injection): it starts with = + - @,
 * a tab or a carriage return, before or after its line breaks are flattened.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: line breaks become a space; a text that could start a formula gets a leading ' (so
 * `=cmd|' /C calc'!A0` stays text); quoted when it holds the separator, a quote, or edge spaces.
 * Numeric cells (numbers, and amounts already formatted, such as -12.00) are written as they are.
 */
export function csvCell(value: string | number | null | undefined, sep: CsvSeparator, numeric = typeof value === 'number'): string {
  if (value === null || value === undefined) return '';
  const raw = String(value);
  let text = raw.replace(/\r\n|\r|\n/g, ' ');
  if (!numeric && (FORMULA_START.test(raw) || FORMULA_START.test(text))) text = `'${text}`;
  const needsQuotes = text.includes(sep) || text.includes('"') || text !== text.trim();
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: readonly (string | number | null | undefined)[], sep: CsvSeparator): string =>
  cells.map((c) => csvCell(c, sep)).join(sep) + CSV_EOL;

/** What a report row carries into the CSV (a subset of the movement row answer). */
export interface MovementCsvSource {
  /** The instant (ISO, UTC); the CSV writes it as `dd/mm/yyyy hh:mm` in Lima. */
  date: string;
  branchName: string | null;
  collectedByName: string | null;
  collectedByUserId: number | null;
  methodName: string;
  amount: number;
  currency: string;
  status: PaymentStatus;
  payerName: string | null;
  customerName: string | null;
  reference: string | null;
  shipmentCode: string | null;
  platePrimary: string | null;
  drivers: string | null;
  shipmentDescription: string | null;
  providerTxId: string | null;
}

/** The 16 columns, in order: header and how each cell is read. */
export const MOVEMENT_CSV_COLUMNS: readonly {
  header: string;
  cell: (r: MovementCsvSource, decimalMark: string) => string | number | null;
  /** A number written as text (the amount with its decimal mark): never taken for a formula. */
  numeric?: true;
}[] = [
  // A spreadsheet reads the Lima wall clock, so an evening payment stays on its Lima day (issue #38).
  { header: 'Fecha', cell: (r) => limaDateTime(r.date) },
  { header: 'Sucursal', cell: (r) => r.branchName },
  { header: 'Cobrado por', cell: (r) => r.collectedByName },
  { header: 'ID usuario', cell: (r) => r.collectedByUserId },
  { header: 'Método', cell: (r) => r.methodName },
  { header: 'Monto', cell: (r, mark) => formatCsvAmount(r.amount, mark), numeric: true },
  { header: 'Moneda', cell: (r) => r.currency },
  { header: 'Estado', cell: (r) => PAYMENT_STATUS_LABELS[r.status] },
  { header: 'Pagador', cell: (r) => r.payerName },
  { header: 'Cliente', cell: (r) => r.customerName },
  { header: 'Referencia', cell: (r) => r.reference },
  { header: 'Envío', cell: (r) => r.shipmentCode },
  { header: 'Placa', cell: (r) => r.platePrimary },
  { header: 'Conductores', cell: (r) => r.drivers },
  { header: 'Descripción', cell: (r) => r.shipmentDescription },
  { header: 'ID operación', cell: (r) => r.providerTxId },
];

/** 12.5 → '12.50' (or '12,50' with a decimal comma): always 2 decimals, never a thousands mark. */
export const formatCsvAmount = (amount: number, decimalMark: string): string => amount.toFixed(2).replace('.', decimalMark === ',' ? ',' : '.');

export interface CsvDialect {
  sep: CsvSeparator;
  decimalMark: string;
}

export function csvDialectFor(locale: string): CsvDialect {
  const decimalMark = decimalMarkOf(locale);
  return { sep: decimalMark === ',' ? ';' : ',', decimalMark };
}

/** BOM, `sep=` line, header line. */
export const movementCsvPreamble = ({ sep }: CsvDialect): string =>
  CSV_BOM +
  `sep=${sep}` +
  CSV_EOL +
  csvLine(
    MOVEMENT_CSV_COLUMNS.map((c) => c.header),
    sep,
  );

export const movementCsvLine = (row: MovementCsvSource, dialect: CsvDialect): string =>
  MOVEMENT_CSV_COLUMNS.map((c) => csvCell(c.cell(row, dialect.decimalMark), dialect.sep, c.numeric)).join(dialect.sep) + CSV_EOL;

/**
 * Reads a CSV back into rows of cells (RFC 4180 quoting, CRLF or LF), for tests and imports. The BOM
 * and a leading `sep=` line are skipped.
 */
export function parseCsv(text: string): string[][] {
  let body = text.startsWith(CSV_BOM) ? text.slice(1) : text;
  let sep = ',';
  const sepLine = /^sep=(.)\r?\n/.exec(body);
  if (sepLine) {
    sep = sepLine[1]!;
    body = body.slice(sepLine[0].length);
  }
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"') {
        if (body[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && body[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
