import Big from 'big.js';
import { z } from 'zod';
import { optionalText as cleanOptionalText } from '../primitives.ts';
import { isIsoDay } from '../dates.ts';
import { decimalPlaces, parseDecimal } from './amounts.ts';
import {
  isGuideDocumentType,
  isGuideUnit,
  isTransferReason,
  isTransportType,
  type GuideDocumentType,
  type GuideUnit,
  type GuideWeightUnit,
  type TransferReason,
  type TransportType,
} from './catalogs.ts';
import { isContingency, seriesProblems } from './series.ts';
import { placeProblems, type FormProblems } from './invoice-form.ts';

/*
 * The dispatch guide payload of spec section 3 (GRE remitente 09, GRE transportista 31) and every
 * rule of spec section 5 for it. As with invoices, the schema only checks the shape; `checkGuide`
 * lists every broken rule as the Spanish lines of the form's 'Corrige:' list and, when none is
 * broken, returns the draft the API numbers and hands to the billing provider.
 */

/** Decimals a guide quantity or weight may carry (SUNAT accepts up to 10; 3 is grams on a kilogram). */
export const GUIDE_QUANTITY_DECIMALS = 10;
export const GUIDE_WEIGHT_DECIMALS = 3;
export const GUIDE_DESCRIPTION_MAX_LENGTH = 250;

export const GUIDE_MESSAGES = {
  heading: 'Corrige:',
  typeInvalid: 'Tipo de guía inválido: 09 remitente o 31 transportista.',
  issueDateRequired: 'La fecha de emisión es obligatoria.',
  issueDateInvalid: 'La fecha de emisión no es válida.',
  issueDateFuture: 'La fecha de emisión no puede ser posterior a hoy.',
  transferDateRequired: 'La fecha de inicio del traslado es obligatoria.',
  transferDateInvalid: 'La fecha de inicio del traslado no es válida.',
  transferDateBeforeIssue: 'La fecha de inicio del traslado no puede ser anterior a la fecha de emisión.',
  clientDocument: 'Cliente: el documento debe tener 11 dígitos (RUC) u 8 dígitos (DNI).',
  clientName: 'Cliente: el nombre o razón social es obligatorio.',
  transferReason: 'Elige el motivo de traslado (01, 02, 04, 08, 09 o 13).',
  transportType: 'Elige el tipo de transporte (01 público o 02 privado).',
  bundles: 'El número de bultos es obligatorio y debe ser un entero mayor que 0.',
  carrierRuc: 'Transportista: el RUC debe tener 11 dígitos.',
  carrierName: 'Transportista: la razón social es obligatoria.',
  plateRequired: 'La placa del vehículo es obligatoria.',
  plate: 'La placa del vehículo debe tener de 6 a 8 letras o números.',
  driverDocument: 'Conductor: el número de documento es obligatorio (solo dígitos, hasta 15).',
  driverLicence: 'Conductor: el número de licencia es obligatorio.',
  driverNames: 'Conductor: los nombres y apellidos son obligatorios.',
  recipientDocument: 'Destinatario: el documento debe tener 11 dígitos (RUC) u 8 dígitos (DNI).',
  recipientName: 'Destinatario: el nombre o razón social es obligatorio.',
  ubigeo: (point: string) => `${point}: el ubigeo debe tener 6 dígitos.`,
  address: (point: string) => `${point}: la dirección es obligatoria.`,
  establishment: (point: string) => `${point}: el código de establecimiento SUNAT debe tener 4 dígitos.`,
  itemsRequired: 'Agrega al menos un ítem.',
  item: {
    description: (n: number) => `Ítem ${n}: la descripción es obligatoria.`,
    descriptionLong: (n: number) => `Ítem ${n}: la descripción admite hasta ${GUIDE_DESCRIPTION_MAX_LENGTH} caracteres.`,
    quantity: (n: number) => `Ítem ${n}: la cantidad debe ser un número mayor que 0.`,
    unit: (n: number) => `Ítem ${n}: unidad inválida (NIU, KG, TM o ZZ).`,
    weight: (n: number) => `Ítem ${n}: el peso debe ser un número mayor que 0, con hasta 3 decimales.`,
  },
  grossWeight: 'El peso bruto total debe ser un número mayor que 0, con hasta 3 decimales.',
  grossWeightUnknown: 'Indica el peso bruto total: no se puede calcular porque hay ítems sin peso.',
  weightUnit: 'La unidad del peso bruto debe ser KGM o TNE.',
  secondaryPlate: (n: number) => `Vehículo secundario ${n}: la placa debe tener de 6 a 8 letras o números.`,
  secondaryVehicles: 'Una guía transportista admite hasta 2 vehículos secundarios.',
  secondaryDrivers: 'Una guía transportista admite hasta 2 conductores secundarios.',
  mtc: 'El registro MTC del transportista debe tener de 1 a 20 letras mayúsculas o números.',
  tuc: (vehicle: string) => `${vehicle}: la TUC o el Certificado de Habilitación Vehicular debe tener de 10 a 15 letras mayúsculas o números.`,
  goodsDeliveredInvalid: 'La fecha de entrega de los bienes al transportista no es válida.',
  goodsDeliveredAfterStart: 'La fecha de entrega de los bienes al transportista no puede ser posterior al inicio del traslado.',
  secondaryDriver: (n: number) => `Conductor secundario ${n}: documento, licencia, nombres y apellidos son obligatorios.`,
  related: {
    type: (n: number) => `Documento relacionado ${n}: el tipo es obligatorio (2 dígitos).`,
    series: (n: number) => `Documento relacionado ${n}: la serie debe tener de 1 a 4 letras o números.`,
    number: (n: number) => `Documento relacionado ${n}: el número debe ser numérico.`,
  },
} as const;

const text = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .default('');
/** Free text of a document: trimmed, blank → null, no control characters (they would break the signed XML). */
const optionalText = cleanOptionalText(500);
const decimalField = z.union([z.number(), z.string()]);
const code = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim().padStart(2, '0'))
  .default('');

const pointSchema = z.object({
  ubigeo: text,
  direccion: text,
  codigo_establecimiento_sunat: optionalText,
});

const partySchema = z.object({
  documento_tipo: z.union([z.string(), z.number()]).nullish(),
  documento_numero: text,
  denominacion: text,
});

const driverSchema = z.object({
  documento_tipo: z.union([z.string(), z.number()]).nullish(),
  documento_numero: text,
  nombre: text,
  apellidos: text,
  numero_licencia: text,
});

const guideItemSchema = z.object({
  codigo: optionalText,
  descripcion: text,
  cantidad: decimalField.nullish(),
  unidad_de_medida: z.string().trim().toUpperCase().default('NIU'),
  /** The item's weight in kilograms, what the gross weight is computed from when left blank. */
  peso: decimalField.nullish(),
});

const relatedSchema = z.object({
  tipo: code,
  serie: z.string().trim().toUpperCase().default(''),
  numero: z.union([z.string(), z.number()]).transform((v) => String(v).trim()),
});

export const guidePayloadSchema = z.object({
  type: z.union([z.string(), z.number()]).transform((v) => String(v).padStart(2, '0')),
  serie: z.string().trim().toUpperCase().default(''),
  fecha_de_emision: text,
  fecha_de_inicio_de_traslado: text,
  cliente: z
    .object({
      numero_de_documento: text,
      denominacion: text,
      direccion: optionalText,
      email: optionalText,
    })
    .prefault({}),
  motivo_de_traslado: code,
  tipo_de_transporte: code,
  numero_de_bultos: z.union([z.number(), z.string()]).nullish(),
  peso_bruto_total: decimalField.nullish(),
  peso_bruto_unidad_de_medida: z.string().trim().toUpperCase().default('KGM'),
  punto_de_partida: pointSchema.prefault({}),
  punto_de_llegada: pointSchema.prefault({}),
  transportista: partySchema.nullish(),
  placa_numero: z.string().trim().toUpperCase().nullish(),
  conductor: driverSchema.nullish(),
  destinatario: partySchema.nullish(),
  items: z.array(guideItemSchema).default([]),
  vehiculos_secundarios: z
    .array(z.object({ placa_numero: z.string().trim().toUpperCase().default(''), tuc: z.string().trim().toUpperCase().nullish() }))
    .default([]),
  /** GRE-T: the carrier's MTC registration; blank = the company's (the API fills it in). */
  registro_mtc: z.string().trim().toUpperCase().nullish(),
  /** GRE-T: the main vehicle's TUC or Certificado de Habilitación Vehicular (SUNAT 4399 without it). */
  tuc_vehiculo_principal: z.string().trim().toUpperCase().nullish(),
  /** GRE-T: the day the goods were handed to the carrier (SUNAT 3617 without it, since 1 June 2026). */
  fecha_de_entrega_al_transportista: z.string().trim().nullish(),
  conductores_secundarios: z.array(driverSchema).default([]),
  documentos_relacionados: z.array(relatedSchema).default([]),
  observaciones: z.string().trim().max(500).nullish(),
  /** The client's idempotency key. */
  codigo_unico: z.string().trim().max(20).nullish(),
});

export type GuidePayloadInput = z.input<typeof guidePayloadSchema>;
export type GuidePayload = z.output<typeof guidePayloadSchema>;

export interface GuideParty {
  /** Catalogue 06: 6 RUC (11 digits), 1 DNI (8). */
  docType: 1 | 6;
  docNumber: string;
  name: string;
}

export interface GuidePoint {
  ubigeo: string;
  address: string;
  establishmentCode: string | null;
}

export interface GuideDriver {
  /** Catalogue 06; a DNI (1) unless the payload says otherwise. */
  docType: number;
  docNumber: string;
  names: string;
  surnames: string;
  licence: string;
}

export interface GuideItem {
  code: string | null;
  description: string;
  /** Decimal text, as typed ('2', '1.5'). */
  quantity: string;
  unit: GuideUnit;
  /** Kilograms as decimal text, when the item carried one. */
  weightKg: string | null;
}

export interface GuideRelatedDocument {
  type: string;
  series: string;
  number: string;
}

/** A guide ready to be numbered and issued. */
export interface GuideDraft {
  type: GuideDocumentType;
  /** 'remitente' (GRE-R) or 'transportista' (GRE-T). */
  mode: 'remitente' | 'transportista';
  series: string;
  issueDate: string;
  transferDate: string;
  contingency: boolean;
  client: GuideParty & { address: string | null; email: string | null };
  transferReason: TransferReason;
  transportType: TransportType;
  bundles: number | null;
  /** Decimal text in `grossWeightUnit`, at most 3 decimals. */
  grossWeight: string;
  grossWeightUnit: GuideWeightUnit;
  /** Whether the gross weight came from the items (the field was left blank). */
  grossWeightComputed: boolean;
  origin: GuidePoint;
  destination: GuidePoint;
  carrier: GuideParty | null;
  plate: string | null;
  driver: GuideDriver | null;
  recipient: GuideParty | null;
  items: GuideItem[];
  secondaryPlates: string[];
  /** The TUC / CHV of each secondary vehicle, in the order of `secondaryPlates` (null when not given). */
  secondaryTucs: (string | null)[];
  secondaryDrivers: GuideDriver[];
  /** GRE-T: the carrier's MTC registration (SUNAT observation 4391 without it). */
  mtcRegistration: string | null;
  /** GRE-T: the main vehicle's TUC / Certificado de Habilitación Vehicular. */
  vehicleTuc: string | null;
  /** GRE-T: when the goods were handed to the carrier (YYYY-MM-DD; SUNAT 3617). */
  goodsDeliveredOn: string | null;
  relatedDocuments: GuideRelatedDocument[];
  observations: string | null;
  uniqueCode: string | null;
}

export interface GuideContext {
  /** Today in Lima (YYYY-MM-DD). */
  today: string;
}

export type GuideCheck = { ok: true; draft: GuideDraft } | { ok: false; problems: string[] };

const PLATE = /^[A-Z0-9]{6,8}$/;
/** SUNAT's GRE-T patterns: the MTC registration (4392) and a vehicle's TUC / CHV (3355). */
export const GUIDE_MTC = /^(?!0+$)[0-9A-Z]{1,20}$/;
export const GUIDE_TUC = /^(?!0+$)[0-9A-Z]{10,15}$/;

/** Strip the hyphen people type in plates ('ABC-123' → 'ABC123'). */
export function guidePlate(plate: string): string {
  return plate.trim().toUpperCase().replace(/[-\s]/g, '');
}

export const isValidGuidePlate = (plate: string): boolean => PLATE.test(guidePlate(plate));

/** An 8-digit DNI or an 11-digit RUC, as the guide's parties take them. */
function partyDocType(doc: string): 1 | 6 | null {
  if (/^\d{11}$/.test(doc)) return 6;
  if (/^\d{8}$/.test(doc)) return 1;
  return null;
}

function positiveDecimal(value: unknown, maxDecimals: number): Big | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  const d = parseDecimal(value);
  if (!d || d.lte(0) || decimalPlaces(d) > maxDecimals) return null;
  return d;
}

const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

function checkDriver(d: z.output<typeof driverSchema>): GuideDriver | null {
  const ok = /^\d{1,15}$/.test(d.documento_numero) && d.numero_licencia !== '' && d.nombre !== '' && d.apellidos !== '';
  if (!ok) return null;
  return {
    docType: isBlank(d.documento_tipo) ? 1 : Number(d.documento_tipo),
    docNumber: d.documento_numero,
    names: d.nombre,
    surnames: d.apellidos,
    licence: d.numero_licencia.toUpperCase(),
  };
}

function checkPoint(point: z.output<typeof pointSchema>, label: string, problems: string[]): GuidePoint {
  if (!/^\d{6}$/.test(point.ubigeo)) problems.push(GUIDE_MESSAGES.ubigeo(label));
  if (point.direccion === '') problems.push(GUIDE_MESSAGES.address(label));
  const est = point.codigo_establecimiento_sunat ?? '';
  if (est !== '' && !/^\d{4}$/.test(est)) problems.push(GUIDE_MESSAGES.establishment(label));
  return { ubigeo: point.ubigeo, address: point.direccion, establishmentCode: est === '' ? null : est };
}

/** The kilograms an item weighs: its own weight, else its quantity when counted in KG or TM. */
export function guideItemWeightKg(item: { quantity: string; unit: GuideUnit; weightKg: string | null }): Big | null {
  if (item.weightKg !== null) return new Big(item.weightKg);
  if (item.unit === 'KG') return new Big(item.quantity);
  if (item.unit === 'TM') return new Big(item.quantity).times(1000);
  return null;
}

/** Every rule of spec section 5 (dispatch guide); a draft when all hold. */
export function checkGuide(input: unknown, ctx: GuideContext): GuideCheck {
  const parsed = guidePayloadSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)) };
  }
  const p = parsed.data;
  const problems: string[] = [];

  const type = p.type;
  const validType = isGuideDocumentType(type);
  if (!validType) problems.push(GUIDE_MESSAGES.typeInvalid);
  const carrierMode = type === '31';

  let contingency = false;
  if (p.fecha_de_emision === '') problems.push(GUIDE_MESSAGES.issueDateRequired);
  else if (!isIsoDay(p.fecha_de_emision)) problems.push(GUIDE_MESSAGES.issueDateInvalid);
  else if (p.fecha_de_emision > ctx.today) problems.push(GUIDE_MESSAGES.issueDateFuture);
  else contingency = isContingency(p.fecha_de_emision, ctx.today);
  if (validType) problems.push(...seriesProblems(type, p.serie, { contingency }));

  if (p.fecha_de_inicio_de_traslado === '') problems.push(GUIDE_MESSAGES.transferDateRequired);
  else if (!isIsoDay(p.fecha_de_inicio_de_traslado)) problems.push(GUIDE_MESSAGES.transferDateInvalid);
  else if (isIsoDay(p.fecha_de_emision) && p.fecha_de_inicio_de_traslado < p.fecha_de_emision) problems.push(GUIDE_MESSAGES.transferDateBeforeIssue);

  const clientDocType = partyDocType(p.cliente.numero_de_documento);
  if (!clientDocType) problems.push(GUIDE_MESSAGES.clientDocument);
  if (p.cliente.denominacion === '') problems.push(GUIDE_MESSAGES.clientName);

  const reason = p.motivo_de_traslado;
  if (!isTransferReason(reason)) problems.push(GUIDE_MESSAGES.transferReason);
  const transport = p.tipo_de_transporte;
  if (!isTransportType(transport)) problems.push(GUIDE_MESSAGES.transportType);

  let bundles: number | null = null;
  if (!isBlank(p.numero_de_bultos)) {
    const n = Number(p.numero_de_bultos);
    if (Number.isInteger(n) && n > 0) bundles = n;
    else problems.push(GUIDE_MESSAGES.bundles);
  } else if (!carrierMode) problems.push(GUIDE_MESSAGES.bundles);

  // Carrier (public transport), plate and driver (private transport or carrier mode), recipient (carrier mode).
  let carrier: GuideParty | null = null;
  const publicTransport = transport === '01';
  const needsVehicle = transport === '02' || carrierMode;
  if (publicTransport && !carrierMode) {
    const c = p.transportista;
    const doc = c?.documento_numero ?? '';
    if (!/^\d{11}$/.test(doc)) problems.push(GUIDE_MESSAGES.carrierRuc);
    if (!c || c.denominacion === '') problems.push(GUIDE_MESSAGES.carrierName);
    if (c && /^\d{11}$/.test(doc) && c.denominacion !== '') carrier = { docType: 6, docNumber: doc, name: c.denominacion };
  }
  const plateText = guidePlate(p.placa_numero ?? '');
  let plate: string | null = null;
  if (plateText === '') {
    if (publicTransport || needsVehicle) problems.push(GUIDE_MESSAGES.plateRequired);
  } else if (!PLATE.test(plateText)) problems.push(GUIDE_MESSAGES.plate);
  else plate = plateText;

  let driver: GuideDriver | null = null;
  if (needsVehicle) {
    const d = p.conductor;
    if (!d || !/^\d{1,15}$/.test(d.documento_numero)) problems.push(GUIDE_MESSAGES.driverDocument);
    if (!d || d.numero_licencia === '') problems.push(GUIDE_MESSAGES.driverLicence);
    if (!d || d.nombre === '' || d.apellidos === '') problems.push(GUIDE_MESSAGES.driverNames);
    driver = d ? checkDriver(d) : null;
  } else if (p.conductor) driver = checkDriver(p.conductor);

  let recipient: GuideParty | null = null;
  if (carrierMode) {
    const r = p.destinatario;
    const docType = partyDocType(r?.documento_numero ?? '');
    if (!docType) problems.push(GUIDE_MESSAGES.recipientDocument);
    if (!r || r.denominacion === '') problems.push(GUIDE_MESSAGES.recipientName);
    if (r && docType && r.denominacion !== '') recipient = { docType, docNumber: r.documento_numero, name: r.denominacion };
  }

  const origin = checkPoint(p.punto_de_partida, 'Punto de partida', problems);
  const destination = checkPoint(p.punto_de_llegada, 'Punto de llegada', problems);

  const items: GuideItem[] = [];
  if (p.items.length === 0) problems.push(GUIDE_MESSAGES.itemsRequired);
  p.items.forEach((item, i) => {
    const n = i + 1;
    let ok = true;
    if (item.descripcion === '') {
      problems.push(GUIDE_MESSAGES.item.description(n));
      ok = false;
    } else if (item.descripcion.length > GUIDE_DESCRIPTION_MAX_LENGTH) {
      problems.push(GUIDE_MESSAGES.item.descriptionLong(n));
      ok = false;
    }
    const quantity = positiveDecimal(item.cantidad, GUIDE_QUANTITY_DECIMALS);
    if (!quantity) {
      problems.push(GUIDE_MESSAGES.item.quantity(n));
      ok = false;
    }
    const unit = item.unidad_de_medida;
    if (!isGuideUnit(unit)) {
      problems.push(GUIDE_MESSAGES.item.unit(n));
      ok = false;
    }
    let weight: Big | null = null;
    if (!isBlank(item.peso)) {
      weight = positiveDecimal(item.peso, GUIDE_WEIGHT_DECIMALS);
      if (!weight) {
        problems.push(GUIDE_MESSAGES.item.weight(n));
        ok = false;
      }
    }
    if (ok && quantity && isGuideUnit(unit)) {
      items.push({
        code: item.codigo || null,
        description: item.descripcion,
        quantity: quantity.toString(),
        unit,
        weightKg: weight ? weight.toString() : null,
      });
    }
  });

  const weightUnit = p.peso_bruto_unidad_de_medida;
  if (weightUnit !== 'KGM' && weightUnit !== 'TNE') problems.push(GUIDE_MESSAGES.weightUnit);
  let grossWeight: Big | null = null;
  const computed = isBlank(p.peso_bruto_total);
  if (!computed) {
    grossWeight = positiveDecimal(p.peso_bruto_total, GUIDE_WEIGHT_DECIMALS);
    if (!grossWeight) problems.push(GUIDE_MESSAGES.grossWeight);
  } else if (items.length > 0 && items.length === p.items.length) {
    const weights = items.map(guideItemWeightKg);
    if (weights.some((w) => w === null)) problems.push(GUIDE_MESSAGES.grossWeightUnknown);
    else {
      const kg = weights.reduce<Big>((sum, w) => sum.plus(w ?? 0), new Big(0));
      grossWeight = (weightUnit === 'TNE' ? kg.div(1000) : kg).round(GUIDE_WEIGHT_DECIMALS, Big.roundHalfUp);
      if (grossWeight.lte(0)) problems.push(GUIDE_MESSAGES.grossWeight);
    }
  }

  const secondaryPlates: string[] = [];
  const secondaryTucs: (string | null)[] = [];
  p.vehiculos_secundarios.forEach((v, i) => {
    const pl = guidePlate(v.placa_numero);
    const tuc = v.tuc || null;
    if (!PLATE.test(pl)) problems.push(GUIDE_MESSAGES.secondaryPlate(i + 1));
    else if (tuc !== null && !GUIDE_TUC.test(tuc)) problems.push(GUIDE_MESSAGES.tuc(`Vehículo secundario ${i + 1}`));
    else {
      secondaryPlates.push(pl);
      secondaryTucs.push(tuc);
    }
  });
  if (carrierMode && p.vehiculos_secundarios.length > 2) problems.push(GUIDE_MESSAGES.secondaryVehicles);
  if (carrierMode && p.conductores_secundarios.length > 2) problems.push(GUIDE_MESSAGES.secondaryDrivers);
  const mtcRegistration = p.registro_mtc || null;
  if (mtcRegistration !== null && !GUIDE_MTC.test(mtcRegistration)) problems.push(GUIDE_MESSAGES.mtc);
  const vehicleTuc = p.tuc_vehiculo_principal || null;
  if (vehicleTuc !== null && !GUIDE_TUC.test(vehicleTuc)) problems.push(GUIDE_MESSAGES.tuc('Vehículo principal'));
  const goodsDeliveredOn = p.fecha_de_entrega_al_transportista || null;
  if (goodsDeliveredOn !== null) {
    if (!isIsoDay(goodsDeliveredOn)) problems.push(GUIDE_MESSAGES.goodsDeliveredInvalid);
    else if (isIsoDay(p.fecha_de_inicio_de_traslado) && goodsDeliveredOn > p.fecha_de_inicio_de_traslado)
      problems.push(GUIDE_MESSAGES.goodsDeliveredAfterStart);
  }
  const secondaryDrivers: GuideDriver[] = [];
  p.conductores_secundarios.forEach((d, i) => {
    const ok = checkDriver(d);
    if (!ok) problems.push(GUIDE_MESSAGES.secondaryDriver(i + 1));
    else secondaryDrivers.push(ok);
  });

  const relatedDocuments: GuideRelatedDocument[] = [];
  p.documentos_relacionados.forEach((r, i) => {
    const n = i + 1;
    let ok = true;
    if (!/^\d{2}$/.test(r.tipo)) {
      problems.push(GUIDE_MESSAGES.related.type(n));
      ok = false;
    }
    if (!/^[A-Z0-9]{1,4}$/.test(r.serie)) {
      problems.push(GUIDE_MESSAGES.related.series(n));
      ok = false;
    }
    if (!/^\d{1,8}$/.test(r.numero)) {
      problems.push(GUIDE_MESSAGES.related.number(n));
      ok = false;
    }
    if (ok) relatedDocuments.push({ type: r.tipo, series: r.serie, number: r.numero });
  });

  if (problems.length > 0 || !validType || !clientDocType || !isTransferReason(reason) || !isTransportType(transport) || !grossWeight) {
    return { ok: false, problems: problems.length > 0 ? problems : [GUIDE_MESSAGES.grossWeight] };
  }

  return {
    ok: true,
    draft: {
      type,
      mode: carrierMode ? 'transportista' : 'remitente',
      series: p.serie,
      issueDate: p.fecha_de_emision,
      transferDate: p.fecha_de_inicio_de_traslado,
      contingency,
      client: {
        docType: clientDocType,
        docNumber: p.cliente.numero_de_documento,
        name: p.cliente.denominacion,
        address: p.cliente.direccion || null,
        email: p.cliente.email || null,
      },
      transferReason: reason,
      transportType: transport,
      bundles,
      grossWeight: grossWeight.toString(),
      grossWeightUnit: weightUnit === 'TNE' ? 'TNE' : 'KGM',
      grossWeightComputed: computed,
      origin,
      destination,
      carrier,
      plate,
      driver,
      recipient,
      items,
      secondaryPlates,
      secondaryTucs,
      secondaryDrivers,
      mtcRegistration: carrierMode ? mtcRegistration : null,
      vehicleTuc: carrierMode ? vehicleTuc : null,
      goodsDeliveredOn: carrierMode ? goodsDeliveredOn : null,
      relatedDocuments,
      observations: p.observaciones || null,
      uniqueCode: p.codigo_unico || null,
    },
  };
}

/** The guide form's fields a problem can sit on (the payload's own names, as the web form holds them). */
export interface GuideFormFields {
  type: string;
  serie: string;
  fecha_de_emision: string;
  items: readonly unknown[];
  vehiculos_secundarios: readonly unknown[];
  conductores_secundarios: readonly unknown[];
  documentos_relacionados: readonly unknown[];
}

/**
 * Puts each problem of `checkGuide` on its field of the form ('conductor.numero_licencia',
 * 'items.0.peso'), as `invoiceFormProblems` does for the factura; the rest stay for 'Corrige:'.
 */
export function guideFormProblems(values: GuideFormFields, problems: readonly string[], today: string): FormProblems {
  const where = new Map<string, string>();
  const put = (field: string, ...messages: string[]) => messages.forEach((m) => where.has(m) || where.set(m, field));
  const M = GUIDE_MESSAGES;
  put('fecha_de_emision', M.issueDateRequired, M.issueDateInvalid, M.issueDateFuture);
  const type = values.type.padStart(2, '0');
  const date = values.fecha_de_emision;
  if (type === '09' || type === '31') {
    const contingency = isIsoDay(date) && date <= today && isContingency(date, today);
    put('serie', ...seriesProblems(type, values.serie.trim().toUpperCase(), { contingency }));
  }
  put('fecha_de_inicio_de_traslado', M.transferDateRequired, M.transferDateInvalid, M.transferDateBeforeIssue);
  put('cliente.numero_de_documento', M.clientDocument);
  put('cliente.denominacion', M.clientName);
  put('motivo_de_traslado', M.transferReason);
  put('tipo_de_transporte', M.transportType);
  put('numero_de_bultos', M.bundles);
  put('transportista.documento_numero', M.carrierRuc);
  put('transportista.denominacion', M.carrierName);
  put('placa_numero', M.plateRequired, M.plate);
  put('conductor.documento_numero', M.driverDocument);
  put('conductor.numero_licencia', M.driverLicence);
  put('conductor.nombre', M.driverNames);
  put('destinatario.documento_numero', M.recipientDocument);
  put('destinatario.denominacion', M.recipientName);
  for (const [name, label] of [
    ['punto_de_partida', 'Punto de partida'],
    ['punto_de_llegada', 'Punto de llegada'],
  ] as const) {
    put(`${name}.ubigeo`, M.ubigeo(label));
    put(`${name}.direccion`, M.address(label));
    put(`${name}.codigo_establecimiento_sunat`, M.establishment(label));
  }
  values.items.forEach((_, i) => {
    const n = i + 1;
    put(`items.${i}.descripcion`, M.item.description(n), M.item.descriptionLong(n));
    put(`items.${i}.cantidad`, M.item.quantity(n));
    put(`items.${i}.unidad_de_medida`, M.item.unit(n));
    put(`items.${i}.peso`, M.item.weight(n));
  });
  put('peso_bruto_total', M.grossWeight, M.grossWeightUnknown);
  put('peso_bruto_unidad_de_medida', M.weightUnit);
  values.vehiculos_secundarios.forEach((_, i) => {
    put(`vehiculos_secundarios.${i}.placa_numero`, M.secondaryPlate(i + 1));
    put(`vehiculos_secundarios.${i}.tuc`, M.tuc(`Vehículo secundario ${i + 1}`));
  });
  put('registro_mtc', M.mtc);
  put('tuc_vehiculo_principal', M.tuc('Vehículo principal'));
  put('fecha_de_entrega_al_transportista', M.goodsDeliveredInvalid, M.goodsDeliveredAfterStart);
  values.conductores_secundarios.forEach((_, i) => put(`conductores_secundarios.${i}.documento_numero`, M.secondaryDriver(i + 1)));
  values.documentos_relacionados.forEach((_, i) => {
    const n = i + 1;
    put(`documentos_relacionados.${i}.tipo`, M.related.type(n));
    put(`documentos_relacionados.${i}.serie`, M.related.series(n));
    put(`documentos_relacionados.${i}.numero`, M.related.number(n));
  });
  return placeProblems(problems, where);
}
