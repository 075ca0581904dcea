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
  | { kind: 'status'; status: number };

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
    need(near(sum, pending), 'venta_al_credito: la suma de cuotas debe ser el total menos la detracción');
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

const keyOf = (b: Record<string, unknown>) => `${b.tipo_de_comprobante}-${b.serie}-${b.numero}`;

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
      aceptada_por_sunat: d.accepted,
      sunat_description: d.accepted ? `La ${tipoSunat === '03' ? 'Boleta' : 'Factura'} numero ${b.serie}-${b.numero}, ha sido aceptada` : null,
      sunat_note: null,
      sunat_responsecode: d.accepted ? '0' : null,
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
      record.violations.push(
        ...(b.operacion === 'generar_comprobante'
          ? checkInvoice(b)
          : b.operacion === 'generar_anulacion'
            ? checkVoid(b)
            : b.operacion === 'consultar_comprobante' || b.operacion === 'consultar_anulacion'
              ? checkRef(b, [])
              : [`operacion desconocida: ${String(b.operacion)}`]),
      );
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
