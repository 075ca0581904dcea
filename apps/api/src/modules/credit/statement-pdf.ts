import PDFDocument from 'pdfkit';
import { AGEING_BUCKET_LABELS, dayText, STATEMENT_LINE_LABELS, type Company, type CreditStatementAnswer } from '@tramo/domain';
import { collect } from '../../lib/pdf.ts';
import { printable } from '../../providers/billing/pdf.ts';

/*
 * The estado de cuenta as an A4 page (or several): the company and the customer, the period's
 * opening balance, each movement with its running balance, the closing balance and what is due.
 * What the customer's accountant files, so it prints the same numbers the screen shows.
 */

const INK = '#1a1a1a';
const MUTED = '#555555';
const RULE = '#9a9a9a';
const SHADE = '#ececec';
const MARGIN = 40;
const money = (n: number) => `S/ ${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Columns of the movements table: x offset and width within the printable width. */
const COLUMNS = [
  { key: 'date', title: 'Fecha', width: 62, align: 'left' },
  { key: 'kind', title: 'Movimiento', width: 110, align: 'left' },
  { key: 'reference', title: 'Referencia', width: 150, align: 'left' },
  { key: 'debit', title: 'Cargo', width: 66, align: 'right' },
  { key: 'credit', title: 'Abono', width: 66, align: 'right' },
  { key: 'balance', title: 'Saldo', width: 61, align: 'right' },
] as const;

type Cells = Record<(typeof COLUMNS)[number]['key'], string>;

export async function statementPdf(s: CreditStatementAnswer, company: Company | null): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: `Estado de cuenta ${s.docNumber}` } });
  const width = doc.page.width - 2 * MARGIN;
  const bottom = doc.page.height - MARGIN;

  doc
    .font('Helvetica-Bold')
    .fontSize(13)
    .fillColor(INK)
    .text(printable(company?.name ?? 'Tramo'), MARGIN, MARGIN);
  if (company)
    doc
      .font('Helvetica')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(printable(`RUC ${company.ruc} · ${company.address}`));
  doc.moveDown(0.8);
  doc.font('Helvetica-Bold').fontSize(15).fillColor(INK).text('ESTADO DE CUENTA');
  doc.font('Helvetica').fontSize(9.5).fillColor(INK);
  doc.text(printable(`Cliente: ${s.customerName}`));
  doc.text(`RUC: ${s.docNumber}`);
  doc.text(`Periodo: del ${dayText(s.from)} al ${dayText(s.to)}`);
  doc.moveDown(0.6);

  // The four totals in a shaded band.
  const bandY = doc.y;
  doc.rect(MARGIN, bandY, width, 34).fill(SHADE);
  const totals: [string, number][] = [
    ['Saldo inicial', s.opening],
    ['Cargos', s.debits],
    ['Abonos', s.credits],
    ['Saldo final', s.closing],
  ];
  totals.forEach(([label, value], i) => {
    const x = MARGIN + 8 + (i * width) / 4;
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(label.toUpperCase(), x, bandY + 6);
    doc
      .font('Helvetica-Bold')
      .fontSize(10.5)
      .fillColor(INK)
      .text(money(value), x, bandY + 17);
  });
  doc.y = bandY + 46;

  const row = (cells: Cells, bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8.5);
    const heights = COLUMNS.map((c) => doc.heightOfString(printable(cells[c.key]), { width: c.width - 6 }));
    const h = Math.max(...heights) + 6;
    if (doc.y + h > bottom) {
      doc.addPage();
      doc.y = MARGIN;
    }
    const y = doc.y;
    let x = MARGIN;
    for (const c of COLUMNS) {
      doc.fillColor(INK).text(printable(cells[c.key]), x + 3, y + 3, { width: c.width - 6, align: c.align });
      x += c.width;
    }
    doc
      .moveTo(MARGIN, y + h)
      .lineTo(MARGIN + width, y + h)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    doc.y = y + h;
  };
  const blank = (n: number) => (n ? money(n) : '');
  row({ date: 'Fecha', kind: 'Movimiento', reference: 'Referencia', debit: 'Cargo', credit: 'Abono', balance: 'Saldo' }, true);
  row({ date: dayText(s.from), kind: 'Saldo inicial', reference: '', debit: '', credit: '', balance: money(s.opening) });
  for (const r of s.rows) {
    row({
      date: dayText(r.date),
      kind: STATEMENT_LINE_LABELS[r.kind],
      reference: r.document === null ? r.reference : `${r.reference} (total ${money(r.document)})`,
      debit: blank(r.debit),
      credit: blank(r.credit),
      balance: money(r.balance),
    });
  }
  row({ date: dayText(s.to), kind: 'Saldo final', reference: '', debit: money(s.debits), credit: money(s.credits), balance: money(s.closing) }, true);

  if (s.due.length > 0) {
    doc.moveDown(1);
    if (doc.y + 40 > bottom) doc.addPage();
    doc.font('Helvetica-Bold').fontSize(10).fillColor(INK).text('Por pagar', MARGIN, doc.y);
    doc.moveDown(0.3);
    for (const d of s.due) {
      doc
        .font('Helvetica')
        .fontSize(9)
        .text(printable(`${d.reference} · vence el ${dayText(d.dueDate)} · ${money(d.open)} · ${AGEING_BUCKET_LABELS[d.bucket]}`), MARGIN, doc.y);
    }
  }
  doc.moveDown(1.2);
  doc
    .font('Helvetica')
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(
      'Los cargos son los envíos a crédito y las facturas; los abonos, los cobros, las notas de crédito y las detracciones depositadas.',
      MARGIN,
      doc.y,
      {
        width,
      },
    );
  return collect(doc);
}
