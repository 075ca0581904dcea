import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import {
  amountInWords,
  BILLING_DOC_TYPE_SHORT,
  CREDIT_NOTE_REASON_LABELS,
  dayText,
  DETRACTION_PAYMENT_MEANS_LABELS,
  formatDocumentNumber,
  freightTripText,
  GUIDE_REFERENCE_LABELS,
  PAYMENT_FORM_LABELS,
  SUNAT_DOCUMENT_TITLES,
  type DocumentStatus,
} from '@tramo/domain';
import type { BillingDocument, BillingIssuer } from './types.ts';
import { collect } from '../../lib/pdf.ts';

/*
 * The printed representation of a comprobante (representación impresa), rendered from the stored
 * document whatever provider issued it: A4 for the office and a single 80 mm page for the counter's
 * thermal printer, its height fitted to the content. Helvetica (a PDF standard font, nothing to
 * ship) covers every Spanish letter; the few characters outside its encoding are replaced.
 */

export type PdfFormat = 'a4' | 'ticket';

export interface PrintableDocument {
  document: BillingDocument;
  issuer: BillingIssuer;
  hash: string | null;
  qrText: string | null;
  status?: DocumentStatus;
  /** Issued by the sandbox: printed as a demonstration without tax value. */
  demo?: boolean;
}

/** The SUNAT QR as a PNG (what the PDF embeds). */
export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 360 });
}

/* Characters Helvetica's WinAnsi encoding lacks, and what prints instead. */
const REPLACEMENTS: Record<string, string> = { '→': '–', '←': '–', '≥': '>=', '≤': '<=', '✓': 'x' };
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text as Helvetica can print it. */
export function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch) || ch === '\n') out += ch;
    else if (REPLACEMENTS[ch]) out += REPLACEMENTS[ch];
    else out += ch.normalize('NFKD').replace(/[^\x20-\x7e]/g, '') || '?';
  }
  return out;
}

const money = (cents: number) => (cents / 100).toLocaleString('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const soles = (cents: number) => `S/ ${money(cents)}`;
/** A unit value as invoices print it: at least 2 decimals, all the ones it has (up to 10). */
const unitValue = (value: string) => {
  const [int, frac = ''] = value.split('.');
  return `${int}.${frac.padEnd(2, '0')}`;
};
/** The line's text: its code first unless the description already names it. */
const lineText = (l: { code: string | null; description: string }) =>
  l.code && !l.description.includes(l.code) ? `${l.code} ${l.description}` : l.description;

type Doc = PDFKit.PDFDocument;

const INK = '#1a1a1a';
const MUTED = '#555555';

/** One label (bold, muted) beside its value, as every PDF prints its data blocks; answers the y below both. */
export function drawPair(doc: Doc, label: string, value: string, x: number, y: number, labelW: number, valueW: number): number {
  doc
    .font('Helvetica-Bold')
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(printable(label), x, y, { width: labelW - 6 });
  const labelBottom = doc.y;
  doc
    .font('Helvetica')
    .fontSize(8.5)
    .fillColor(INK)
    .text(printable(value), x + labelW, y, { width: valueW });
  return Math.max(doc.y, labelBottom) + 2;
}
const RULE = '#9a9a9a';
const SHADE = '#ececec';

interface Content {
  title: string;
  id: string;
  p: PrintableDocument;
  qr: Buffer | null;
}

function customerLines(d: BillingDocument): [string, string][] {
  const c = d.customer;
  const rows: [string, string][] = [
    [d.type === '01' || c.docType === 6 ? 'Señor(es)' : 'Cliente', c.name],
    [BILLING_DOC_TYPE_SHORT[c.docType], c.docNumber],
  ];
  if (c.address) rows.push(['Dirección', c.address]);
  return rows;
}

function documentLines(d: BillingDocument): [string, string][] {
  const rows: [string, string][] = [
    ['Fecha de emisión', `${dayText(d.issueDate)} ${d.issueTime}`],
    ['Moneda', 'SOLES'],
    ['Forma de pago', PAYMENT_FORM_LABELS[d.payment.form]],
  ];
  if (d.payment.dueDate) rows.splice(1, 0, ['Fecha de vencimiento', dayText(d.payment.dueDate)]);
  if (d.contingency) rows.push(['Emisión', 'En contingencia']);
  const note = d.creditNote;
  if (note) {
    rows.push([
      'Documento que modifica',
      `${SUNAT_DOCUMENT_TITLES[note.modifiedType]} ${formatDocumentNumber(note.modifiedSeries, Math.max(1, note.modifiedNumber))}`,
    ]);
    rows.push(['Motivo', `${note.reason} ${CREDIT_NOTE_REASON_LABELS[note.reason]}`]);
  }
  for (const g of d.guides) rows.push([GUIDE_REFERENCE_LABELS[g.type], formatDocumentNumber(g.series, g.number)]);
  return rows;
}

function totalRows(d: BillingDocument): [string, string][] {
  const t = d.totals;
  const rows: [string, string][] = [];
  rows.push(['Op. gravada', soles(t.gravadaCents)], ['Op. exonerada', soles(t.exoneradaCents)], ['Op. inafecta', soles(t.inafectaCents)]);
  if (t.discountCents > 0) rows.push(['Descuentos', soles(t.discountCents)]);
  rows.push(['IGV 18 %', soles(t.igvCents)], ['Importe total', soles(t.totalCents)]);
  return rows;
}

function detractionText(d: BillingDocument): string | null {
  const x = d.detraction;
  if (!x) return null;
  return (
    'Operación sujeta al Sistema de Pago de Obligaciones Tributarias con el Gobierno Central (SPOT). ' +
    `Bien o servicio: ${x.serviceCode} Servicio de transporte de carga. Porcentaje: ${x.percent} %. ` +
    `Monto de la detracción: ${soles(x.amountCents)}. Cuenta del Banco de la Nación N.° ${x.bankAccount}. ` +
    `Medio de pago: ${String(x.paymentMeans).padStart(3, '0')} ${DETRACTION_PAYMENT_MEANS_LABELS[x.paymentMeans]}.` +
    (x.trip ? ` ${freightTripText(x.trip)}` : '')
  );
}

function instalmentRows(d: BillingDocument): [string, string, string][] {
  return d.payment.instalments.map((c, i) => [`Cuota ${String(i + 1).padStart(3, '0')}`, dayText(c.fecha_de_pago), soles(c.importeCents)]);
}

function representation(title: string): string {
  return `Representación impresa de la ${title.replace(/ ELECTRÓNICA$/, '').toLowerCase()} electrónica`.replace(/^./, (c) => c.toUpperCase());
}

/** A big diagonal stamp over a voided document. */
function stampVoided(doc: Doc, width: number, height: number) {
  doc.save();
  doc.rotate(-30, { origin: [width / 2, height / 2] });
  doc
    .font('Helvetica-Bold')
    .fontSize(width / 6)
    .fillColor('#c62828')
    .fillOpacity(0.25)
    .text('ANULADO', 0, height / 2 - width / 12, { width, align: 'center' });
  doc.restore();
  doc.fillOpacity(1);
}

function drawA4(doc: Doc, { title, id, p, qr }: Content) {
  const d = p.document;
  const issuer = p.issuer;
  const left = 40;
  const right = doc.page.width - 40;
  const width = right - left;
  doc.fillColor(INK);

  // Issuer on the left, the SUNAT box (RUC, title, series-number) on the right.
  const boxW = 190;
  const boxX = right - boxW;
  const infoW = boxX - left - 16;
  let y = 40;
  doc
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(printable(issuer.tradeName || issuer.name), left, y, { width: infoW });
  y = doc.y + 2;
  doc.font('Helvetica').fontSize(9).fillColor(MUTED);
  if (issuer.tradeName) {
    doc.text(printable(issuer.name), left, y, { width: infoW });
    y = doc.y;
  }
  doc.text(printable(`${issuer.address} – ${issuer.district}, ${issuer.province}, ${issuer.department}`), left, y, { width: infoW });
  const contact = [issuer.phone && `Tel. ${issuer.phone}`, issuer.email].filter(Boolean).join('  ·  ');
  if (contact) doc.text(printable(contact), left, doc.y, { width: infoW });
  const infoBottom = doc.y;

  const boxY = 36;
  const boxH = 78;
  doc.lineWidth(1.2).strokeColor(INK).roundedRect(boxX, boxY, boxW, boxH, 4).stroke();
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(11);
  doc.text(`R.U.C. ${issuer.ruc}`, boxX, boxY + 10, { width: boxW, align: 'center' });
  doc.rect(boxX, boxY + 28, boxW, 22).fill(SHADE);
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(title.length > 22 ? 9.5 : 11)
    .text(printable(title), boxX, boxY + 34, { width: boxW, align: 'center' });
  doc.fontSize(12).text(id, boxX, boxY + 57, { width: boxW, align: 'center' });

  // Customer and document data in two columns.
  y = Math.max(infoBottom, boxY + boxH) + 16;
  const colGap = 16;
  const colW = (width - colGap) / 2;
  const labelW = 104;
  const drawPairs = (pairs: [string, string][], x: number, top: number, w: number) => {
    let yy = top;
    for (const [label, value] of pairs) yy = drawPair(doc, label, value, x, yy, labelW, w - labelW);
    return yy;
  };
  const blockTop = y;
  const leftEnd = drawPairs(customerLines(d), left + 8, blockTop + 8, colW - 8);
  const rightEnd = drawPairs(documentLines(d), left + colW + colGap, blockTop + 8, colW - 8);
  const blockBottom = Math.max(leftEnd, rightEnd) + 4;
  doc
    .lineWidth(0.6)
    .strokeColor(RULE)
    .roundedRect(left, blockTop, width, blockBottom - blockTop, 3)
    .stroke();
  y = blockBottom + 14;

  // Lines.
  const cols = [
    { title: 'Cant.', w: 44, align: 'right' as const },
    { title: 'Unid.', w: 34, align: 'center' as const },
    { title: 'Código', w: 62, align: 'left' as const },
    { title: 'Descripción', w: 0, align: 'left' as const },
    { title: 'V. unitario', w: 64, align: 'right' as const },
    { title: 'Dscto.', w: 48, align: 'right' as const },
    { title: 'Valor venta', w: 66, align: 'right' as const },
  ];
  cols[3]!.w = width - cols.reduce((a, c) => a + c.w, 0);
  const cell = (text: string, i: number, top: number, bold = false) => {
    const x = left + cols.slice(0, i).reduce((a, c) => a + c.w, 0);
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(8)
      .text(printable(text), x + 4, top, { width: cols[i]!.w - 8, align: cols[i]!.align });
    return doc.y;
  };
  doc.rect(left, y, width, 16).fill(SHADE);
  doc.fillColor(INK);
  cols.forEach((c, i) => cell(c.title, i, y + 4.5, true));
  y += 16;
  for (const l of d.lines) {
    // Leave room for the totals block; a long document continues on the next page.
    if (y > doc.page.height - 140) {
      doc.addPage();
      y = 40;
    }
    const top = y + 4;
    const bottoms = [
      cell(l.quantity, 0, top),
      cell(l.unit, 1, top),
      cell(l.code ?? '', 2, top),
      cell(l.description, 3, top),
      cell(unitValue(l.unitValue), 4, top),
      cell(l.discountCents ? money(l.discountCents) : '', 5, top),
      cell(money(l.subtotalCents), 6, top),
    ];
    y = Math.max(...bottoms) + 4;
    doc.lineWidth(0.4).strokeColor(RULE).moveTo(left, y).lineTo(right, y).stroke();
  }

  // Amount in words on the left, totals on the right.
  y += 10;
  const totalsW = 200;
  const totalsX = right - totalsW;
  doc
    .font('Helvetica-Bold')
    .fontSize(8.5)
    .fillColor(INK)
    .text(printable(amountInWords(d.totals.totalCents)), left, y, { width: totalsX - left - 16 });
  let leftY = doc.y + 8;
  let ty = y;
  for (const [label, value] of totalRows(d)) {
    const last = label === 'Importe total';
    if (last) {
      doc.rect(totalsX, ty - 3, totalsW, 16).fill(SHADE);
      doc.fillColor(INK);
    }
    doc
      .font(last ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(last ? 9.5 : 8.5)
      .text(printable(label), totalsX + 6, ty, { width: 100 });
    doc.text(value, totalsX + 100, ty, { width: totalsW - 106, align: 'right' });
    ty += last ? 17 : 13;
  }

  // Credit instalments.
  const cuotas = instalmentRows(d);
  if (cuotas.length) {
    const pending = d.payment.instalments.reduce((a, c) => a + c.importeCents, 0);
    doc
      .font('Helvetica-Bold')
      .fontSize(8.5)
      .text(printable(`Venta al crédito – monto neto pendiente de pago: ${soles(pending)}`), left, leftY);
    leftY = doc.y + 3;
    for (const [n, date, importe] of cuotas) {
      doc.font('Helvetica').fontSize(8.5).text(n, left, leftY, { width: 70 });
      doc.text(`vence ${date}`, left + 70, leftY, { width: 90 });
      doc.text(importe, left + 160, leftY, { width: 80, align: 'right' });
      leftY = doc.y + 1;
    }
  }
  y = Math.max(leftY, ty) + 12;

  // Detracción.
  const detraction = detractionText(d);
  if (detraction) {
    const h =
      doc
        .font('Helvetica')
        .fontSize(8)
        .heightOfString(printable(detraction), { width: width - 16 }) + 12;
    doc.lineWidth(0.6).strokeColor(RULE).rect(left, y, width, h).stroke();
    doc.fillColor(INK).text(printable(detraction), left + 8, y + 6, { width: width - 16 });
    y += h + 12;
  }
  if (d.observations) {
    doc
      .font('Helvetica')
      .fontSize(8)
      .text(printable(`Observaciones: ${d.observations}`), left, y, { width });
    y = doc.y + 10;
  }
  if (d.liabilityClause) {
    doc.font('Helvetica').fontSize(7.5).fillColor(INK).text(printable(d.liabilityClause), left, y, { width });
    y = doc.y + 10;
  }

  // QR, hash and the representation sentence.
  const qrSize = 92;
  if (qr) doc.image(qr, left, y, { width: qrSize, height: qrSize });
  const textX = left + (qr ? qrSize + 14 : 0);
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .fillColor(INK)
    .text(printable(representation(title)), textX, y + 8, { width: right - textX });
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(MUTED)
    .text(`Hash: ${p.hash ?? 'pendiente'}`, textX, doc.y + 4, { width: right - textX });
  if (p.demo) {
    doc
      .fillColor('#b26a00')
      .font('Helvetica-Bold')
      .text('Documento de demostración emitido por el proveedor sandbox: sin valor tributario.', textX, doc.y + 4, { width: right - textX });
  }
  if (p.status === 'anulado') stampVoided(doc, doc.page.width, doc.page.height);
}

const TICKET_WIDTH = 226.77; // 80 mm
const TICKET_MARGIN = 12;

function drawTicket(doc: Doc, { title, id, p, qr }: Content): number {
  const d = p.document;
  const issuer = p.issuer;
  const x = TICKET_MARGIN;
  const w = TICKET_WIDTH - 2 * TICKET_MARGIN;
  let y = TICKET_MARGIN;
  const center = (text: string, font = 'Helvetica', size = 8, color = INK) => {
    doc.font(font).fontSize(size).fillColor(color).text(printable(text), x, y, { width: w, align: 'center' });
    y = doc.y + 1;
  };
  const rule = () => {
    y += 3;
    doc
      .lineWidth(0.5)
      .strokeColor(INK)
      .dash(2, { space: 2 })
      .moveTo(x, y)
      .lineTo(x + w, y)
      .stroke()
      .undash();
    y += 5;
  };
  const pair = (label: string, value: string, bold = false) => {
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(bold ? 9 : 7.5)
      .fillColor(INK);
    doc.text(printable(label), x, y, { width: w * 0.55 });
    const leftBottom = doc.y;
    doc.text(printable(value), x + w * 0.45, y, { width: w * 0.55, align: 'right' });
    y = Math.max(leftBottom, doc.y) + 1;
  };
  const text = (value: string, size = 7.5, font = 'Helvetica') => {
    doc.font(font).fontSize(size).fillColor(INK).text(printable(value), x, y, { width: w });
    y = doc.y + 1;
  };

  center(issuer.tradeName || issuer.name, 'Helvetica-Bold', 11);
  if (issuer.tradeName) center(issuer.name, 'Helvetica', 7.5);
  center(`RUC ${issuer.ruc}`, 'Helvetica', 7.5);
  center(`${issuer.address} – ${issuer.district}, ${issuer.province}`, 'Helvetica', 7, MUTED);
  rule();
  center(title, 'Helvetica-Bold', 9);
  center(id, 'Helvetica-Bold', 10);
  rule();
  for (const [label, value] of [...documentLines(d), ...customerLines(d)]) text(`${label}: ${value}`);
  rule();
  for (const l of d.lines) {
    text(lineText(l), 7.5, 'Helvetica-Bold');
    pair(
      `${l.quantity} ${l.unit} x ${unitValue(l.unitValue)}${l.discountCents ? ` – dscto. ${money(l.discountCents)}` : ''}`,
      money(l.subtotalCents),
    );
    y += 1;
  }
  rule();
  for (const [label, value] of totalRows(d)) pair(label, value, label === 'Importe total');
  y += 2;
  text(amountInWords(d.totals.totalCents), 7, 'Helvetica-Bold');
  const cuotas = instalmentRows(d);
  if (cuotas.length) {
    rule();
    for (const [n, date, importe] of cuotas) pair(`${n} vence ${date}`, importe);
  }
  const detraction = detractionText(d);
  if (detraction) {
    rule();
    text(detraction, 6.5);
  }
  if (d.observations) text(`Observaciones: ${d.observations}`, 6.5);
  if (d.liabilityClause) {
    rule();
    text(d.liabilityClause, 6.5);
  }
  rule();
  if (qr) {
    const size = 110;
    doc.image(qr, x + (w - size) / 2, y, { width: size, height: size });
    y += size + 4;
  }
  center(representation(title), 'Helvetica', 7);
  center(`Hash: ${p.hash ?? 'pendiente'}`, 'Helvetica', 6.5, MUTED);
  if (p.demo) center('Documento de demostración (sandbox): sin valor tributario.', 'Helvetica-Bold', 6.5, '#b26a00');
  if (p.status === 'anulado') center('ANULADO', 'Helvetica-Bold', 14, '#c62828');
  return y + TICKET_MARGIN;
}

/** The comprobante as a PDF: A4, or one 80 mm page as tall as its content. */
export async function renderDocumentPdf(p: PrintableDocument, format: PdfFormat): Promise<Buffer> {
  const d = p.document;
  const title = SUNAT_DOCUMENT_TITLES[d.type];
  const content: Content = { title, id: formatDocumentNumber(d.series, d.number), p, qr: p.qrText ? await qrPng(p.qrText) : null };
  const info = { Title: `${title} ${content.id}`, Author: p.issuer.name, Subject: `RUC ${p.issuer.ruc}` };
  if (format === 'a4') {
    const doc = new PDFDocument({ size: 'A4', margin: 40, info });
    drawA4(doc, content);
    return collect(doc);
  }
  // Lay the ticket out once on a tall scratch page to learn its height, then draw it on a page that fits.
  const scratch = new PDFDocument({ size: [TICKET_WIDTH, 5000], margin: 0 });
  const height = Math.ceil(drawTicket(scratch, content));
  scratch.end();
  const doc = new PDFDocument({ size: [TICKET_WIDTH, height], margin: 0, info });
  drawTicket(doc, content);
  return collect(doc);
}
