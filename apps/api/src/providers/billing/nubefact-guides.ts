import { centsToNumber, documentKey, type GuideDocumentType, type GuideDriver } from '@tramo/domain';
import { BillingProviderError, type GuideDocument, type VoucherDocument } from './types.ts';
import { GUIDE_UNIT_UNECE, PERCEPTION_REGIMES, RETENTION_REGIMES } from './ubl-guides.ts';

/*
 * The JSON Nubefact takes for the documents of issue 15 (SUNAT.md "Nubefact JSON API": guides
 * `generar_guia` / `consultar_guia` with tipo 7 remitente and 8 transportista; vouchers
 * `generar_retencion` / `generar_percepcion`, their `consultar_*` and `generar_reversion_*`).
 */

/** Nubefact's numbering of the guides (tipo_de_comprobante). */
export const NUBEFACT_GUIDE_TYPE: Record<GuideDocumentType, 7 | 8> = { '09': 7, '31': 8 };

export const NUBEFACT_GUIDE_MESSAGES = {
  rate: (what: string, allowed: string) => `Nubefact solo admite ${what} de ${allowed}.`,
} as const;

/** A calendar day (`YYYY-MM-DD`) as Nubefact's JSON wants it, `dd-mm-yyyy` (guides, vouchers and invoices alike). */
export const ddmmyyyy = (iso: string) => iso.split('-').reverse().join('-');
const soles = centsToNumber;

const driverFields = (d: GuideDriver) => ({
  documento_tipo: String(d.docType),
  documento_numero: d.docNumber,
  nombre: d.names,
  apellidos: d.surnames,
  numero_licencia: d.licence,
});

export function guideRequest(g: GuideDocument): Record<string, unknown> {
  const carrierMode = g.type === '31';
  const d = g.driver;
  return {
    operacion: 'generar_guia',
    tipo_de_comprobante: NUBEFACT_GUIDE_TYPE[g.type],
    serie: g.series,
    numero: g.number,
    cliente_tipo_de_documento: String(g.client.docType),
    cliente_numero_de_documento: g.client.docNumber,
    cliente_denominacion: g.client.name,
    cliente_direccion: g.client.address ?? '',
    cliente_email: g.client.email ?? '',
    fecha_de_emision: ddmmyyyy(g.issueDate),
    observaciones: g.observations ?? '',
    motivo_de_traslado: g.transferReason,
    peso_bruto_total: Number(g.grossWeight),
    peso_bruto_unidad_de_medida: g.grossWeightUnit,
    ...(g.bundles !== null && { numero_de_bultos: g.bundles }),
    tipo_de_transporte: g.transportType,
    fecha_de_inicio_de_traslado: ddmmyyyy(g.transferDate),
    ...(g.carrier && {
      transportista_documento_tipo: String(g.carrier.docType),
      transportista_documento_numero: g.carrier.docNumber,
      transportista_denominacion: g.carrier.name,
    }),
    transportista_placa_numero: g.plate ?? '',
    ...(d && {
      conductor_documento_tipo: String(d.docType),
      conductor_documento_numero: d.docNumber,
      conductor_nombre: d.names,
      conductor_apellidos: d.surnames,
      conductor_numero_licencia: d.licence,
    }),
    ...(carrierMode &&
      g.recipient && {
        destinatario_documento_tipo: String(g.recipient.docType),
        destinatario_documento_numero: g.recipient.docNumber,
        destinatario_denominacion: g.recipient.name,
      }),
    // GRE-T (issue 36): the carrier's MTC registration, the main vehicle's TUC / CHV and the day the
    // goods were handed to the carrier (SUNAT 4391, 4399 and 3617 without them).
    ...(carrierMode && g.mtcRegistration && { mtc: g.mtcRegistration }),
    ...(carrierMode && g.vehicleTuc && { tuc_vehiculo_principal: g.vehicleTuc }),
    ...(carrierMode && g.goodsDeliveredOn && { fecha_de_entrega_al_transportista: ddmmyyyy(g.goodsDeliveredOn) }),
    punto_de_partida_ubigeo: g.origin.ubigeo,
    punto_de_partida_direccion: g.origin.address,
    punto_de_partida_codigo_establecimiento_sunat: g.origin.establishmentCode ?? '',
    punto_de_llegada_ubigeo: g.destination.ubigeo,
    punto_de_llegada_direccion: g.destination.address,
    punto_de_llegada_codigo_establecimiento_sunat: g.destination.establishmentCode ?? '',
    enviar_automaticamente_a_la_sunat: true,
    enviar_automaticamente_al_cliente: false,
    codigo_unico: documentKey(g.type, g.series, g.number),
    formato_de_pdf: 'A4',
    items: g.items.map((i) => ({
      unidad_de_medida: GUIDE_UNIT_UNECE[i.unit],
      codigo: i.code ?? '',
      descripcion: i.description,
      cantidad: Number(i.quantity),
    })),
    documento_relacionado: g.relatedDocuments.map((r) => ({ tipo: r.type, serie: r.series, numero: Number(r.number) })),
    vehiculos_secundarios: g.secondaryPlates.map((placa_numero, i) => {
      const tuc = g.secondaryTucs[i] ?? null;
      return tuc ? { placa_numero, tuc } : { placa_numero };
    }),
    conductores_secundarios: g.secondaryDrivers.map(driverFields),
  };
}

/** Nubefact's rate table: retention 1 = 3 %, 2 = 6 %; perception 1 = 2 %, 2 = 1 %, 3 = 0.5 %. */
function rateCode(v: VoucherDocument): number {
  const retention = v.type === '20';
  const code = (retention ? RETENTION_REGIMES : PERCEPTION_REGIMES)[v.percent];
  if (!code) {
    throw new BillingProviderError(
      'rejected',
      retention ? NUBEFACT_GUIDE_MESSAGES.rate('retenciones', '3 % o 6 %') : NUBEFACT_GUIDE_MESSAGES.rate('percepciones', '2 %, 1 % o 0.5 %'),
      400,
    );
  }
  return Number(code);
}

export function voucherRequest(v: VoucherDocument): Record<string, unknown> {
  const retention = v.type === '20';
  const who = retention ? 'proveedor' : 'cliente';
  const s = v.subject;
  const related = (l: VoucherDocument['lines'][number]) => ({
    documento_relacionado_tipo: l.type,
    documento_relacionado_serie: l.series,
    documento_relacionado_numero: Number(l.number),
    documento_relacionado_fecha_de_emision: ddmmyyyy(l.issueDate ?? v.issueDate),
    documento_relacionado_moneda: 1,
    documento_relacionado_total: soles(l.totalCents),
  });
  const paid = (l: VoucherDocument['lines'][number]) => ddmmyyyy(l.paymentDate ?? v.issueDate);
  return {
    operacion: retention ? 'generar_retencion' : 'generar_percepcion',
    serie: v.series,
    numero: v.number,
    fecha_de_emision: ddmmyyyy(v.issueDate),
    [`${who}_tipo_de_documento`]: String(s.docType),
    [`${who}_numero_de_documento`]: s.docNumber,
    [`${who}_denominacion`]: s.name,
    [`${who}_direccion`]: s.address ?? '',
    [`${who}_email`]: s.email ?? '',
    moneda: 1,
    ...(retention
      ? { tipo_de_tasa_de_retencion: rateCode(v), total_retenido: soles(v.amountTotalCents), total_pagado: soles(v.netTotalCents) }
      : { tipo_de_tasa_de_percepcion: rateCode(v), total_percibido: soles(v.amountTotalCents), total_cobrado: soles(v.netTotalCents) }),
    observaciones: v.observations ?? '',
    enviar_automaticamente_a_la_sunat: true,
    enviar_automaticamente_al_cliente: false,
    codigo_unico: documentKey(v.type, v.series, v.number),
    items: v.lines.map((l) =>
      retention
        ? {
            ...related(l),
            pago_fecha: paid(l),
            pago_numero: l.paymentNumber,
            pago_total_sin_retencion: soles(l.baseCents),
            importe_retenido: soles(l.amountCents),
            importe_pagado_con_retencion: soles(l.netCents),
          }
        : {
            ...related(l),
            cobro_fecha: paid(l),
            cobro_numero: l.paymentNumber,
            cobro_total_sin_percepcion: soles(l.baseCents),
            importe_percibido: soles(l.amountCents),
            importe_cobrado_con_percepcion: soles(l.netCents),
          },
    ),
  };
}
