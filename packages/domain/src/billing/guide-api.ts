/**
 * The wire contract of the guides and vouchers endpoints (issue 15): the spec's paths
 * `POST /guides/consult {tipo, serie, numero}`, `POST /payments/nubefact/consult|annul|annul-status`
 * and the carrier guide built from a transport's load. Both sides infer their types from these.
 */
import { z } from 'zod';
import { DOCUMENT_STATUSES, SUNAT_DOCUMENT_TYPES, type SunatDocumentType } from './catalogs.ts';
import { voidReasonField } from './documents.ts';

/** Nubefact numbers the documents its own way (1 factura, 2 boleta, 3 nota de crédito, 7 GRE-R, 8 GRE-T). */
const NUBEFACT_NUMBERING: Record<string, SunatDocumentType> = { '1': '01', '2': '03', '3': '07', '7': '09', '8': '31' };

/**
 * A document type as a caller may write it: SUNAT's code ('01', '09', 20…) or Nubefact's number
 * (1, 2, 3, 7, 8; 9 is read as '09'). Anything else is null.
 */
export function sunatDocumentType(value: string | number): SunatDocumentType | null {
  const text = String(value).trim();
  if ((SUNAT_DOCUMENT_TYPES as readonly string[]).includes(text)) return text as SunatDocumentType;
  if (text === '9') return '09';
  return NUBEFACT_NUMBERING[text] ?? null;
}

export const GUIDE_API_MESSAGES = {
  typeInvalid: 'Tipo de documento inválido: 01, 03, 07, 09, 31, 20 o 40 (o 1, 2, 3, 7, 8 de Nubefact).',
  guideTypeInvalid: 'Tipo de guía inválido: 09 remitente o 31 transportista.',
  seriesInvalid: 'La serie debe tener 4 letras o números.',
  numberInvalid: 'El número debe ser un entero entre 1 y 99999999.',
  notFound: 'Documento no encontrado.',
  emptyLoad: 'El transporte no tiene envíos cargados.',
  transportForbidden: 'No tienes acceso a este transporte: su ruta no pasa por tu sucursal.',
  notCarrierGuide: 'La guía de un transporte es una guía de remisión transportista (tipo 31).',
  shipmentOnGuide: (code: string, guide: string) => `El envío ${code} ya está en la guía ${guide}.`,
  guidePending: 'Guía emitida. Aún no hay PDF (SUNAT pendiente): consúltala más tarde.',
  voidReason: 'Indica el motivo de la anulación.',
  /** The carrier guide's warnings: data the transport or its branches lack, for the user to fill in. */
  missing: {
    driver: 'El transporte no tiene conductor asignado: indica el conductor.',
    originUbigeo: 'La sucursal de origen no tiene ubigeo: indícalo en el punto de partida.',
    destinationUbigeo: 'La sucursal de destino no tiene ubigeo: indícalo en el punto de llegada.',
    route: 'El transporte no tiene ruta (origen y destino): indica los puntos de partida y llegada.',
    mtc: 'La empresa no tiene registro MTC: indícalo en Configuración › Empresa (SUNAT 4391).',
    tuc: (plate: string) => `El vehículo ${plate} no tiene TUC / Certificado de Habilitación Vehicular: indícalo en Transportes (SUNAT 4399).`,
    otherPairs: (n: number) =>
      n === 1
        ? 'La carga tiene otro par remitente/destinatario: tendrá su propia guía (usa «Emitir guías» para emitirlas todas).'
        : `La carga tiene otros ${n} pares remitente/destinatario: cada uno tendrá su propia guía (usa «Emitir guías» para emitirlas todas).`,
  },
  /** A carrier guide covers one remitente/destinatario pair of the load. */
  noShipmentsOfPair: 'Ningún envío de la carga sin guía es de ese remitente para ese destinatario.',
  allOnGuides: 'Todos los envíos de la carga ya tienen su guía transportista.',
} as const;

const seriesField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{4}$/, GUIDE_API_MESSAGES.seriesInvalid);
const numberField = z.coerce
  .number({ error: GUIDE_API_MESSAGES.numberInvalid })
  .int(GUIDE_API_MESSAGES.numberInvalid)
  .min(1, GUIDE_API_MESSAGES.numberInvalid)
  .max(99_999_999, GUIDE_API_MESSAGES.numberInvalid);
const typeField = (message: string, accept: (t: SunatDocumentType) => boolean = () => true) =>
  z.union([z.string().max(3), z.number().int()]).transform((v, ctx) => {
    const t = sunatDocumentType(v);
    if (!t || !accept(t)) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return t;
  });

/** `POST /guides/consult`: which guide (tipo '09'/'31', or Nubefact's 7/8). */
export const guideConsultRequestSchema = z.object({
  tipo: typeField(GUIDE_API_MESSAGES.guideTypeInvalid, (t) => t === '09' || t === '31'),
  serie: seriesField,
  numero: numberField,
});

/** `POST /payments/nubefact/consult` and `/annul-status`: any document of the register. */
export const providerRefRequestSchema = z.object({
  type: typeField(GUIDE_API_MESSAGES.typeInvalid),
  series: seriesField,
  number: numberField,
});
export type ProviderRefRequest = z.output<typeof providerRefRequestSchema>;

/** `POST /payments/nubefact/annul`: the document, the reason (voidReasonField) and the caller's unique code. */
export const providerAnnulRequestSchema = providerRefRequestSchema.extend({
  reason: voidReasonField.default(''),
  codigo_unico: z.string().trim().max(40).nullish(),
});

/** What consult / annul / annul-status answer: where the document stands, with Nubefact's answer names. */
export const documentStateSchema = z.object({
  id: z.number().int(),
  type: z.enum(SUNAT_DOCUMENT_TYPES),
  serie: z.string(),
  numero: z.number().int(),
  status: z.enum(DOCUMENT_STATUSES),
  aceptada_por_sunat: z.boolean(),
  anulado: z.boolean(),
  sunat_description: z.string().nullable(),
  /** Null while there is no PDF (a guide SUNAT has not accepted yet). */
  enlace_del_pdf: z.string().nullable(),
  enlace_del_xml: z.string().nullable(),
  cadena_para_codigo_qr: z.string().nullable(),
  codigo_hash: z.string().nullable(),
});
export type DocumentState = z.infer<typeof documentStateSchema>;

const pointAnswer = z.object({ ubigeo: z.string(), direccion: z.string(), codigo_establecimiento_sunat: z.string().nullable() });
const partyAnswer = z.object({ documento_tipo: z.string(), documento_numero: z.string(), denominacion: z.string() });
const driverAnswer = z.object({
  documento_tipo: z.string(),
  documento_numero: z.string(),
  nombre: z.string(),
  apellidos: z.string(),
  numero_licencia: z.string(),
});

/** The GRE-T pre-filled from a transport's load: a guide payload (`POST /guides/create-emit` takes it as it is). */
export const carrierGuidePayloadSchema = z.object({
  type: z.literal('31'),
  serie: z.string(),
  fecha_de_emision: z.string(),
  fecha_de_inicio_de_traslado: z.string(),
  cliente: z.object({ numero_de_documento: z.string(), denominacion: z.string(), direccion: z.string().nullable() }),
  motivo_de_traslado: z.string(),
  tipo_de_transporte: z.string(),
  numero_de_bultos: z.number().int(),
  peso_bruto_total: z.string(),
  peso_bruto_unidad_de_medida: z.literal('KGM'),
  punto_de_partida: pointAnswer,
  punto_de_llegada: pointAnswer,
  placa_numero: z.string(),
  conductor: driverAnswer.nullable(),
  destinatario: partyAnswer,
  items: z.array(
    z.object({ codigo: z.string(), descripcion: z.string(), cantidad: z.string(), unidad_de_medida: z.literal('NIU'), peso: z.string() }),
  ),
  vehiculos_secundarios: z.array(z.object({ placa_numero: z.string(), tuc: z.string().nullable() })),
  conductores_secundarios: z.array(driverAnswer),
  registro_mtc: z.string().nullable(),
  tuc_vehiculo_principal: z.string().nullable(),
  fecha_de_entrega_al_transportista: z.string(),
  documentos_relacionados: z.array(z.object({ tipo: z.string(), serie: z.string(), numero: z.string() })),
  observaciones: z.string().nullable(),
});

/**
 * `GET /transports/{id}/carrier-guide`: the guide payload itself (the form takes it as it comes),
 * plus the transport, each loaded shipment's parties, and what the transport or its branches lack.
 */
export const carrierGuideAnswerSchema = carrierGuidePayloadSchema.extend({
  transportId: z.number().int(),
  shipments: z.array(
    z.object({
      shipmentId: z.number().int(),
      code: z.string(),
      description: z.string(),
      weightKg: z.number(),
      sender: z.object({ documento_numero: z.string().nullable(), denominacion: z.string() }),
      recipient: z.object({ documento_numero: z.string(), denominacion: z.string() }),
      originName: z.string(),
      destinationName: z.string(),
    }),
  ),
  /** Spanish notes on data the transport or its branches lack; the payload still comes, to complete by hand. */
  warnings: z.array(z.string()),
});
export type CarrierGuideAnswer = z.infer<typeof carrierGuideAnswerSchema>;

/** `POST /transports/{id}/carrier-guides` ('Emitir guías'): one GRE-T per remitente/destinatario pair still without one. */
export const carrierGuidesAnswerSchema = z.object({
  guides: z.array(
    z.object({
      shipmentCodes: z.array(z.string()),
      ok: z.boolean(),
      id: z.number().int().nullable(),
      serie: z.string().nullable(),
      numero: z.number().int().nullable(),
      status: z.string().nullable(),
      error: z.string().nullable(),
    }),
  ),
});
export type CarrierGuidesAnswer = z.infer<typeof carrierGuidesAnswerSchema>;
export type CarrierGuidePayload = z.infer<typeof carrierGuidePayloadSchema>;

/** `PUT /shipments/{id}/sender-guide`: the GRE remitente the sender issued for the shipment (issue 36). */
export const SENDER_GUIDE_MESSAGES = {
  series: 'Serie de la GRE remitente inválida: T y 3 letras o números (o 4 dígitos en contingencia).',
  number: 'Número de la GRE remitente inválido: un entero de 1 a 99999999.',
} as const;
export const senderGuideSchema = z.object({
  serie: z
    .string({ error: SENDER_GUIDE_MESSAGES.series })
    .trim()
    .toUpperCase()
    .regex(/^(T[A-Z0-9]{3}|[0-9]{4}|EG0[27])$/, SENDER_GUIDE_MESSAGES.series),
  numero: z.coerce
    .number({ error: SENDER_GUIDE_MESSAGES.number })
    .int(SENDER_GUIDE_MESSAGES.number)
    .min(1, SENDER_GUIDE_MESSAGES.number)
    .max(99_999_999, SENDER_GUIDE_MESSAGES.number),
});
export const senderGuideAnswerSchema = z.object({ shipmentId: z.number().int(), serie: z.string(), numero: z.number().int() });
export type SenderGuide = z.infer<typeof senderGuideAnswerSchema>;
