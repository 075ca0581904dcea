import { asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  DEFAULT_SERIES,
  FLEET_MESSAGES,
  GUIDE_API_MESSAGES,
  GUIDE_DESCRIPTION_MAX_LENGTH,
  groupLoadIntoGuides,
  guidePlate,
  limaDay,
  type CarrierGuideAnswer,
} from '@tramo/domain';
import { branches, customers, drivers, shipments, shipmentSenderGuides, transportAssignments, transports } from '../../db/schema.ts';
import { forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { getCompany } from '../company/index.ts';
import { transportCompliance } from '../fleet/index.ts';
import { liveGuidesOf } from '../billing/index.ts';

/*
 * The carrier guide (GRE transportista, 31) of a transport's load: the daily use of the guides.
 * A GRE-T names one remitente and one destinatario, so a load is issued as one guide per pair
 * (issue 36): `GET /transports/{id}/carrier-guide` pre-fills the guide of the first pair still
 * without one from the truck (plates and TUC, its semirremolque, drivers), the company (MTC), its
 * route's branches (ubigeo, address, SUNAT establishment) and that pair's shipments (one item each,
 * and their GRE remitente as related documents); 'Emitir guías' issues every pair at once.
 */

const driver1 = alias(drivers, 'driver1');
const driver2 = alias(drivers, 'driver2');
const trailer = alias(transports, 'trailer');
const origin = alias(branches, 'origin');
const destination = alias(branches, 'destination');
const shipmentOrigin = alias(branches, 'shipment_origin');
const shipmentDestination = alias(branches, 'shipment_destination');

/** 'Juan Carlos Pérez Gómez' → names 'Juan Carlos', surnames 'Pérez Gómez' (Peruvian names carry two surnames). */
export function splitFullName(full: string): { nombre: string; apellidos: string } {
  const words = full.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { nombre: words[0] ?? '', apellidos: '' };
  if (words.length === 2) return { nombre: words[0]!, apellidos: words[1]! };
  const surnames = words.length >= 4 ? 2 : words.length - 1;
  return { nombre: words.slice(0, words.length - surnames).join(' '), apellidos: words.slice(words.length - surnames).join(' ') };
}

const partyDocType = (doc: string) => (/^\d{11}$/.test(doc) ? '6' : '1');

export async function visibleTransport(ctx: ServiceContext, user: SessionUser, transportId: number) {
  const [t] = await ctx.db
    .select({
      id: transports.id,
      platePrimary: transports.platePrimary,
      plateSecondary: transports.plateSecondary,
      tucNumber: transports.tucNumber,
      trailer: { plate: trailer.platePrimary, tucNumber: trailer.tucNumber },
      route: transports.route,
      originBranchId: transports.originBranchId,
      destinationBranchId: transports.destinationBranchId,
      driver1: { fullName: driver1.fullName, dni: driver1.dni, licence: driver1.licenseNumber },
      driver2: { fullName: driver2.fullName, dni: driver2.dni, licence: driver2.licenseNumber },
      origin: { name: origin.name, address: origin.address, ubigeo: origin.ubigeo, establishmentCode: origin.establishmentCode },
      destination: {
        name: destination.name,
        address: destination.address,
        ubigeo: destination.ubigeo,
        establishmentCode: destination.establishmentCode,
      },
    })
    .from(transports)
    .leftJoin(trailer, eq(trailer.id, transports.trailerId))
    .leftJoin(driver1, eq(driver1.id, transports.driverId1))
    .leftJoin(driver2, eq(driver2.id, transports.driverId2))
    .leftJoin(origin, eq(origin.id, transports.originBranchId))
    .leftJoin(destination, eq(destination.id, transports.destinationBranchId))
    .where(eq(transports.id, transportId));
  if (!t) throw notFound(FLEET_MESSAGES.transportNotFound);
  // Agents issue the guides of the transports that leave or reach their branch, as billing keeps them to their branch.
  if (user.role !== 'admin' && (user.branchId === null || (t.originBranchId !== user.branchId && t.destinationBranchId !== user.branchId))) {
    throw forbidden(GUIDE_API_MESSAGES.transportForbidden);
  }
  return t;
}
type VisibleTransport = Awaited<ReturnType<typeof visibleTransport>>;

/** The whole load of the truck (the guide covers what it carries), oldest load first. */
export async function loadOf(ctx: ServiceContext, transportId: number) {
  return ctx.db
    .select({
      shipmentId: shipments.id,
      code: shipments.code,
      description: shipments.description,
      weightKg: shipments.weightKg,
      loadedAt: transportAssignments.loadedAt,
      senderName: shipments.senderName,
      senderDoc: customers.docNumber,
      senderAddress: customers.address,
      recipientName: shipments.recipientName,
      recipientDoc: shipments.recipientDoc,
      originName: shipmentOrigin.name,
      destinationName: shipmentDestination.name,
      senderGuide: { series: shipmentSenderGuides.series, number: shipmentSenderGuides.number },
    })
    .from(transportAssignments)
    .innerJoin(shipments, eq(shipments.id, transportAssignments.shipmentId))
    .leftJoin(customers, eq(customers.id, shipments.senderCustomerId))
    .leftJoin(shipmentSenderGuides, eq(shipmentSenderGuides.shipmentId, shipments.id))
    .innerJoin(shipmentOrigin, eq(shipmentOrigin.id, shipments.originBranchId))
    .innerJoin(shipmentDestination, eq(shipmentDestination.id, shipments.destinationBranchId))
    .where(eq(transportAssignments.transportId, transportId))
    .orderBy(asc(transportAssignments.loadedAt), asc(transportAssignments.id));
}
export type LoadedShipment = Awaited<ReturnType<typeof loadOf>>[number];

/** A load's remitente/destinatario pairs, in load order (a sender without a customer record goes by name). */
export function pairsOf(load: LoadedShipment[]): LoadedShipment[][] {
  const byId = new Map(load.map((s) => [s.shipmentId, s]));
  return groupLoadIntoGuides(
    load.map((s) => {
      const senderDoc = s.senderDoc ?? s.senderName;
      return {
        id: s.shipmentId,
        sender: { docType: partyDocType(senderDoc), docNumber: senderDoc },
        recipient: { docType: partyDocType(s.recipientDoc), docNumber: s.recipientDoc },
      };
    }),
  ).map((g) => g.shipmentIds.map((id) => byId.get(id)!));
}

/** The load's pairs still without a live GRE-T (issue 36): what 'Emitir guías' issues. */
export async function pendingPairs(ctx: ServiceContext, load: LoadedShipment[]): Promise<LoadedShipment[][]> {
  const onGuide = await liveGuidesOf(
    ctx.db,
    load.map((s) => s.shipmentId),
  );
  return pairsOf(load.filter((s) => !onGuide.has(s.shipmentId)));
}

/** The GRE-T of one remitente/destinatario pair of the load, as a guide payload plus what the review shows. */
export function carrierGuideOf(
  t: VisibleTransport,
  pair: LoadedShipment[],
  company: { mtcRegistration: string | null },
  today: string,
  warnings: string[],
): CarrierGuideAnswer {
  const first = pair[0]!;
  const driverOf = (d: { fullName: string; dni: string; licence: string }) => ({
    documento_tipo: '1',
    documento_numero: d.dni,
    ...splitFullName(d.fullName),
    numero_licencia: d.licence,
  });
  // Driver 1 drives; driver 2 (or driver 1 missing, driver 2 alone) is the secondary one.
  const main = t.driver1 ?? t.driver2;
  const secondary = t.driver1 && t.driver2 ? [t.driver2] : [];
  const point = (b: { address: string | null; ubigeo: string | null; establishmentCode: string } | null) => ({
    ubigeo: b?.ubigeo ?? '',
    direccion: b?.address ?? '',
    codigo_establecimiento_sunat: b?.establishmentCode ?? null,
  });
  // The semirremolque linked in Transportes, with its TUC; else the trailer plate typed on the truck.
  const secondaryVehicle = t.trailer
    ? { placa_numero: guidePlate(t.trailer.plate), tuc: t.trailer.tucNumber ? t.trailer.tucNumber.replace(/[-\s]/g, '') : null }
    : t.plateSecondary
      ? { placa_numero: guidePlate(t.plateSecondary), tuc: null }
      : null;
  // Weights have 2 decimals: summing whole hundredths keeps the gross weight exact.
  const hundredths = pair.reduce((sum, s) => sum + Math.round(Number(s.weightKg) * 100), 0);
  // The goods were handed to the carrier when the first of them was loaded (never after the trip starts).
  const handedOver = pair.reduce((day, s) => (limaDay(s.loadedAt) < day ? limaDay(s.loadedAt) : day), today);
  const description = (s: LoadedShipment) =>
    `${s.description?.trim() || 'Encomienda'} — Rem.: ${s.senderName} → Dest.: ${s.recipientName}`.slice(0, GUIDE_DESCRIPTION_MAX_LENGTH);
  const related = pair.flatMap((s) => (s.senderGuide ? [{ tipo: '09', serie: s.senderGuide.series, numero: String(s.senderGuide.number) }] : []));
  const relatedUnique = [...new Map(related.map((r) => [`${r.serie}-${r.numero}`, r])).values()];

  const payload = {
    type: '31' as const,
    serie: DEFAULT_SERIES['31'],
    fecha_de_emision: today,
    fecha_de_inicio_de_traslado: today,
    cliente: { numero_de_documento: first.senderDoc ?? '', denominacion: first.senderName, direccion: first.senderAddress ?? null },
    motivo_de_traslado: '01',
    tipo_de_transporte: '02',
    numero_de_bultos: pair.length,
    peso_bruto_total: (hundredths / 100).toFixed(2),
    peso_bruto_unidad_de_medida: 'KGM' as const,
    punto_de_partida: point(t.origin),
    punto_de_llegada: point(t.destination),
    placa_numero: guidePlate(t.platePrimary),
    conductor: main ? driverOf(main) : null,
    destinatario: { documento_tipo: partyDocType(first.recipientDoc), documento_numero: first.recipientDoc, denominacion: first.recipientName },
    items: pair.map((s) => ({
      codigo: s.code,
      descripcion: description(s),
      cantidad: '1',
      unidad_de_medida: 'NIU' as const,
      peso: Number(s.weightKg).toFixed(2),
    })),
    vehiculos_secundarios: secondaryVehicle ? [secondaryVehicle] : [],
    conductores_secundarios: secondary.map(driverOf),
    registro_mtc: company.mtcRegistration,
    tuc_vehiculo_principal: t.tucNumber ? t.tucNumber.replace(/[-\s]/g, '') : null,
    fecha_de_entrega_al_transportista: handedOver,
    documentos_relacionados: relatedUnique,
    observaciones: `Carga del transporte ${t.platePrimary}${t.route ? ` (${t.route})` : ''}: ${pair.length} envío(s).`.slice(0, 500),
  };
  return {
    transportId: t.id,
    ...payload,
    shipments: pair.map((s) => ({
      shipmentId: s.shipmentId,
      code: s.code,
      description: s.description?.trim() || 'Encomienda',
      weightKg: Number(s.weightKg),
      sender: { documento_numero: s.senderDoc, denominacion: s.senderName },
      recipient: { documento_numero: s.recipientDoc, denominacion: s.recipientName },
      originName: s.originName,
      destinationName: s.destinationName,
    })),
    warnings,
  };
}

/** What the transport, its branches and the company lack for a GRE-T SUNAT accepts: the review says it first. */
export async function reviewWarnings(ctx: ServiceContext, t: VisibleTransport, company: { mtcRegistration: string | null }) {
  const warnings: string[] = [];
  if (!t.origin || !t.destination) warnings.push(GUIDE_API_MESSAGES.missing.route);
  if (t.origin && !t.origin.ubigeo) warnings.push(GUIDE_API_MESSAGES.missing.originUbigeo);
  if (t.destination && !t.destination.ubigeo) warnings.push(GUIDE_API_MESSAGES.missing.destinationUbigeo);
  if (!t.driver1 && !t.driver2) warnings.push(GUIDE_API_MESSAGES.missing.driver);
  if (!company.mtcRegistration) warnings.push(GUIDE_API_MESSAGES.missing.mtc);
  if (!t.tucNumber) warnings.push(GUIDE_API_MESSAGES.missing.tuc(t.platePrimary));
  // The document gate refuses the issue; the review already says why.
  const compliance = await transportCompliance(ctx, t.id);
  if (compliance.refusal && !compliance.override) warnings.push(compliance.refusal);
  return warnings;
}

/** `GET /transports/{id}/carrier-guide`: the GRE-T of the first pair still without one, to review; 422 when nothing is loaded. */
export async function buildCarrierGuide(ctx: ServiceContext, user: SessionUser, transportId: number): Promise<CarrierGuideAnswer> {
  const t = await visibleTransport(ctx, user, transportId);
  const load = await loadOf(ctx, transportId);
  if (load.length === 0) throw unprocessable(GUIDE_API_MESSAGES.emptyLoad, undefined, 'EMPTY_LOAD');
  const company = await getCompany(ctx);
  const warnings = await reviewWarnings(ctx, t, company);
  const pairs = await pendingPairs(ctx, load);
  if (pairs.length > 1) warnings.push(GUIDE_API_MESSAGES.missing.otherPairs(pairs.length - 1));
  // Everything already on a guide: the first pair's guide, which issuing refuses naming the guide.
  const pair = pairs[0] ?? pairsOf(load)[0]!;
  return carrierGuideOf(t, pair, company, limaDay(ctx.now()), warnings);
}
