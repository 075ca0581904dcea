import PDFDocument from 'pdfkit';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { canSee, FLEET_MESSAGES, formatKg, limaDateTime, type ShipmentLine } from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import { branches, complianceOverrides, drivers, shipments, transportAssignments, transports, trips, tripShipments } from '../../db/schema.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { printable } from '../../providers/billing/pdf.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { findCompanyLogo, getCompany } from '../company/index.ts';
import { openTripOf } from '../fleet/index.ts';
import { collect } from '../../lib/pdf.ts';

/*
 * The cargo manifest (manifiesto de carga, A4 landscape): who carries what from where to where.
 * One per trip; before the departure the current load prints as a draft so it can be checked and
 * signed at the dock.
 */

const INK = '#1a1a1a';
const MUTED = '#555555';
const RULE = '#9a9a9a';
const SHADE = '#ececec';
const MARGIN = 36;

interface ManifestRow {
  code: string;
  senderName: string;
  recipientName: string;
  recipientDoc: string;
  description: string | null;
  lines: ShipmentLine[];
  weightKg: number;
  billableWeightKg: number;
}

interface ManifestData {
  title: string;
  number: string;
  plates: string;
  vehicle: string;
  capacityKg: number | null;
  netWeightKg: number | null;
  drivers: { name: string; dni: string; licence: string }[];
  origin: string;
  destination: string;
  departedAt: Date | null;
  rows: ManifestRow[];
  /** The admin's exception to the document gate this trip leaves (or the draft will leave) under. */
  override: { reason: string; refusal: string; byName: string; at: Date } | null;
}

const driver1 = alias(drivers, 'manifest_driver1');
const driver2 = alias(drivers, 'manifest_driver2');
const origin = alias(branches, 'manifest_origin');
const destination = alias(branches, 'manifest_destination');

async function gather(db: Db, actor: SessionUser, transportId: number, tripId: number | null): Promise<ManifestData> {
  const [t] = await db
    .select({
      plate: transports.platePrimary,
      trailer: transports.plateSecondary,
      make: transports.make,
      model: transports.model,
      capacityKg: transports.capacityKg,
      netWeightKg: transports.netWeightKg,
      originName: origin.name,
      destinationName: destination.name,
      d1Name: driver1.fullName,
      d1Dni: driver1.dni,
      d1Licence: driver1.licenseNumber,
      d2Name: driver2.fullName,
      d2Dni: driver2.dni,
      d2Licence: driver2.licenseNumber,
    })
    .from(transports)
    .leftJoin(origin, eq(origin.id, transports.originBranchId))
    .leftJoin(destination, eq(destination.id, transports.destinationBranchId))
    .leftJoin(driver1, eq(driver1.id, transports.driverId1))
    .leftJoin(driver2, eq(driver2.id, transports.driverId2))
    .where(eq(transports.id, transportId));
  if (!t) throw notFound(FLEET_MESSAGES.transportNotFound);

  let ids: number[];
  let trip: { id: number; plate: string; departedAt: Date; originName: string; destinationName: string } | null = null;
  if (tripId !== null) {
    const [row] = await db
      .select({ id: trips.id, plate: trips.plate, departedAt: trips.departedAt, originName: origin.name, destinationName: destination.name })
      .from(trips)
      .innerJoin(origin, eq(origin.id, trips.originBranchId))
      .innerJoin(destination, eq(destination.id, trips.destinationBranchId))
      .where(eq(trips.id, tripId));
    if (!row) throw notFound('Viaje no encontrado.');
    trip = row;
    ids = (await db.select({ id: tripShipments.shipmentId }).from(tripShipments).where(eq(tripShipments.tripId, tripId))).map((r) => r.id);
  } else {
    ids = (
      await db.select({ id: transportAssignments.shipmentId }).from(transportAssignments).where(eq(transportAssignments.transportId, transportId))
    ).map((r) => r.id);
  }
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({
            code: shipments.code,
            senderName: shipments.senderName,
            recipientName: shipments.recipientName,
            recipientDoc: shipments.recipientDoc,
            description: shipments.description,
            lines: shipments.multiLineDetail,
            weightKg: shipments.weightKg,
            billableWeightKg: shipments.billableWeightKg,
            originBranchId: shipments.originBranchId,
            destinationBranchId: shipments.destinationBranchId,
          })
          .from(shipments)
          .where(inArray(shipments.id, ids))
          .orderBy(asc(shipments.code));
  // The manifest names senders and recipients: only who may see every shipment on it prints it.
  if (!rows.every((r) => canSee(actor, r))) throw forbidden('No puedes imprimir el manifiesto: lleva envíos de otras agencias.');

  // A trip prints the override it spent; a draft the one waiting for its departure.
  const [override] = await db
    .select({
      reason: complianceOverrides.reason,
      refusal: complianceOverrides.refusal,
      byName: complianceOverrides.createdByName,
      at: complianceOverrides.createdAt,
    })
    .from(complianceOverrides)
    .where(
      tripId !== null
        ? eq(complianceOverrides.tripId, tripId)
        : and(eq(complianceOverrides.transportId, transportId), isNull(complianceOverrides.tripId)),
    );

  const driversOf = [
    t.d1Name ? { name: t.d1Name, dni: t.d1Dni ?? '', licence: t.d1Licence ?? '' } : null,
    t.d2Name ? { name: t.d2Name, dni: t.d2Dni ?? '', licence: t.d2Licence ?? '' } : null,
  ].filter((d) => d !== null);
  return {
    title: trip ? 'MANIFIESTO DE CARGA' : 'MANIFIESTO DE CARGA (BORRADOR)',
    number: trip ? `Viaje N° ${String(trip.id).padStart(6, '0')}` : 'Pendiente de salida',
    plates: [trip?.plate ?? t.plate, t.trailer].filter(Boolean).join(' / '),
    vehicle: [t.make, t.model].filter(Boolean).join(' ') || '—',
    capacityKg: t.capacityKg === null ? null : Number(t.capacityKg),
    netWeightKg: t.netWeightKg === null ? null : Number(t.netWeightKg),
    drivers: driversOf,
    origin: trip?.originName ?? t.originName ?? '—',
    destination: trip?.destinationName ?? t.destinationName ?? '—',
    departedAt: trip?.departedAt ?? null,
    rows: rows.map((r) => ({ ...r, lines: r.lines as ShipmentLine[], weightKg: Number(r.weightKg) })),
    override: override ?? null,
  };
}

/** The gate's exception, boxed above the load so the dock and the road checkpoint both see it. */
function overrideBox(doc: PDFKit.PDFDocument, o: NonNullable<ManifestData['override']>, y: number, width: number): number {
  const text = printable(
    `SALIDA AUTORIZADA CON DOCUMENTOS VENCIDOS: ${o.refusal} Autorizó ${o.byName} el ${limaDateTime(o.at)}. Motivo: ${o.reason}`,
  );
  doc.font('Helvetica-Bold').fontSize(9);
  const height = doc.heightOfString(text, { width: width - 16 }) + 10;
  doc.rect(MARGIN, y, width, height).lineWidth(1.2).strokeColor(INK).stroke();
  doc.fillColor(INK).text(text, MARGIN + 8, y + 5, { width: width - 16 });
  return y + height + 8;
}

const COLUMNS = [
  { key: 'n', label: 'N°', width: 24, align: 'right' },
  { key: 'code', label: 'Código', width: 72, align: 'left' },
  { key: 'sender', label: 'Remitente', width: 120, align: 'left' },
  { key: 'recipient', label: 'Destinatario', width: 120, align: 'left' },
  { key: 'doc', label: 'Documento', width: 66, align: 'left' },
  { key: 'description', label: 'Descripción', width: 150, align: 'left' },
  { key: 'lines', label: 'Bultos / clase', width: 120, align: 'left' },
  { key: 'weight', label: 'Peso (kg)', width: 98, align: 'right' },
] as const;

type PrintedCompany = { name: string; ruc: string; address: string; mtc: string | null; logo: Buffer | null };

function render(company: PrintedCompany, m: ManifestData, printedAt: Date): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', layout: 'landscape', margin: MARGIN, info: { Title: `${m.title} ${m.plates}` } });
  const width = doc.page.width - 2 * MARGIN;
  const right = MARGIN + width;

  // Company (its logo first, when it has one) and title.
  const LOGO = 40;
  const textX = company.logo ? MARGIN + LOGO + 8 : MARGIN;
  if (company.logo) doc.image(company.logo, MARGIN, MARGIN - 2, { fit: [LOGO, LOGO], align: 'center', valign: 'center' });
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(15)
    .text(printable(company.name), textX, MARGIN, { width: width / 2 - (textX - MARGIN) });
  doc
    .font('Helvetica')
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(printable(`RUC ${company.ruc} · ${company.address}${company.mtc ? ` · Registro MTC ${company.mtc}` : ''}`), {
      width: width / 2 - (textX - MARGIN),
    });
  if (company.logo) doc.y = Math.max(doc.y, MARGIN + LOGO);
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(14)
    .text(printable(m.title), MARGIN + width / 2, MARGIN, { width: width / 2, align: 'right' });
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(printable(m.number), MARGIN + width / 2, doc.y + 2, { width: width / 2, align: 'right' });

  // Trip block: two columns of labelled values.
  let y = MARGIN + 48;
  doc.moveTo(MARGIN, y).lineTo(right, y).strokeColor(RULE).lineWidth(0.7).stroke();
  y += 8;
  const pair = (label: string, value: string, x: number, w: number, at: number) => {
    doc.font('Helvetica-Bold').fontSize(8.5).fillColor(MUTED).text(printable(label.toUpperCase()), x, at, { width: 90 });
    doc
      .font('Helvetica')
      .fontSize(9.5)
      .fillColor(INK)
      .text(printable(value), x + 92, at, { width: w - 92 });
    return doc.y + 3;
  };
  const half = width / 2 - 10;
  let left = y;
  left = pair('Placas', m.plates, MARGIN, half, left);
  left = pair('Vehículo', m.vehicle, MARGIN, half, left);
  left = pair('Ruta', `${m.origin} – ${m.destination}`, MARGIN, half, left);
  left = pair('Salida', m.departedAt ? limaDateTime(m.departedAt) : 'Pendiente', MARGIN, half, left);
  let rightY = y;
  const x2 = MARGIN + width / 2 + 10;
  if (m.drivers.length === 0) rightY = pair('Conductor', 'Sin conductor asignado', x2, half, rightY);
  m.drivers.forEach((d, i) => {
    rightY = pair(`Conductor ${i + 1}`, `${d.name} · DNI ${d.dni} · Licencia ${d.licence}`, x2, half, rightY);
  });
  rightY = pair('Capacidad', m.capacityKg === null ? 'No registrada' : `${formatKg(m.capacityKg)} kg`, x2, half, rightY);
  rightY = pair('Peso neto', m.netWeightKg === null ? 'No registrado' : `${formatKg(m.netWeightKg)} kg`, x2, half, rightY);
  y = Math.max(left, rightY) + 6;
  if (m.override) y = overrideBox(doc, m.override, y, width);

  // The shipments table.
  const headerRow = (at: number) => {
    doc.rect(MARGIN, at, width, 16).fill(SHADE);
    let x = MARGIN;
    doc.font('Helvetica-Bold').fontSize(8).fillColor(INK);
    for (const c of COLUMNS) {
      doc.text(c.label, x + 3, at + 4, { width: c.width - 6, align: c.align });
      x += c.width;
    }
    return at + 18;
  };
  y = headerRow(y);
  const bottomLimit = doc.page.height - MARGIN - 20;
  m.rows.forEach((r, i) => {
    const cells: Record<(typeof COLUMNS)[number]['key'], string> = {
      n: String(i + 1),
      code: r.code,
      sender: r.senderName,
      recipient: r.recipientName,
      doc: r.recipientDoc,
      description: r.description ?? '—',
      lines: r.lines.map((l) => `${l.productType} ${formatKg(l.weightKg)} kg`).join('\n'),
      weight: `${formatKg(r.weightKg)}\n(fact. ${r.billableWeightKg})`,
    };
    doc.font('Helvetica').fontSize(8);
    const height = Math.max(...COLUMNS.map((c) => doc.heightOfString(printable(cells[c.key]), { width: c.width - 6 }))) + 6;
    if (y + height > bottomLimit) {
      doc.addPage();
      y = headerRow(MARGIN);
    }
    let x = MARGIN;
    doc.fillColor(INK);
    for (const c of COLUMNS) {
      doc.font(c.key === 'code' ? 'Helvetica-Bold' : 'Helvetica').text(printable(cells[c.key]), x + 3, y + 3, { width: c.width - 6, align: c.align });
      x += c.width;
    }
    y += height;
    doc.moveTo(MARGIN, y).lineTo(right, y).strokeColor(SHADE).lineWidth(0.5).stroke();
  });
  if (m.rows.length === 0) {
    doc
      .font('Helvetica')
      .fontSize(9)
      .fillColor(MUTED)
      .text('Sin paquetes cargados.', MARGIN, y + 4);
    y += 20;
  }

  // Totals.
  const realKg = m.rows.reduce((s, r) => s + Math.round(r.weightKg * 100), 0) / 100;
  const billableKg = m.rows.reduce((s, r) => s + r.billableWeightKg, 0);
  const bundles = m.rows.reduce((s, r) => s + r.lines.length, 0);
  if (y + 100 > doc.page.height - MARGIN) {
    doc.addPage();
    y = MARGIN;
  }
  y += 6;
  doc.moveTo(MARGIN, y).lineTo(right, y).strokeColor(INK).lineWidth(0.8).stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(9.5)
    .fillColor(INK)
    .text(
      printable(
        `Total: ${m.rows.length} ${m.rows.length === 1 ? 'envío' : 'envíos'} · ${bundles} ${bundles === 1 ? 'bulto' : 'bultos'} · Peso real ${formatKg(realKg)} kg · Peso facturable ${billableKg} kg` +
          (m.capacityKg !== null ? ` · ${Math.floor((realKg * 100) / (m.capacityKg || 1))}% de la capacidad` : ''),
      ),
      MARGIN,
      y + 6,
      { width, align: 'right' },
    );

  // Signatures.
  const signY = Math.max(doc.y + 50, y + 60);
  const signW = (width - 40) / 3;
  ['Despachado por (agencia de origen)', 'Conductor', 'Recibido por (agencia de destino)'].forEach((label, i) => {
    const x = MARGIN + i * (signW + 20);
    doc
      .moveTo(x, signY)
      .lineTo(x + signW, signY)
      .strokeColor(INK)
      .lineWidth(0.6)
      .stroke();
    doc
      .font('Helvetica')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(printable(`${label}\nNombre, DNI y firma`), x, signY + 4, { width: signW, align: 'center' });
  });
  doc
    .font('Helvetica')
    .fontSize(7.5)
    .fillColor(MUTED)
    .text(printable(`Impreso el ${limaDateTime(printedAt)}`), MARGIN, doc.page.height - MARGIN - 10, { width, align: 'right', lineBreak: false });
  return collect(doc);
}

/** The company as the manifest heads it: the 'Empresa' settings, with its MTC registration. */
async function printedCompany(ctx: ServiceContext): Promise<PrintedCompany> {
  const [c, logo] = await Promise.all([getCompany(ctx), findCompanyLogo(ctx.db)]);
  return { name: c.tradeName || c.name, ruc: c.ruc, address: c.address, mtc: c.mtcRegistration, logo };
}

/** GET /transports/{id}/manifest.pdf: the open trip's manifest, or the current load as a draft. */
export async function transportManifest(ctx: ServiceContext, actor: SessionUser, transportId: number) {
  const open = await openTripOf(ctx.db, transportId);
  const data = await gather(ctx.db, actor, transportId, open?.id ?? null);
  const pdf = await render(await printedCompany(ctx), data, ctx.now());
  return { pdf, filename: `manifiesto-${data.plates.split(' ')[0]}${open ? `-${open.id}` : ''}.pdf` };
}

/** GET /trips/{id}/manifest.pdf: the manifest of any trip, past or open. */
export async function tripManifest(ctx: ServiceContext, actor: SessionUser, tripId: number) {
  const [trip] = await ctx.db.select({ transportId: trips.transportId }).from(trips).where(eq(trips.id, tripId));
  if (!trip) throw notFound('Viaje no encontrado.');
  const data = await gather(ctx.db, actor, trip.transportId, tripId);
  const pdf = await render(await printedCompany(ctx), data, ctx.now());
  return { pdf, filename: `manifiesto-viaje-${tripId}.pdf` };
}
