import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local Nubefact, written from the documented contract (SUNAT.md "Nubefact JSON API"), not from
 * the adapter: every request is checked field by field (names, types, formats, the token header)
 * and each breach is recorded, so a test fails on any drift from the contract. It answers like
 * Nubefact: a boleta is first `aceptada_por_sunat: false` and accepted on a later consult; a void
 * is pending until consulted; duplicates get codigo 23 and unknown documents codigo 24.
 */

export type FakeFailure =
  /** Never answer (the client times out); with `process`, the request takes effect first. */
  | { kind: 'timeout'; process?: boolean }
  /** 200 with a body that is not JSON. */
  | { kind: 'malformed' }
  /** A Nubefact error `{errors, codigo}` with an HTTP status (default 400). */
  | { kind: 'error'; codigo: number; status?: number; errors?: string }
  /** A bare HTTP status without a JSON body (a proxy's 502, say). */
  | { kind: 'status'; status: number }
  /** The document is taken and SUNAT rejects it: `aceptada_por_sunat: false` with SUNAT's code and words. */
  | { kind: 'sunat-rejects'; code: string; description: string };

export interface RecordedRequest {
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: Record<string, unknown> | null;
  /** Every way the request breaks the contract; empty when it is right. */
  violations: string[];
}

interface StoredDocument {
  request: Record<string, unknown>;
  accepted: boolean;
  hash: string;
  voidRequested: boolean;
  voided: boolean;
  ticket: string | null;
  /** SUNAT rejected it (a `sunat-rejects` failure): answered so on every consult. */
  rejection?: { code: string; description: string };
}

export interface FakeNubefact {
  url: string;
  token: string;
  requests: RecordedRequest[];
  documents: Map<string, StoredDocument>;
  failNext(failure: FakeFailure): void;
  close(): Promise<void>;
}

const DATE = /^(\d{2})-(\d{2})-(\d{4})$/;
const isDate = (v: unknown) => {
  const m = typeof v === 'string' ? DATE.exec(v) : null;
  if (!m) return false;
  const d = new Date(`${m[3]}-${m[2]}-${m[1]}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.getUTCDate() === Number(m[1]);
};
const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const twoDecimals = (v: unknown) => isNum(v) && Math.abs(Math.round((v as number) * 100) - (v as number) * 100) < 1e-6;
const isStr = (v: unknown) => typeof v === 'string';
const cents = (v: unknown) => (isNum(v) ? Math.round((v as number) * 100) : Number.NaN);
const near = (a: number, b: number) => Math.abs(a - b) <= 1;

const INVOICE_FIELDS = new Set([
  'operacion',
  'tipo_de_comprobante',
  'serie',
  'numero',
  'sunat_transaction',
  'cliente_tipo_de_documento',
  'cliente_numero_de_documento',
  'cliente_denominacion',
  'cliente_direccion',
  'cliente_email',
  'cliente_email_1',
  'cliente_email_2',
  'fecha_de_emision',
  'fecha_de_vencimiento',
  'moneda',
  'tipo_de_cambio',
  'porcentaje_de_igv',
  'descuento_global',
  'total_descuento',
  'total_anticipo',
  'total_gravada',
  'total_inafecta',
  'total_exonerada',
  'total_igv',
  'total_gratuita',
  'total_otros_cargos',
  'total',
  'percepcion_tipo',
  'percepcion_base_imponible',
  'total_percepcion',
  'total_incluido_percepcion',
  'detraccion',
  'detraccion_tipo',
  'detraccion_total',
  'detraccion_porcentaje',
  'medio_de_pago_detraccion',
  'ubigeo_origen',
  'direccion_origen',
  'ubigeo_destino',
  'direccion_destino',
  'detalle_viaje',
  'val_ref_serv_trans',
  'val_ref_carga_efec',
  'val_ref_carga_util',
  'observaciones',
  'documento_que_se_modifica_tipo',
  'documento_que_se_modifica_serie',
  'documento_que_se_modifica_numero',
  'tipo_de_nota_de_credito',
  'tipo_de_nota_de_debito',
  'enviar_automaticamente_a_la_sunat',
  'enviar_automaticamente_al_cliente',
  'codigo_unico',
  'condiciones_de_pago',
  'medio_de_pago',
  'placa_vehiculo',
  'orden_compra_servicio',
  'formato_de_pdf',
  'generado_por_contingencia',
  'items',
  'guias',
  'venta_al_credito',
]);
const ITEM_FIELDS = new Set([
  'unidad_de_medida',
  'codigo',
  'codigo_producto_sunat',
  'descripcion',
  'cantidad',
  'valor_unitario',
  'precio_unitario',
  'descuento',
  'subtotal',
  'tipo_de_igv',
  'igv',
  'total',
  'anticipo_regularizacion',
]);

function checkInvoice(b: Record<string, unknown>): string[] {
  const v: string[] = [];
  const need = (ok: boolean, message: string) => {
    if (!ok) v.push(message);
  };
  for (const key of Object.keys(b)) need(INVOICE_FIELDS.has(key), `campo desconocido: ${key}`);
  const tipo = b.tipo_de_comprobante;
  need(tipo === 1 || tipo === 2 || tipo === 3, 'tipo_de_comprobante debe ser 1, 2 o 3 (número)');
  need(isStr(b.serie) && /^[FB0][A-Z0-9]{3}$/.test(b.serie as string), 'serie: 4 caracteres, F…, B… o 0… (contingencia)');
  if (tipo === 1) need(/^[F0]/.test(String(b.serie)), 'serie de factura debe empezar con F');
  if (tipo === 2) need(/^[B0]/.test(String(b.serie)), 'serie de boleta debe empezar con B');
  need(isInt(b.numero) && (b.numero as number) >= 1 && (b.numero as number) <= 99_999_999, 'numero: entero de 1 a 99999999');
  need(isInt(b.sunat_transaction), 'sunat_transaction: entero');
  need(
    ['6', '1', '4', '7', '-', '0', 'A'].includes(b.cliente_tipo_de_documento as string),
    'cliente_tipo_de_documento: "6", "1", "4", "7", "-", "0" o "A"',
  );
  if (tipo === 1) need(b.cliente_tipo_de_documento === '6', 'una factura requiere cliente_tipo_de_documento "6"');
  if (b.cliente_tipo_de_documento === '6') need(/^\d{11}$/.test(String(b.cliente_numero_de_documento)), 'RUC del cliente: 11 dígitos');
  if (b.cliente_tipo_de_documento === '1') need(/^\d{8}$/.test(String(b.cliente_numero_de_documento)), 'DNI del cliente: 8 dígitos');
  need(isStr(b.cliente_numero_de_documento), 'cliente_numero_de_documento: texto');
  need(
    isStr(b.cliente_denominacion) && (b.cliente_denominacion as string).length > 0 && (b.cliente_denominacion as string).length <= 100,
    'cliente_denominacion: 1 a 100 caracteres',
  );
  need(isStr(b.cliente_direccion), 'cliente_direccion: texto');
  need(b.cliente_email === '' || (isStr(b.cliente_email) && /^[^@\s]+@[^@\s]+$/.test(b.cliente_email as string)), 'cliente_email: vacío o correo');
  need(isDate(b.fecha_de_emision), 'fecha_de_emision: DD-MM-AAAA');
  need(b.fecha_de_vencimiento === '' || isDate(b.fecha_de_vencimiento), 'fecha_de_vencimiento: vacía o DD-MM-AAAA');
  need(b.moneda === 1, 'moneda: 1 (soles)');
  need(b.porcentaje_de_igv === 18, 'porcentaje_de_igv: 18');
  for (const key of ['total_gravada', 'total_inafecta', 'total_exonerada', 'total_igv', 'total'])
    need(twoDecimals(b[key]), `${key}: número con hasta 2 decimales`);
  need(b.total_descuento === '' || twoDecimals(b.total_descuento), 'total_descuento: vacío o número');
  need(
    near(cents(b.total), cents(b.total_gravada) + cents(b.total_inafecta) + cents(b.total_exonerada) + cents(b.total_igv)),
    'total debe ser gravada + inafecta + exonerada + igv',
  );
  for (const key of ['enviar_automaticamente_a_la_sunat', 'enviar_automaticamente_al_cliente', 'generado_por_contingencia', 'detraccion']) {
    need(typeof b[key] === 'boolean', `${key}: true o false`);
  }
  need(isStr(b.codigo_unico) && (b.codigo_unico as string).length <= 20, 'codigo_unico: texto de hasta 20 caracteres');

  const items = Array.isArray(b.items) ? (b.items as Record<string, unknown>[]) : null;
  need(!!items && items.length > 0, 'items: al menos uno');
  const sums = { 1: 0, 8: 0, 9: 0, igv: 0 };
  items?.forEach((it, i) => {
    const at = `items[${i}]`;
    for (const key of Object.keys(it)) need(ITEM_FIELDS.has(key), `${at}: campo desconocido ${key}`);
    need(isStr(it.unidad_de_medida) && /^[A-Z0-9]{2,3}$/.test(it.unidad_de_medida as string), `${at}.unidad_de_medida: código de unidad`);
    need(isStr(it.codigo), `${at}.codigo: texto`);
    need(
      isStr(it.descripcion) && (it.descripcion as string).length > 0 && (it.descripcion as string).length <= 250,
      `${at}.descripcion: 1 a 250 caracteres`,
    );
    need(isNum(it.cantidad) && (it.cantidad as number) > 0, `${at}.cantidad: número > 0`);
    need(isNum(it.valor_unitario) && (it.valor_unitario as number) > 0, `${at}.valor_unitario: número > 0`);
    need(isNum(it.precio_unitario), `${at}.precio_unitario: número`);
    need(it.descuento === '' || twoDecimals(it.descuento), `${at}.descuento: vacío o número`);
    need(it.tipo_de_igv === 1 || it.tipo_de_igv === 8 || it.tipo_de_igv === 9, `${at}.tipo_de_igv: 1, 8 o 9`);
    for (const key of ['subtotal', 'igv', 'total']) need(twoDecimals(it[key]), `${at}.${key}: número con hasta 2 decimales`);
    need(typeof it.anticipo_regularizacion === 'boolean', `${at}.anticipo_regularizacion: true o false`);
    const gross = Math.round((it.cantidad as number) * (it.valor_unitario as number) * 100);
    need(near(cents(it.subtotal), gross - (it.descuento === '' ? 0 : cents(it.descuento))), `${at}.subtotal: cantidad × valor_unitario − descuento`);
    const expectedIgv = it.tipo_de_igv === 1 ? Math.round(cents(it.subtotal) * 0.18) : 0;
    need(near(cents(it.igv), expectedIgv), `${at}.igv: 18 % del subtotal si es gravado, 0 si no`);
    need(cents(it.total) === cents(it.subtotal) + cents(it.igv), `${at}.total: subtotal + igv`);
    if (it.tipo_de_igv === 1 || it.tipo_de_igv === 8 || it.tipo_de_igv === 9) sums[it.tipo_de_igv] += cents(it.subtotal);
    sums.igv += cents(it.igv);
  });
  need(sums[1] === cents(b.total_gravada), 'total_gravada: suma de subtotales gravados');
  need(sums[8] === cents(b.total_exonerada), 'total_exonerada: suma de subtotales exonerados');
  need(sums[9] === cents(b.total_inafecta), 'total_inafecta: suma de subtotales inafectos');
  need(sums.igv === cents(b.total_igv), 'total_igv: suma de igv de los items');

  if (b.detraccion === true) {
    need(tipo === 1, 'detracción solo en facturas');
    need(b.sunat_transaction === 30 || b.sunat_transaction === 33, 'sunat_transaction 30 o 33 con detracción');
    need(isInt(b.detraccion_tipo), 'detraccion_tipo: entero (tabla de Nubefact)');
    need(twoDecimals(b.detraccion_total) && (b.detraccion_total as number) > 0, 'detraccion_total: número > 0');
    need(isNum(b.detraccion_porcentaje) && (b.detraccion_porcentaje as number) > 0, 'detraccion_porcentaje: número > 0');
    need([1, 2, 8, 9].includes(b.medio_de_pago_detraccion as number), 'medio_de_pago_detraccion: 1, 2, 8 o 9');
    // "Condicional, solo en tipo detracción de transporte de carga": transaction 33 needs all eight.
    if (b.sunat_transaction === 33) {
      for (const key of ['ubigeo_origen', 'ubigeo_destino']) need(/^\d{6}$/.test(String(b[key] ?? '')), `${key}: 6 dígitos`);
      for (const key of ['direccion_origen', 'direccion_destino', 'detalle_viaje']) {
        need(typeof b[key] === 'string' && (b[key] as string).length >= 1 && (b[key] as string).length <= 100, `${key}: texto de 1 a 100`);
      }
      for (const key of ['val_ref_serv_trans', 'val_ref_carga_efec', 'val_ref_carga_util']) {
        need(twoDecimals(b[key]) && (b[key] as number) > 0, `${key}: número > 0 con hasta 2 decimales`);
      }
    }
  } else {
    need(b.sunat_transaction === 1, 'sunat_transaction 1 sin detracción');
    need(b.detraccion_tipo === undefined && b.detraccion_total === undefined, 'sin detracción no van sus campos');
  }

  if (tipo === 3) {
    need(b.documento_que_se_modifica_tipo === 1 || b.documento_que_se_modifica_tipo === 2, 'documento_que_se_modifica_tipo: 1 o 2');
    need(
      isStr(b.documento_que_se_modifica_serie) && /^[A-Z0-9]{4}$/.test(b.documento_que_se_modifica_serie as string),
      'documento_que_se_modifica_serie: 4 caracteres',
    );
    need(isInt(b.documento_que_se_modifica_numero), 'documento_que_se_modifica_numero: entero');
    need(
      isInt(b.tipo_de_nota_de_credito) && (b.tipo_de_nota_de_credito as number) >= 1 && (b.tipo_de_nota_de_credito as number) <= 13,
      'tipo_de_nota_de_credito: 1 a 13',
    );
  } else {
    need(b.documento_que_se_modifica_tipo === '' && b.tipo_de_nota_de_credito === '', 'solo una nota lleva documento modificado');
  }

  const guias = b.guias;
  need(guias === undefined || Array.isArray(guias), 'guias: lista');
  if (Array.isArray(guias)) {
    guias.forEach((g: Record<string, unknown>, i) => {
      need(g.guia_tipo === 1 || g.guia_tipo === 2, `guias[${i}].guia_tipo: 1 o 2`);
      need(
        isStr(g.guia_serie_numero) && /^[A-Z0-9]{3,4}-\d{1,8}$/.test(g.guia_serie_numero as string),
        `guias[${i}].guia_serie_numero: SERIE-NUMERO`,
      );
    });
  }
  const cuotas = b.venta_al_credito;
  need(cuotas === undefined || Array.isArray(cuotas), 'venta_al_credito: lista');
  if (Array.isArray(cuotas) && cuotas.length > 0) {
    let sum = 0;
    cuotas.forEach((c: Record<string, unknown>, i) => {
      need(c.cuota === i + 1, `venta_al_credito[${i}].cuota: ${i + 1}`);
      need(isDate(c.fecha_de_pago), `venta_al_credito[${i}].fecha_de_pago: DD-MM-AAAA`);
      need(twoDecimals(c.importe) && (c.importe as number) > 0, `venta_al_credito[${i}].importe: número > 0`);
      sum += cents(c.importe);
    });
    const pending = cents(b.total) - (b.detraccion === true ? cents(b.detraccion_total) : 0);
    // A note of reason 13 (total 0) carries the modified factura's new instalments instead.
    if (b.tipo_de_nota_de_credito !== 13) need(near(sum, pending), 'venta_al_credito: la suma de cuotas debe ser el total menos la detracción');
    need(b.fecha_de_vencimiento !== '', 'fecha_de_vencimiento obligatoria en una venta al crédito');
  }
  return v;
}

function checkRef(b: Record<string, unknown>, extra: string[]): string[] {
  const v: string[] = [];
  for (const key of Object.keys(b))
    if (!['operacion', 'tipo_de_comprobante', 'serie', 'numero', ...extra].includes(key)) v.push(`campo desconocido: ${key}`);
  if (![1, 2, 3].includes(b.tipo_de_comprobante as number)) v.push('tipo_de_comprobante debe ser 1, 2 o 3 (número)');
  if (!isStr(b.serie) || !/^[A-Z0-9]{4}$/.test(b.serie as string)) v.push('serie: 4 caracteres');
  if (!isInt(b.numero) || (b.numero as number) < 1) v.push('numero: entero positivo');
  return v;
}

function checkVoid(b: Record<string, unknown>): string[] {
  const v = checkRef(b, ['motivo', 'codigo_unico']);
  if (!isStr(b.motivo) || (b.motivo as string).trim() === '' || (b.motivo as string).length > 100) v.push('motivo: 1 a 100 caracteres');
  if (b.codigo_unico !== undefined && !isStr(b.codigo_unico)) v.push('codigo_unico: texto');
  return v;
}

const GUIDE_FIELDS = new Set([
  'operacion',
  'tipo_de_comprobante',
  'serie',
  'numero',
  'cliente_tipo_de_documento',
  'cliente_numero_de_documento',
  'cliente_denominacion',
  'cliente_direccion',
  'cliente_email',
  'fecha_de_emision',
  'observaciones',
  'motivo_de_traslado',
  'peso_bruto_total',
  'peso_bruto_unidad_de_medida',
  'numero_de_bultos',
  'tipo_de_transporte',
  'fecha_de_inicio_de_traslado',
  'transportista_documento_tipo',
  'transportista_documento_numero',
  'transportista_denominacion',
  'transportista_placa_numero',
  'conductor_documento_tipo',
  'conductor_documento_numero',
  'conductor_nombre',
  'conductor_apellidos',
  'conductor_numero_licencia',
  'destinatario_documento_tipo',
  'destinatario_documento_numero',
  'destinatario_denominacion',
  'punto_de_partida_ubigeo',
  'punto_de_partida_direccion',
  'punto_de_partida_codigo_establecimiento_sunat',
  'punto_de_llegada_ubigeo',
  'punto_de_llegada_direccion',
  'punto_de_llegada_codigo_establecimiento_sunat',
  'enviar_automaticamente_a_la_sunat',
  'enviar_automaticamente_al_cliente',
  'codigo_unico',
  'formato_de_pdf',
  'items',
  'documento_relacionado',
  'vehiculos_secundarios',
  'conductores_secundarios',
  'mtc',
  'tuc_vehiculo_principal',
  'fecha_de_entrega_al_transportista',
]);
const GUIDE_ITEM_FIELDS = new Set(['unidad_de_medida', 'codigo', 'descripcion', 'cantidad']);
const DRIVER_FIELDS = ['documento_tipo', 'documento_numero', 'nombre', 'apellidos', 'numero_licencia'];
const PLATE = /^[A-Z0-9]{6,8}$/;
const doc811 = (t: unknown, n: unknown) => (t === '6' && /^\d{11}$/.test(String(n))) || (t === '1' && /^\d{8}$/.test(String(n)));
const nonEmpty = (v: unknown, max = 250) => isStr(v) && (v as string).trim().length > 0 && (v as string).length <= max;

/** generar_guia (tipo 7 remitente, 8 transportista), SUNAT.md's guide fields. */
function checkGuide(b: Record<string, unknown>): string[] {
  const v: string[] = [];
  const need = (ok: boolean, message: string) => {
    if (!ok) v.push(message);
  };
  for (const key of Object.keys(b)) need(GUIDE_FIELDS.has(key), `campo desconocido: ${key}`);
  const tipo = b.tipo_de_comprobante;
  need(tipo === 7 || tipo === 8, 'tipo_de_comprobante de guía: 7 o 8 (número)');
  need(isStr(b.serie) && /^[TV0][A-Z0-9]{3}$/.test(b.serie as string), 'serie de guía: 4 caracteres, T…, V… o 0…');
  if (tipo === 7) need(/^[T0]/.test(String(b.serie)), 'serie de guía remitente debe empezar con T');
  if (tipo === 8) need(/^[V0]/.test(String(b.serie)), 'serie de guía transportista debe empezar con V');
  need(isInt(b.numero) && (b.numero as number) >= 1 && (b.numero as number) <= 99_999_999, 'numero: entero de 1 a 99999999');
  need(doc811(b.cliente_tipo_de_documento, b.cliente_numero_de_documento), 'cliente: tipo "6" con RUC de 11 dígitos o "1" con DNI de 8');
  need(nonEmpty(b.cliente_denominacion, 100), 'cliente_denominacion: 1 a 100 caracteres');
  need(isStr(b.cliente_direccion) && isStr(b.cliente_email), 'cliente_direccion y cliente_email: texto');
  need(isDate(b.fecha_de_emision), 'fecha_de_emision: DD-MM-AAAA');
  need(isDate(b.fecha_de_inicio_de_traslado), 'fecha_de_inicio_de_traslado: DD-MM-AAAA');
  need(['01', '02', '04', '08', '09', '13'].includes(b.motivo_de_traslado as string), 'motivo_de_traslado: "01", "02", "04", "08", "09" o "13"');
  need(isNum(b.peso_bruto_total) && (b.peso_bruto_total as number) > 0, 'peso_bruto_total: número > 0');
  need(b.peso_bruto_unidad_de_medida === 'KGM' || b.peso_bruto_unidad_de_medida === 'TNE', 'peso_bruto_unidad_de_medida: KGM o TNE');
  if (tipo === 7) need(isInt(b.numero_de_bultos) && (b.numero_de_bultos as number) > 0, 'numero_de_bultos: entero > 0 en la guía remitente');
  else need(b.numero_de_bultos === undefined || isInt(b.numero_de_bultos), 'numero_de_bultos: entero');
  need(b.tipo_de_transporte === '01' || b.tipo_de_transporte === '02', 'tipo_de_transporte: "01" o "02"');
  const publicTransport = b.tipo_de_transporte === '01';
  need(isStr(b.transportista_placa_numero), 'transportista_placa_numero: texto');
  if (publicTransport || tipo === 8) need(PLATE.test(String(b.transportista_placa_numero)), 'transportista_placa_numero: 6 a 8 letras o números');
  if (publicTransport && tipo === 7) {
    need(
      b.transportista_documento_tipo === '6' && /^\d{11}$/.test(String(b.transportista_documento_numero)),
      'transportista: tipo "6" y RUC de 11 dígitos',
    );
    need(nonEmpty(b.transportista_denominacion, 100), 'transportista_denominacion: 1 a 100 caracteres');
  }
  if (!publicTransport || tipo === 8) {
    need(isStr(b.conductor_documento_tipo) && /^\d{1,15}$/.test(String(b.conductor_documento_numero)), 'conductor: tipo y número de documento');
    need(nonEmpty(b.conductor_nombre) && nonEmpty(b.conductor_apellidos), 'conductor_nombre y conductor_apellidos obligatorios');
    need(nonEmpty(b.conductor_numero_licencia, 20), 'conductor_numero_licencia obligatorio');
  }
  if (tipo === 8) {
    need(doc811(b.destinatario_documento_tipo, b.destinatario_documento_numero), 'destinatario: tipo "6" con RUC o "1" con DNI');
    need(nonEmpty(b.destinatario_denominacion, 100), 'destinatario_denominacion: 1 a 100 caracteres');
    // SUNAT's GRE-T rules as Nubefact passes them on: 4392 (MTC), 3355 (TUC), 3617 (delivery to the carrier).
    need(b.mtc === undefined || (isStr(b.mtc) && /^(?!0+$)[0-9A-Z]{1,20}$/.test(b.mtc as string)), 'mtc: 1 a 20 letras mayúsculas o números');
    need(
      b.tuc_vehiculo_principal === undefined ||
        (isStr(b.tuc_vehiculo_principal) && /^(?!0+$)[0-9A-Z]{10,15}$/.test(b.tuc_vehiculo_principal as string)),
      'tuc_vehiculo_principal: 10 a 15 letras mayúsculas o números',
    );
    need(isDate(b.fecha_de_entrega_al_transportista), 'fecha_de_entrega_al_transportista: DD-MM-AAAA (SUNAT 3617)');
  } else {
    need(b.destinatario_documento_numero === undefined, 'destinatario solo en la guía transportista');
    for (const key of ['mtc', 'tuc_vehiculo_principal', 'fecha_de_entrega_al_transportista'])
      need(b[key] === undefined, `${key} solo en la guía transportista`);
  }
  for (const point of ['punto_de_partida', 'punto_de_llegada']) {
    need(isStr(b[`${point}_ubigeo`]) && /^\d{6}$/.test(b[`${point}_ubigeo`] as string), `${point}_ubigeo: 6 dígitos`);
    need(nonEmpty(b[`${point}_direccion`]), `${point}_direccion obligatoria`);
    const est = b[`${point}_codigo_establecimiento_sunat`];
    need(est === '' || (isStr(est) && /^\d{4}$/.test(est as string)), `${point}_codigo_establecimiento_sunat: vacío o 4 dígitos`);
  }
  need(
    typeof b.enviar_automaticamente_a_la_sunat === 'boolean' && typeof b.enviar_automaticamente_al_cliente === 'boolean',
    'enviar_automaticamente_*: true o false',
  );
  need(isStr(b.codigo_unico) && (b.codigo_unico as string).length <= 20, 'codigo_unico: texto de hasta 20 caracteres');
  const items = Array.isArray(b.items) ? (b.items as Record<string, unknown>[]) : null;
  need(!!items && items.length > 0, 'items: al menos uno');
  items?.forEach((it, i) => {
    const at = `items[${i}]`;
    for (const key of Object.keys(it)) need(GUIDE_ITEM_FIELDS.has(key), `${at}: campo desconocido ${key}`);
    need(['NIU', 'KGM', 'TNE', 'ZZ'].includes(it.unidad_de_medida as string), `${at}.unidad_de_medida: NIU, KGM, TNE o ZZ`);
    need(isStr(it.codigo), `${at}.codigo: texto`);
    need(nonEmpty(it.descripcion), `${at}.descripcion: 1 a 250 caracteres`);
    need(isNum(it.cantidad) && (it.cantidad as number) > 0, `${at}.cantidad: número > 0`);
  });
  const list = (name: string, check: (x: Record<string, unknown>, at: string) => void) => {
    need(Array.isArray(b[name]), `${name}: lista`);
    if (Array.isArray(b[name])) (b[name] as Record<string, unknown>[]).forEach((x, i) => check(x, `${name}[${i}]`));
  };
  list('documento_relacionado', (r, at) => {
    need(isStr(r.tipo) && /^\d{2}$/.test(r.tipo as string), `${at}.tipo: 2 dígitos`);
    need(isStr(r.serie) && /^[A-Z0-9]{1,4}$/.test(r.serie as string), `${at}.serie: 1 a 4 caracteres`);
    need(isInt(r.numero), `${at}.numero: entero`);
  });
  list('vehiculos_secundarios', (x, at) => {
    need(PLATE.test(String(x.placa_numero)), `${at}.placa_numero: 6 a 8 caracteres`);
    need(x.tuc === undefined || (isStr(x.tuc) && /^(?!0+$)[0-9A-Z]{10,15}$/.test(x.tuc as string)), `${at}.tuc: 10 a 15 letras mayúsculas o números`);
    for (const key of Object.keys(x)) need(key === 'placa_numero' || key === 'tuc', `${at}: campo desconocido ${key}`);
  });
  list('conductores_secundarios', (x, at) => {
    for (const key of Object.keys(x)) need(DRIVER_FIELDS.includes(key), `${at}: campo desconocido ${key}`);
    for (const key of DRIVER_FIELDS) need(nonEmpty(x[key]), `${at}.${key} obligatorio`);
  });
  return v;
}

/** generar_retencion / generar_percepcion: SUNAT.md's voucher fields, amounts checked to the céntimo. */
function checkVoucher(b: Record<string, unknown>): string[] {
  const v: string[] = [];
  const need = (ok: boolean, message: string) => {
    if (!ok) v.push(message);
  };
  const retention = b.operacion === 'generar_retencion';
  const who = retention ? 'proveedor' : 'cliente';
  const [tasa, totalAmount, totalNet] = retention
    ? ['tipo_de_tasa_de_retencion', 'total_retenido', 'total_pagado']
    : ['tipo_de_tasa_de_percepcion', 'total_percibido', 'total_cobrado'];
  const [pay, base, amountKey, netKey] = retention
    ? ['pago', 'pago_total_sin_retencion', 'importe_retenido', 'importe_pagado_con_retencion']
    : ['cobro', 'cobro_total_sin_percepcion', 'importe_percibido', 'importe_cobrado_con_percepcion'];
  const fields = [
    'operacion',
    'serie',
    'numero',
    'fecha_de_emision',
    `${who}_tipo_de_documento`,
    `${who}_numero_de_documento`,
    `${who}_denominacion`,
    `${who}_direccion`,
    `${who}_email`,
    'moneda',
    tasa,
    totalAmount,
    totalNet,
    'observaciones',
    'enviar_automaticamente_a_la_sunat',
    'enviar_automaticamente_al_cliente',
    'codigo_unico',
    'items',
  ];
  for (const key of Object.keys(b)) need(fields.includes(key), `campo desconocido: ${key}`);
  const letter = retention ? 'R' : 'P';
  need(isStr(b.serie) && new RegExp(`^[${letter}0][A-Z0-9]{3}$`).test(b.serie as string), `serie: 4 caracteres, ${letter}… o 0…`);
  need(isInt(b.numero) && (b.numero as number) >= 1, 'numero: entero positivo');
  need(isDate(b.fecha_de_emision), 'fecha_de_emision: DD-MM-AAAA');
  need(doc811(b[`${who}_tipo_de_documento`], b[`${who}_numero_de_documento`]), `${who}: tipo "6" con RUC de 11 dígitos o "1" con DNI de 8`);
  need(nonEmpty(b[`${who}_denominacion`], 100), `${who}_denominacion: 1 a 100 caracteres`);
  need(b.moneda === 1, 'moneda: 1 (soles)');
  const rates = retention ? { 1: 3, 2: 6 } : { 1: 2, 2: 1, 3: 0.5 };
  const rate = (rates as Record<number, number>)[b[tasa] as number];
  need(rate !== undefined, `${tasa}: ${Object.keys(rates).join(', ')}`);
  need(twoDecimals(b[totalAmount]) && twoDecimals(b[totalNet]), `${totalAmount} y ${totalNet}: números con hasta 2 decimales`);
  need(isStr(b.codigo_unico) && (b.codigo_unico as string).length <= 20, 'codigo_unico: texto de hasta 20 caracteres');
  const items = Array.isArray(b.items) ? (b.items as Record<string, unknown>[]) : null;
  need(!!items && items.length > 0, 'items: al menos uno');
  let sumAmount = 0;
  let sumNet = 0;
  const itemFields = [
    'documento_relacionado_tipo',
    'documento_relacionado_serie',
    'documento_relacionado_numero',
    'documento_relacionado_fecha_de_emision',
    'documento_relacionado_moneda',
    'documento_relacionado_total',
    `${pay}_fecha`,
    `${pay}_numero`,
    base,
    amountKey,
    netKey,
  ];
  items?.forEach((it, i) => {
    const at = `items[${i}]`;
    for (const key of Object.keys(it)) need(itemFields.includes(key), `${at}: campo desconocido ${key}`);
    need(
      ['01', '03', '07', '08', '12'].includes(it.documento_relacionado_tipo as string),
      `${at}.documento_relacionado_tipo: "01", "03", "07", "08" o "12"`,
    );
    need(
      isStr(it.documento_relacionado_serie) && /^[A-Z0-9]{1,4}$/.test(it.documento_relacionado_serie as string),
      `${at}.documento_relacionado_serie`,
    );
    need(isInt(it.documento_relacionado_numero), `${at}.documento_relacionado_numero: entero`);
    need(isDate(it.documento_relacionado_fecha_de_emision), `${at}.documento_relacionado_fecha_de_emision: DD-MM-AAAA`);
    need(it.documento_relacionado_moneda === 1, `${at}.documento_relacionado_moneda: 1`);
    need(
      twoDecimals(it.documento_relacionado_total) && (it.documento_relacionado_total as number) > 0,
      `${at}.documento_relacionado_total: número > 0`,
    );
    need(isDate(it[`${pay}_fecha`]) && isInt(it[`${pay}_numero`]), `${at}.${pay}_fecha y ${pay}_numero`);
    for (const key of [base, amountKey, netKey]) need(twoDecimals(it[key]), `${at}.${key}: número con hasta 2 decimales`);
    if (rate !== undefined) {
      // Half up to the céntimo, computed in integers.
      const expected = Math.floor((cents(it[base]) * rate * 100 + 5000) / 10000);
      need(cents(it[amountKey]) === expected, `${at}.${amountKey}: ${rate} % de ${base}`);
    }
    need(
      cents(it[netKey]) === cents(it[base]) + (retention ? -1 : 1) * cents(it[amountKey]),
      `${at}.${netKey}: ${base} ${retention ? '−' : '+'} ${amountKey}`,
    );
    sumAmount += cents(it[amountKey]);
    sumNet += cents(it[netKey]);
  });
  need(sumAmount === cents(b[totalAmount]), `${totalAmount}: suma de ${amountKey}`);
  need(sumNet === cents(b[totalNet]), `${totalNet}: suma de ${netKey}`);
  return v;
}

function checkGuideRef(b: Record<string, unknown>): string[] {
  const v: string[] = [];
  for (const key of Object.keys(b)) if (!['operacion', 'tipo_de_comprobante', 'serie', 'numero'].includes(key)) v.push(`campo desconocido: ${key}`);
  if (b.tipo_de_comprobante !== 7 && b.tipo_de_comprobante !== 8) v.push('tipo_de_comprobante de guía: 7 o 8 (número)');
  if (!isStr(b.serie) || !/^[A-Z0-9]{4}$/.test(b.serie as string)) v.push('serie: 4 caracteres');
  if (!isInt(b.numero) || (b.numero as number) < 1) v.push('numero: entero positivo');
  return v;
}

function checkVoucherRef(b: Record<string, unknown>, extra: string[] = []): string[] {
  const v: string[] = [];
  for (const key of Object.keys(b)) if (!['operacion', 'serie', 'numero', ...extra].includes(key)) v.push(`campo desconocido: ${key}`);
  if (!isStr(b.serie) || !/^[A-Z0-9]{4}$/.test(b.serie as string)) v.push('serie: 4 caracteres');
  if (!isInt(b.numero) || (b.numero as number) < 1) v.push('numero: entero positivo');
  if (extra.includes('motivo') && (!isStr(b.motivo) || (b.motivo as string).trim() === '' || (b.motivo as string).length > 100))
    v.push('motivo: 1 a 100 caracteres');
  return v;
}

function checkRequest(b: Record<string, unknown>): string[] {
  switch (b.operacion) {
    case 'generar_comprobante':
      return checkInvoice(b);
    case 'generar_anulacion':
      return checkVoid(b);
    case 'consultar_comprobante':
    case 'consultar_anulacion':
      return checkRef(b, []);
    case 'generar_guia':
      return checkGuide(b);
    case 'consultar_guia':
      return checkGuideRef(b);
    case 'generar_retencion':
    case 'generar_percepcion':
      return checkVoucher(b);
    case 'consultar_retencion':
    case 'consultar_percepcion':
      return checkVoucherRef(b);
    case 'generar_reversion_retencion':
    case 'generar_reversion_percepcion':
      return checkVoucherRef(b, ['motivo']);
    default:
      return [`operacion desconocida: ${String(b.operacion)}`];
  }
}

/** Vouchers carry no tipo_de_comprobante: their key names the kind instead. */
const VOUCHER_KIND: Record<string, string> = {
  generar_retencion: 'R',
  consultar_retencion: 'R',
  generar_reversion_retencion: 'R',
  generar_percepcion: 'P',
  consultar_percepcion: 'P',
  generar_reversion_percepcion: 'P',
};

const keyOf = (b: Record<string, unknown>) => `${VOUCHER_KIND[String(b.operacion)] ?? b.tipo_de_comprobante}-${b.serie}-${b.numero}`;

export async function startFakeNubefact(token = `tok-${randomUUID()}`): Promise<FakeNubefact> {
  const path = `/api/v1/${randomUUID()}`;
  const requests: RecordedRequest[] = [];
  const documents = new Map<string, StoredDocument>();
  const failures: FakeFailure[] = [];
  let tickets = 0;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, codigo: number, errors: string, status = 400) => send(res, status, { errors, codigo });

  const guideAnswer = (d: StoredDocument) => {
    const b = d.request;
    const base = `https://fake.nubefact.test/gre/${d.hash.slice(0, 12)}`;
    return {
      tipo_de_comprobante: b.tipo_de_comprobante,
      serie: b.serie,
      numero: b.numero,
      enlace: d.accepted ? base : '',
      enlace_del_pdf: d.accepted ? `${base}.pdf` : '',
      enlace_del_xml: d.accepted ? `${base}.xml` : '',
      enlace_del_cdr: d.accepted ? `${base}.cdr` : '',
      aceptada_por_sunat: d.accepted,
      sunat_description: d.accepted ? `La Guia numero ${b.serie}-${b.numero}, ha sido aceptada` : null,
      sunat_note: null,
      sunat_responsecode: d.accepted ? '0' : null,
      sunat_soap_error: '',
      cadena_para_codigo_qr: d.accepted ? `https://e-factura.sunat.gob.pe/v1/contribuyente/gre/comprobantes/descargaqr?hashqr=${d.hash}` : '',
      codigo_hash: d.hash,
    };
  };
  const voucherAnswer = (d: StoredDocument) => {
    const b = d.request;
    const base = `https://fake.nubefact.test/cre/${d.hash.slice(0, 12)}`;
    return {
      serie: b.serie,
      numero: b.numero,
      enlace: base,
      enlace_del_pdf: `${base}.pdf`,
      enlace_del_xml: `${base}.xml`,
      enlace_del_cdr: `${base}.cdr`,
      aceptada_por_sunat: true,
      sunat_description: `El Comprobante numero ${b.serie}-${b.numero}, ha sido aceptado`,
      sunat_note: null,
      sunat_responsecode: '0',
      sunat_soap_error: '',
      cadena_para_codigo_qr: `20600000001|${b.operacion === 'generar_retencion' ? '20' : '40'}|${b.serie}|${b.numero}|${d.hash}|`,
      codigo_hash: d.hash,
      anulado: d.voided,
    };
  };

  const documentAnswer = (d: StoredDocument) => {
    const b = d.request;
    const base = `https://fake.nubefact.test/cpe/${d.hash.slice(0, 12)}`;
    const tipoSunat = { 1: '01', 2: '03', 3: '07' }[b.tipo_de_comprobante as 1 | 2 | 3];
    const [dd, mm, yyyy] = String(b.fecha_de_emision).split('-');
    return {
      tipo_de_comprobante: b.tipo_de_comprobante,
      serie: b.serie,
      numero: b.numero,
      enlace: base,
      enlace_del_pdf: `${base}.pdf`,
      enlace_del_xml: `${base}.xml`,
      enlace_del_cdr: d.accepted ? `${base}.cdr` : '',
      aceptada_por_sunat: d.accepted && !d.rejection,
      sunat_description: d.rejection
        ? d.rejection.description
        : d.accepted
          ? `La ${tipoSunat === '03' ? 'Boleta' : 'Factura'} numero ${b.serie}-${b.numero}, ha sido aceptada`
          : null,
      sunat_note: null,
      sunat_responsecode: d.rejection ? d.rejection.code : d.accepted ? '0' : null,
      sunat_soap_error: '',
      cadena_para_codigo_qr: `20600000001|${tipoSunat}|${b.serie}|${String(b.numero).padStart(6, '0')}|${b.total_igv}|${b.total}|${dd}/${mm}/${yyyy}|${b.cliente_tipo_de_documento}|${b.cliente_numero_de_documento}|${d.hash}|`,
      codigo_hash: d.hash,
      anulado: d.voided,
    };
  };
  const voidAnswer = (d: StoredDocument) => ({
    numero: d.request.numero,
    enlace: null,
    sunat_ticket_numero: d.ticket,
    aceptada_por_sunat: d.voided,
    sunat_description: d.voided ? `La Comunicacion de baja ${d.ticket}, ha sido aceptada` : null,
    sunat_note: null,
    sunat_responsecode: d.voided ? '0' : null,
    sunat_soap_error: '',
  });

  function handle(b: Record<string, unknown>, res: ServerResponse | null) {
    const reply = (status: number, body: unknown) => res && send(res, status, body);
    const fail = (codigo: number, text: string) => res && error(res, codigo, text);
    const key = keyOf(b);
    const doc = documents.get(key);
    switch (b.operacion) {
      case 'generar_comprobante': {
        if (doc) return fail(23, 'Este documento ya existe en NubeFacT');
        // Boletas and their notes go in the daily summary: accepted on a later consult.
        const viaSummary = b.tipo_de_comprobante === 2 || (b.tipo_de_comprobante === 3 && b.documento_que_se_modifica_tipo === 2);
        const stored: StoredDocument = {
          request: b,
          accepted: !viaSummary,
          hash: randomUUID().replace(/-/g, '').slice(0, 28),
          voidRequested: false,
          voided: false,
          ticket: null,
        };
        documents.set(key, stored);
        return reply(200, documentAnswer(stored));
      }
      case 'consultar_comprobante':
        if (!doc) return fail(24, 'El documento no existe');
        doc.accepted = true;
        return reply(200, documentAnswer(doc));
      case 'generar_anulacion':
        if (!doc) return fail(24, 'El documento no existe');
        if (doc.voidRequested) return fail(23, 'La anulación ya fue solicitada');
        doc.voidRequested = true;
        doc.ticket = `15${String(++tickets).padStart(11, '0')}`;
        return reply(200, voidAnswer(doc));
      case 'consultar_anulacion':
        if (!doc || !doc.voidRequested) return fail(24, 'La anulación no existe');
        doc.voided = true;
        return reply(200, voidAnswer(doc));
      case 'generar_guia': {
        if (doc) return fail(23, 'Este documento ya existe en NubeFacT');
        // A GRE is answered without links; SUNAT accepts it later and a consult brings them.
        const stored: StoredDocument = {
          request: b,
          accepted: false,
          hash: randomUUID().replace(/-/g, '').slice(0, 28),
          voidRequested: false,
          voided: false,
          ticket: null,
        };
        documents.set(key, stored);
        return reply(200, guideAnswer(stored));
      }
      case 'consultar_guia':
        if (!doc) return fail(24, 'El documento no existe');
        doc.accepted = true;
        return reply(200, guideAnswer(doc));
      case 'generar_retencion':
      case 'generar_percepcion': {
        if (doc) return fail(23, 'Este documento ya existe en NubeFacT');
        const stored: StoredDocument = {
          request: b,
          accepted: true,
          hash: randomUUID().replace(/-/g, '').slice(0, 28),
          voidRequested: false,
          voided: false,
          ticket: null,
        };
        documents.set(key, stored);
        return reply(200, voucherAnswer(stored));
      }
      case 'consultar_retencion':
      case 'consultar_percepcion':
        if (!doc) return fail(24, 'El documento no existe');
        return reply(200, voucherAnswer(doc));
      case 'generar_reversion_retencion':
      case 'generar_reversion_percepcion':
        if (!doc) return fail(24, 'El documento no existe');
        if (doc.voidRequested) return fail(23, 'La reversión ya fue solicitada');
        doc.voidRequested = true;
        doc.voided = true;
        doc.ticket = `RR${String(++tickets).padStart(11, '0')}`;
        return reply(200, voidAnswer(doc));
      default:
        return fail(20, `operacion desconocida: ${String(b.operacion)}`);
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record: RecordedRequest = {
        path: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body: null,
        violations: [],
      };
      requests.push(record);
      if (req.method !== 'POST' || req.url !== path) {
        record.violations.push('ruta o método inválido');
        return error(res, 11, 'La ruta no existe', 404);
      }
      if (!record.contentType?.startsWith('application/json')) {
        record.violations.push('Content-Type debe ser application/json');
        return error(res, 12, 'El Content-Type no es válido');
      }
      if (record.authorization !== `Token token="${token}"`) {
        record.violations.push('Authorization debe ser Token token="…"');
        return error(res, 10, 'El token no es válido', 401);
      }
      try {
        record.body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        record.violations.push('cuerpo no es JSON');
        return error(res, 20, 'El formato del JSON no es válido');
      }
      const b = record.body;
      record.violations.push(...checkRequest(b));
      if (record.violations.length) return error(res, 20, record.violations.join('; '));

      const failure = failures.shift();
      if (!failure) return handle(b, res);
      if (failure.kind === 'timeout') {
        if (failure.process) handle(b, null);
        return; // the socket stays open until the client gives up or the fake closes
      }
      if (failure.kind === 'malformed') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        return res.end('{"serie": "FFF1", "numero": ');
      }
      if (failure.kind === 'status') {
        res.writeHead(failure.status, { 'Content-Type': 'text/html' });
        return res.end('<html><body>Bad Gateway</body></html>');
      }
      if (failure.kind === 'sunat-rejects') {
        handle(b, null);
        const stored = documents.get(keyOf(b));
        if (stored) stored.rejection = { code: failure.code, description: failure.description };
        return handle({ ...b, operacion: 'consultar_comprobante' }, res);
      }
      return error(res, failure.codigo, failure.errors ?? `error ${failure.codigo}`, failure.status ?? 400);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    token,
    requests,
    documents,
    failNext: (failure) => failures.push(failure),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
