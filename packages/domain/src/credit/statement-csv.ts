import { dayText } from '../dates.ts';
import { CSV_BOM, CSV_EOL, csvCell, formatCsvAmount, type CsvDialect } from '../payments/csv.ts';
import { AGEING_BUCKET_LABELS } from './ageing.ts';
import type { CreditStatementAnswer } from './answers.ts';
import { STATEMENT_LINE_LABELS } from './statement.ts';

/** The estado de cuenta's file name: estado-de-cuenta-<RUC>-<from>-<to>.csv (or .pdf). */
export const statementFileName = (s: Pick<CreditStatementAnswer, 'docNumber' | 'from' | 'to'>, ext: 'csv' | 'pdf') =>
  `estado-de-cuenta-${s.docNumber}-${s.from}-${s.to}.${ext}`;

/**
 * The estado de cuenta as a CSV that opens in Excel as the movements export does (BOM, `sep=`,
 * dd/mm/yyyy dates, amounts with 2 decimals in the locale's mark): a title block, the movements with
 * their running balance, the closing line and what is due.
 */
export function statementCsv(s: CreditStatementAnswer, { sep, decimalMark }: CsvDialect): string {
  const money = (n: number) => formatCsvAmount(n, decimalMark);
  const line = (cells: (string | number | null)[], numericFrom = Infinity) =>
    cells.map((c, i) => csvCell(c, sep, i >= numericFrom)).join(sep) + CSV_EOL;
  let out = CSV_BOM + `sep=${sep}` + CSV_EOL;
  out += line(['Estado de cuenta', s.customerName, `RUC ${s.docNumber}`, `Del ${dayText(s.from)} al ${dayText(s.to)}`]);
  out += line(['Fecha', 'Movimiento', 'Referencia', 'Cargo', 'Abono', 'Saldo']);
  out += line([dayText(s.from), 'Saldo inicial', null, null, null, money(s.opening)], 3);
  for (const r of s.rows) {
    const reference = r.document === null ? r.reference : `${r.reference} (total ${money(r.document)})`;
    out += line(
      [
        dayText(r.date),
        STATEMENT_LINE_LABELS[r.kind],
        reference,
        r.debit ? money(r.debit) : null,
        r.credit ? money(r.credit) : null,
        money(r.balance),
      ],
      3,
    );
  }
  out += line([dayText(s.to), 'Saldo final', null, money(s.debits), money(s.credits), money(s.closing)], 3);
  if (s.due.length > 0) {
    out += CSV_EOL + line(['Por pagar', 'Vence', 'Saldo', 'Antigüedad']);
    for (const d of s.due) out += line([d.reference, dayText(d.dueDate), money(d.open), AGEING_BUCKET_LABELS[d.bucket]]);
  }
  return out;
}
