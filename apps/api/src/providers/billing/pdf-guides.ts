import PDFDocument from 'pdfkit';
import {
  dayText,
  formatDocumentNumber,
  GUIDE_UNIT_LABELS,
  SUNAT_DOCUMENT_TITLES,
  TRANSFER_REASON_LABELS,
  TRANSPORT_TYPE_LABELS,
  VOUCHER_RELATED_TYPE_LABELS,
  type DocumentStatus,
  type GuideDriver,
  type GuideParty,
} from '@tramo/domain';
import { drawPair, printable, qrPng } from './pdf.ts';
import type { BillingIssuer, GuideDocument, VoucherDocument } from './types.ts';
import { collect } from '../../lib/pdf.ts';

/*
 * The printed representation (A4) of a dispatch guide and of a retention or perception voucher:
 * the issuer and SUNAT box as on invoices, the document's data in labelled blocks, the lines, and
 * for a guide the QR SUNAT gives it once accepted (until then the PDF says the QR is pending).
 */

export interface PrintableGuide {
  document: GuideDocument;
  issuer: BillingIssuer;
  /** The company's logo (JPEG or PNG), printed beside its name. */
  logo?: Buffer | null;
  hash: string | null;
  /** SUNAT's QR link; null while the guide is pending. */
  qrText: string | null;
  status?: DocumentStatus;
  demo?: boolean;
}

export interface PrintableVoucher {
  document: VoucherDocument;
  issuer: BillingIssuer;
  hash: string | null;
  qrText: string | null;
  status?: DocumentStatus;
  demo?: boolean;
}

type Doc = PDFKit.PDFDocument;
type Pairs = [string, string][];

const INK = '#1a1a1a';
const MUTED = '#555555';
const RULE = '#9a9a9a';
const SHADE = '#ececec';
const LEFT = 40;

const money = (cents: number) => `S/ ${(cents / 100).toLocaleString('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const docLabel = (docType: number) => (docType === 6 ? 'RUC' : docType === 1 ? 'DNI' : `Doc. ${docType}`);
const partyText = (p: GuideParty) => `${p.name} – ${docLabel(p.docType)} ${p.docNumber}`;
const driverText = (d: GuideDriver) => `${d.names} ${d.surnames} – ${docLabel(d.docType)} ${d.docNumber} – Licencia ${d.licence}`;

/** Issuer on the left, the SUNAT box on the right; returns the y below both. */
function header(doc: Doc, issuer: BillingIssuer, title: string, id: string, logo: Buffer | null = null): number {
  const right = doc.page.width - LEFT;
  const boxW = 210;
  const boxX = right - boxW;
  const LOGO = 64;
  const textX = logo ? LEFT + LOGO + 10 : LEFT;
  const infoW = boxX - textX - 16;
  if (logo) doc.image(logo, LEFT, 38, { fit: [LOGO, LOGO], align: 'center', valign: 'center' });
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(18)
    .text(printable(issuer.tradeName || issuer.name), textX, 40, { width: infoW });
  doc.font('Helvetica').fontSize(9).fillColor(MUTED);
  if (issuer.tradeName) doc.text(printable(issuer.name), textX, doc.y + 2, { width: infoW });
  doc.text(printable(`${issuer.address} – ${issuer.district}, ${issuer.province}, ${issuer.department}`), textX, doc.y, { width: infoW });
  const contact = [issuer.phone && `Tel. ${issuer.phone}`, issuer.email].filter(Boolean).join('  ·  ');
  if (contact) doc.text(printable(contact), textX, doc.y, { width: infoW });
  const infoBottom = Math.max(doc.y, logo ? 38 + LOGO : 0);
  const boxY = 36;
  const boxH = 84;
  doc.lineWidth(1.2).strokeColor(INK).roundedRect(boxX, boxY, boxW, boxH, 4).stroke();
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(11)
    .text(`R.U.C. ${issuer.ruc}`, boxX, boxY + 10, { width: boxW, align: 'center' });
  doc.rect(boxX, boxY + 27, boxW, 30).fill(SHADE);
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(9)
    .text(printable(title), boxX + 6, boxY + 31, { width: boxW - 12, align: 'center' });
  doc.fontSize(12).text(id, boxX, boxY + 63, { width: boxW, align: 'center' });
  return Math.max(infoBottom, boxY + boxH) + 14;
}

/** A titled block of label/value pairs in one or two columns; returns the y below it. */
function block(doc: Doc, title: string, columns: Pairs[], top: number): number {
  const width = doc.page.width - 2 * LEFT;
  if (top > doc.page.height - 120) {
    doc.addPage();
    top = 40;
  }
  doc.font('Helvetica-Bold').fontSize(9).fillColor(INK).text(printable(title.toUpperCase()), LEFT, top);
  const start = doc.y + 3;
  const gap = 16;
  const colW = (width - gap * (columns.length - 1)) / columns.length;
  const labelW = columns.length > 1 ? 96 : 130;
  let bottom = start;
  columns.forEach((pairs, c) => {
    const x = LEFT + 8 + c * (colW + gap);
    let y = start + 6;
    for (const [label, value] of pairs) y = drawPair(doc, label, value, x, y, labelW, colW - labelW - 8);
    bottom = Math.max(bottom, y);
  });
  bottom += 4;
  doc
    .lineWidth(0.6)
    .strokeColor(RULE)
    .roundedRect(LEFT, start, width, bottom - start, 3)
    .stroke();
  return bottom + 10;
}

interface Column {
  title: string;
  w: number;
  align: 'left' | 'right' | 'center';
}

/** A table with a shaded heading; column widths of 0 share what is left. */
function table(doc: Doc, cols: Column[], rows: string[][], top: number): number {
  const width = doc.page.width - 2 * LEFT;
  const fixed = cols.reduce((a, c) => a + c.w, 0);
  const flex = cols.filter((c) => c.w === 0).length;
  const widths = cols.map((c) => (c.w === 0 ? (width - fixed) / flex : c.w));
  const cell = (text: string, i: number, y: number, bold = false) => {
    const x = LEFT + widths.slice(0, i).reduce((a, w) => a + w, 0);
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(8)
      .fillColor(INK)
      .text(printable(text), x + 4, y, { width: widths[i]! - 8, align: cols[i]!.align });
    return doc.y;
  };
  let y = top;
  doc.rect(LEFT, y, width, 16).fill(SHADE);
  cols.forEach((c, i) => cell(c.title, i, y + 4.5, true));
  y += 16;
  for (const row of rows) {
    if (y > doc.page.height - 120) {
      doc.addPage();
      y = 40;
    }
    const bottoms = row.map((text, i) => cell(text, i, y + 4));
    y = Math.max(...bottoms) + 4;
    doc
      .lineWidth(0.4)
      .strokeColor(RULE)
      .moveTo(LEFT, y)
      .lineTo(LEFT + width, y)
      .stroke();
  }
  return y + 12;
}

/** QR (or its placeholder), hash, representation line and the demo/void marks. */
async function footer(
  doc: Doc,
  top: number,
  p: { qrText: string | null; hash: string | null; status?: DocumentStatus; demo?: boolean },
  title: string,
  pendingQr: string | null,
  stamp: string,
) {
  if (top > doc.page.height - 150) {
    doc.addPage();
    top = 40;
  }
  const size = 96;
  if (p.qrText) doc.image(await qrPng(p.qrText), LEFT, top, { width: size, height: size });
  else {
    doc.lineWidth(0.6).strokeColor(RULE).dash(3, { space: 3 }).rect(LEFT, top, size, size).stroke().undash();
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor(MUTED)
      .text(printable(pendingQr ?? 'Sin QR'), LEFT + 6, top + 34, { width: size - 12, align: 'center' });
  }
  const x = LEFT + size + 14;
  const w = doc.page.width - LEFT - x;
  doc
    .font('Helvetica-Bold')
    .fontSize(8.5)
    .fillColor(INK)
    .text(printable(`Representación impresa ${title.startsWith('COMPROBANTE') ? 'del' : 'de la'} ${title.toLowerCase()}`), x, top + 4, { width: w });
  if (p.hash)
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(MUTED)
      .text(`Valor resumen: ${p.hash}`, x, doc.y + 3, { width: w });
  if (p.status)
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(MUTED)
      .text(printable(`Estado en SUNAT: ${p.status}`), x, doc.y + 3, { width: w });
  if (p.demo) {
    doc
      .font('Helvetica-Bold')
      .fontSize(8)
      .fillColor('#b26a00')
      .text(printable('Documento de demostración emitido por el entorno de pruebas: sin valor tributario.'), x, doc.y + 6, { width: w });
  }
  if (p.status === 'anulado') {
    const { width, height } = doc.page;
    doc.save();
    doc.rotate(-30, { origin: [width / 2, height / 2] });
    doc
      .font('Helvetica-Bold')
      .fontSize(width / 6)
      .fillColor('#c62828')
      .fillOpacity(0.25)
      .text(stamp, 0, height / 2 - width / 12, { width, align: 'center' });
    doc.restore();
    doc.fillOpacity(1);
  }
}

/** A dispatch guide (GRE remitente or transportista) as an A4 PDF. */
export async function renderGuidePdf(p: PrintableGuide): Promise<Buffer> {
  const g = p.document;
  const title = SUNAT_DOCUMENT_TITLES[g.type];
  const id = formatDocumentNumber(g.series, g.number);
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `${title} ${id}`, Author: p.issuer.name, Subject: `RUC ${p.issuer.ruc}` } });
  let y = header(doc, p.issuer, title, id, p.logo ?? null);

  const carrierMode = g.type === '31';
  const parties: Pairs = carrierMode
    ? [
        ['Remitente', partyText(g.client)],
        ['Destinatario', g.recipient ? partyText(g.recipient) : '—'],
      ]
    : [['Destinatario', partyText(g.client)]];
  if (g.client.address) parties.splice(1, 0, [carrierMode ? 'Dirección del remitente' : 'Dirección', g.client.address]);
  const data: Pairs = [
    ['Fecha de emisión', `${dayText(g.issueDate)} ${g.issueTime}`],
    ['Inicio del traslado', dayText(g.transferDate)],
    ['Motivo de traslado', `${g.transferReason} ${TRANSFER_REASON_LABELS[g.transferReason]}`],
    ['Peso bruto total', `${g.grossWeight} ${g.grossWeightUnit}`],
  ];
  if (g.bundles !== null) data.push(['Número de bultos', String(g.bundles)]);
  // Guides stored before issue 36 have none of its fields.
  const gre: Partial<Pick<GuideDocument, 'goodsDeliveredOn' | 'mtcRegistration' | 'vehicleTuc' | 'secondaryTucs'>> = g;
  if (gre.goodsDeliveredOn) data.push(['Entrega al transportista', dayText(gre.goodsDeliveredOn)]);
  if (g.contingency) data.push(['Emisión', 'En contingencia']);
  y = block(doc, 'Datos del traslado', [parties, data], y);

  y = block(
    doc,
    'Puntos de partida y llegada',
    [
      [
        ['Punto de partida', g.origin.address],
        ['Ubigeo', g.origin.ubigeo + (g.origin.establishmentCode ? ` · Establecimiento ${g.origin.establishmentCode}` : '')],
      ],
      [
        ['Punto de llegada', g.destination.address],
        ['Ubigeo', g.destination.ubigeo + (g.destination.establishmentCode ? ` · Establecimiento ${g.destination.establishmentCode}` : '')],
      ],
    ],
    y,
  );

  const transport: Pairs = [['Tipo de transporte', `${g.transportType} ${TRANSPORT_TYPE_LABELS[g.transportType]}`]];
  if (g.carrier) transport.push(['Transportista', partyText(g.carrier)]);
  if (gre.mtcRegistration) transport.push(['Registro MTC', gre.mtcRegistration]);
  const withTuc = (plate: string, tuc: string | null | undefined) => (tuc ? `${plate} (TUC/CHV ${tuc})` : plate);
  if (g.plate) transport.push(['Vehículo principal', withTuc(g.plate, gre.vehicleTuc)]);
  g.secondaryPlates.forEach((plate, i) => transport.push([`Vehículo secundario ${i + 1}`, withTuc(plate, gre.secondaryTucs?.[i])]));
  if (g.driver) transport.push(['Conductor', driverText(g.driver)]);
  g.secondaryDrivers.forEach((d, i) => transport.push([`Conductor ${i + 2}`, driverText(d)]));
  y = block(doc, 'Datos del transporte', [transport], y);

  y = table(
    doc,
    [
      { title: 'N.°', w: 28, align: 'right' },
      { title: 'Código', w: 80, align: 'left' },
      { title: 'Descripción', w: 0, align: 'left' },
      { title: 'Unidad', w: 100, align: 'left' },
      { title: 'Cantidad', w: 60, align: 'right' },
      { title: 'Peso (kg)', w: 60, align: 'right' },
    ],
    g.items.map((item, i) => [
      String(i + 1),
      item.code ?? '',
      item.description,
      `${item.unit} ${GUIDE_UNIT_LABELS[item.unit]}`,
      item.quantity,
      item.weightKg ?? '',
    ]),
    y,
  );
  if (g.relatedDocuments.length > 0) {
    y = block(doc, 'Documentos relacionados', [g.relatedDocuments.map((r): [string, string] => [`Tipo ${r.type}`, `${r.series}-${r.number}`])], y);
  }
  if (g.observations) y = block(doc, 'Observaciones', [[['', g.observations]]], y);
  await footer(doc, y, p, title, 'QR pendiente: SUNAT aún no acepta la guía', 'ANULADA');
  return collect(doc);
}

/** A retention or perception voucher as an A4 PDF. */
export async function renderVoucherPdf(p: PrintableVoucher): Promise<Buffer> {
  const v = p.document;
  const retention = v.type === '20';
  const title = SUNAT_DOCUMENT_TITLES[v.type];
  const id = formatDocumentNumber(v.series, v.number);
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `${title} ${id}`, Author: p.issuer.name, Subject: `RUC ${p.issuer.ruc}` } });
  let y = header(doc, p.issuer, title, id);
  const subject: Pairs = [
    [retention ? 'Proveedor' : 'Cliente', v.subject.name],
    [docLabel(v.subject.docType), v.subject.docNumber],
  ];
  if (v.subject.address) subject.push(['Dirección', v.subject.address]);
  const data: Pairs = [
    ['Fecha de emisión', `${dayText(v.issueDate)} ${v.issueTime}`],
    ['Moneda', 'SOLES'],
    [retention ? 'Tasa de retención' : 'Tasa de percepción', `${v.percent} %`],
  ];
  y = block(doc, 'Datos del comprobante', [subject, data], y);
  y = table(
    doc,
    [
      { title: 'Documento', w: 0, align: 'left' },
      { title: 'Emisión', w: 56, align: 'center' },
      { title: 'Total', w: 70, align: 'right' },
      { title: retention ? 'Fecha pago' : 'Fecha cobro', w: 56, align: 'center' },
      { title: retention ? 'Importe pagado' : 'Importe cobrado', w: 74, align: 'right' },
      { title: retention ? 'Retenido' : 'Percibido', w: 64, align: 'right' },
      { title: retention ? 'Neto pagado' : 'Total cobrado', w: 74, align: 'right' },
    ],
    v.lines.map((l) => [
      `${VOUCHER_RELATED_TYPE_LABELS[l.type]} ${l.series}-${l.number}`,
      l.issueDate ? dayText(l.issueDate) : '',
      money(l.totalCents),
      l.paymentDate ? dayText(l.paymentDate) : '',
      money(l.baseCents),
      money(l.amountCents),
      money(l.netCents),
    ]),
    y,
  );
  y = block(
    doc,
    'Totales',
    [
      [
        [retention ? 'Total retenido' : 'Total percibido', money(v.amountTotalCents)],
        [retention ? 'Total pagado' : 'Total cobrado', money(v.netTotalCents)],
      ],
    ],
    y,
  );
  if (v.observations) y = block(doc, 'Observaciones', [[['', v.observations]]], y);
  await footer(doc, y, p, title, null, 'REVERTIDO');
  return collect(doc);
}
