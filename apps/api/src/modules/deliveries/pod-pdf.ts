import PDFDocument from 'pdfkit';
import { limaDateTime, maskName } from '@tramo/domain';
import { printable } from '../../providers/billing/pdf.ts';
import type { StoredProof } from './proof.ts';

/**
 * The proof-of-delivery PDF (issue 18), A5 portrait: code, recipient, who received it and their
 * document, when (Lima), who handed it over, then the photo and the signature. The public copy
 * (the tracking page's 'Descargar constancia') masks names and leaves out the document, the photo
 * and the signature.
 */

export function renderProofPdf(proof: StoredProof, audience: 'staff' | 'public'): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A5', margin: 36, info: { Title: `Constancia de entrega ${proof.shipment.code}`, Author: 'Tramo' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const info = proof.shipment.deliveredInfo;
  const publicCopy = audience === 'public';
  const name = (n: string | undefined) => (n ? (publicCopy ? maskName(n) : n) : '—');
  const width = doc.page.width - 72;

  doc.font('Helvetica-Bold').fontSize(16).fillColor('#087f5b').text('TRAMO', { align: 'left' });
  doc.fillColor('#000').fontSize(13).text('Constancia de entrega');
  doc.moveDown(0.6);
  const rows: [string, string][] = [
    ['Envío', proof.shipment.code],
    ['Destinatario', name(proof.shipment.recipientName)],
    ['Recibió', name(info.receiverName)],
    ...(publicCopy ? [] : ([['Documento', info.receiverDoc ?? '—']] as [string, string][])),
    ['Fecha y hora (Lima)', limaDateTime(info.deliveredAt)],
    ['Entregado por', name(info.deliveredByName)],
    ...(!publicCopy && info.notes ? ([['Notas', info.notes]] as [string, string][]) : []),
  ];
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(10).text(printable(label), 36, y, { width: 120 });
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(printable(value), 160, y, { width: width - 124 });
    doc.moveDown(0.35);
  }
  doc.moveDown(0.8);

  if (publicCopy) {
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor('#495057')
      .text('Copia para el cliente: la foto, la firma y el documento de quien recibió quedan en la agencia.', 36, doc.y, { width });
  } else {
    const box = { w: (width - 12) / 2, h: 150 };
    const top = doc.y;
    doc.font('Helvetica-Bold').fontSize(10).fillColor('#000').text('Foto de la entrega', 36, top);
    doc.text('Firma de quien recibe', 36 + box.w + 12, top);
    const imgTop = top + 16;
    for (const [i, img] of [proof.photo, proof.signature].entries()) {
      const x = 36 + i * (box.w + 12);
      doc.rect(x, imgTop, box.w, box.h).lineWidth(0.5).strokeColor('#adb5bd').stroke();
      const note = (text: string) =>
        doc
          .font('Helvetica')
          .fontSize(9)
          .fillColor('#495057')
          .text(text, x, imgTop + box.h / 2 - 5, { width: box.w, align: 'center' });
      if (!img) note(i === 0 ? 'Sin foto' : 'Sin firma');
      else {
        // The server checked the image's first bytes, not every byte: a damaged file still gives a constancia.
        try {
          doc.image(img.bytes, x + 4, imgTop + 4, { fit: [box.w - 8, box.h - 8], align: 'center', valign: 'center' });
        } catch {
          note('Imagen ilegible');
        }
      }
    }
    doc.fillColor('#000');
    doc.y = imgTop + box.h + 12;
  }
  doc.end();
  return done;
}
