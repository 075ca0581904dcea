import { asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  checkGuide,
  DEFAULT_SERIES,
  FLEET_MESSAGES,
  formatDocumentNumber,
  GUIDE_API_MESSAGES,
  GUIDE_DESCRIPTION_MAX_LENGTH,
  guidePlate,
  limaDay,
  type CarrierGuideAnswer,
} from '@tramo/domain';
import { branches, customers, drivers, shipments, transportAssignments, transports } from '../../db/schema.ts';
import { conflict, forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';
import { findByIdempotencyKey, issueOther, liveDocumentOfShipment, refusal, type IssueAnswer } from '../billing/index.ts';
import { guideIssue } from './service.ts';
import { transportCompliance } from '../fleet/index.ts';

/*
 * The carrier guide (GRE transportista, 31) of a transport's load: the daily use of the guides.
 * `GET /transports/{id}/carrier-guide` pre-fills it from the truck (plates, drivers), its route's
 * branches (ubigeo, address, SUNAT establishment) and the loaded shipments (one item each); the
 * user reviews it and `POST` issues it, linking the shipments it carries (document_shipments, role
 * 'guia'), so the load listing and each shipment's documents show the guide's number.
 */

const driver1 = alias(drivers, 'driver1');
const driver2 = alias(drivers, 'driver2');
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

async function visibleTransport(ctx: ServiceContext, user: SessionUser, transportId: number) {
  const [t] = await ctx.db
    .select({
      id: transports.id,
      platePrimary: transports.platePrimary,
      plateSecondary: transports.plateSecondary,
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

/** The whole load of the truck (the guide covers what it carries), oldest load first. */
async function loadOf(ctx: ServiceContext, transportId: number) {
  const rows = await ctx.db
    .select({
      shipmentId: shipments.id,
      code: shipments.code,
      description: shipments.description,
      weightKg: shipments.weightKg,
      senderName: shipments.senderName,
      senderDoc: customers.docNumber,
      senderAddress: customers.address,
      recipientName: shipments.recipientName,
      recipientDoc: shipments.recipientDoc,
      originName: shipmentOrigin.name,
      destinationName: shipmentDestination.name,
    })
    .from(transportAssignments)
    .innerJoin(shipments, eq(shipments.id, transportAssignments.shipmentId))
    .leftJoin(customers, eq(customers.id, shipments.senderCustomerId))
    .innerJoin(shipmentOrigin, eq(shipmentOrigin.id, shipments.originBranchId))
    .innerJoin(shipmentDestination, eq(shipmentDestination.id, shipments.destinationBranchId))
    .where(eq(transportAssignments.transportId, transportId))
    .orderBy(asc(transportAssignments.loadedAt), asc(transportAssignments.id));
  return rows;
}

/** `GET /transports/{id}/carrier-guide`: the GRE-T of the load, to review; 422 when nothing is loaded. */
export async function buildCarrierGuide(ctx: ServiceContext, user: SessionUser, transportId: number): Promise<CarrierGuideAnswer> {
  const t = await visibleTransport(ctx, user, transportId);
  const load = await loadOf(ctx, transportId);
  if (load.length === 0) throw unprocessable(GUIDE_API_MESSAGES.emptyLoad, undefined, 'EMPTY_LOAD');
  const warnings: string[] = [];
  if (!t.origin || !t.destination) warnings.push(GUIDE_API_MESSAGES.missing.route);
  if (t.origin && !t.origin.ubigeo) warnings.push(GUIDE_API_MESSAGES.missing.originUbigeo);
  if (t.destination && !t.destination.ubigeo) warnings.push(GUIDE_API_MESSAGES.missing.destinationUbigeo);
  if (!t.driver1 && !t.driver2) warnings.push(GUIDE_API_MESSAGES.missing.driver);
  // The document gate refuses the issue; the review already says why.
  const compliance = await transportCompliance(ctx, transportId);
  if (compliance.refusal && !compliance.override) warnings.push(compliance.refusal);
  const first = load[0]!;
  if (new Set(load.map((s) => s.senderDoc ?? s.senderName)).size > 1) warnings.push(GUIDE_API_MESSAGES.missing.severalSenders);
  if (new Set(load.map((s) => s.recipientDoc)).size > 1) warnings.push(GUIDE_API_MESSAGES.missing.severalRecipients);

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
  // Weights have 2 decimals: summing whole hundredths keeps the gross weight exact.
  const hundredths = load.reduce((sum, s) => sum + Math.round(Number(s.weightKg) * 100), 0);
  const today = limaDay(ctx.now());
  const description = (s: (typeof load)[number]) =>
    `${s.description?.trim() || 'Encomienda'} — Rem.: ${s.senderName} → Dest.: ${s.recipientName}`.slice(0, GUIDE_DESCRIPTION_MAX_LENGTH);

  return {
    transportId: t.id,
    type: '31',
    serie: DEFAULT_SERIES['31'],
    fecha_de_emision: today,
    fecha_de_inicio_de_traslado: today,
    cliente: { numero_de_documento: first.senderDoc ?? '', denominacion: first.senderName, direccion: first.senderAddress ?? null },
    motivo_de_traslado: '01',
    tipo_de_transporte: '02',
    numero_de_bultos: load.length,
    peso_bruto_total: (hundredths / 100).toFixed(2),
    peso_bruto_unidad_de_medida: 'KGM',
    punto_de_partida: point(t.origin),
    punto_de_llegada: point(t.destination),
    placa_numero: guidePlate(t.platePrimary),
    conductor: main ? driverOf(main) : null,
    destinatario: { documento_tipo: partyDocType(first.recipientDoc), documento_numero: first.recipientDoc, denominacion: first.recipientName },
    items: load.map((s) => ({
      codigo: s.code,
      descripcion: description(s),
      cantidad: '1',
      unidad_de_medida: 'NIU' as const,
      peso: Number(s.weightKg).toFixed(2),
    })),
    vehiculos_secundarios: t.plateSecondary ? [{ placa_numero: guidePlate(t.plateSecondary) }] : [],
    conductores_secundarios: secondary.map(driverOf),
    documentos_relacionados: [],
    observaciones: `Carga del transporte ${t.platePrimary}${t.route ? ` (${t.route})` : ''}: ${load.length} envío(s).`.slice(0, 500),
    shipments: load.map((s) => ({
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

/** Refuses a shipment already carried under a live guide (409), naming it and the guide. */
async function checkNotOnGuide(ctx: ServiceContext, load: { shipmentId: number; code: string }[]) {
  for (const s of load) {
    const live = await liveDocumentOfShipment(ctx.db, s.shipmentId, 'guia');
    if (live) throw conflict(GUIDE_API_MESSAGES.shipmentOnGuide(s.code, formatDocumentNumber(live.series, live.number)), undefined, 'ON_GUIDE');
  }
}

/** `POST /transports/{id}/carrier-guide`: issues the reviewed GRE-T and links every loaded shipment to it. */
export async function issueCarrierGuide(ctx: ServiceContext, user: SessionUser, transportId: number, payload: unknown): Promise<IssueAnswer> {
  await visibleTransport(ctx, user, transportId);
  const load = await loadOf(ctx, transportId);
  if (load.length === 0) return { statusCode: 422, result: refusal([GUIDE_API_MESSAGES.emptyLoad]) };
  // Issue 36: no GRE-T for a truck or driver whose required documents expired (unless overridden),
  // answered in this route's issue-result shape with the gate's own sentence.
  const gate = await transportCompliance(ctx, transportId);
  if (gate.refusal && !gate.override) return { statusCode: 422, result: { ...refusal([gate.refusal]), error: gate.refusal } };
  const check = checkGuide(payload, { today: limaDay(ctx.now()) });
  if (!check.ok) return { statusCode: 422, result: refusal(check.problems) };
  if (check.draft.type !== '31') return { statusCode: 422, result: refusal([GUIDE_API_MESSAGES.notCarrierGuide]) };
  // A retry of the same guide (its codigo_unico) is answered by the guide already issued, not refused.
  const retry = await findByIdempotencyKey(ctx.db, user.branchId, check.draft.uniqueCode);
  if (!retry) await checkNotOnGuide(ctx, load);
  return issueOther(
    ctx,
    user,
    guideIssue(
      check.draft,
      load.map((s) => s.shipmentId),
      () => checkNotOnGuide(ctx, load),
    ),
  );
}
