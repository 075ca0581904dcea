import { DEFAULT_SERIES, type GuideDocumentType, type GuidePayloadInput } from '@tramo/domain';

/** The guide form's values: the payload's own fields (spec section 3), every one as an input holds it. */
export interface GuideValues {
  type: GuideDocumentType;
  serie: string;
  fecha_de_emision: string;
  fecha_de_inicio_de_traslado: string;
  cliente: { numero_de_documento: string; denominacion: string; direccion: string };
  motivo_de_traslado: string;
  tipo_de_transporte: string;
  numero_de_bultos: string;
  peso_bruto_total: string;
  peso_bruto_unidad_de_medida: string;
  punto_de_partida: { ubigeo: string; direccion: string; codigo_establecimiento_sunat: string };
  punto_de_llegada: { ubigeo: string; direccion: string; codigo_establecimiento_sunat: string };
  transportista: { documento_numero: string; denominacion: string };
  placa_numero: string;
  conductor: Driver;
  destinatario: { documento_numero: string; denominacion: string };
  items: { codigo: string; descripcion: string; cantidad: string; unidad_de_medida: string; peso: string }[];
  vehiculos_secundarios: { placa_numero: string; tuc: string }[];
  conductores_secundarios: Driver[];
  documentos_relacionados: { tipo: string; serie: string; numero: string }[];
  observaciones: string;
  /** GRE-T (issue 36): the main vehicle's TUC / CHV, the day the goods were handed over, the MTC (blank = the company's). */
  tuc_vehiculo_principal: string;
  fecha_de_entrega_al_transportista: string;
  registro_mtc: string;
}
export interface Driver {
  documento_numero: string;
  nombre: string;
  apellidos: string;
  numero_licencia: string;
}

const emptyDriver = (): Driver => ({ documento_numero: '', nombre: '', apellidos: '', numero_licencia: '' });
const point = () => ({ ubigeo: '', direccion: '', codigo_establecimiento_sunat: '' });
export const emptyGuideItem = () => ({ codigo: '', descripcion: '', cantidad: '1', unidad_de_medida: 'NIU', peso: '' });

/** A new guide of a mode: GRE remitente TTT1 (public transport) or GRE transportista VVV1. */
export function emptyGuide(type: GuideDocumentType, today: string): GuideValues {
  return {
    type,
    serie: DEFAULT_SERIES[type],
    fecha_de_emision: today,
    fecha_de_inicio_de_traslado: today,
    cliente: { numero_de_documento: '', denominacion: '', direccion: '' },
    motivo_de_traslado: '01',
    tipo_de_transporte: type === '31' ? '02' : '01',
    numero_de_bultos: '',
    peso_bruto_total: '',
    peso_bruto_unidad_de_medida: 'KGM',
    punto_de_partida: point(),
    punto_de_llegada: point(),
    transportista: { documento_numero: '', denominacion: '' },
    placa_numero: '',
    conductor: emptyDriver(),
    destinatario: { documento_numero: '', denominacion: '' },
    items: [emptyGuideItem()],
    vehiculos_secundarios: [],
    conductores_secundarios: [],
    documentos_relacionados: [],
    observaciones: '',
    tuc_vehiculo_principal: '',
    fecha_de_entrega_al_transportista: type === '31' ? today : '',
    registro_mtc: '',
  };
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The form filled from a payload (the carrier guide the API builds from a transport's load). */
export function guideValuesFrom(p: GuidePayloadInput, today: string): GuideValues {
  const type = str(p.type).padStart(2, '0') === '09' ? '09' : '31';
  const base = emptyGuide(type, today);
  const driver = (d: GuidePayloadInput['conductor']): Driver =>
    d
      ? { documento_numero: str(d.documento_numero), nombre: str(d.nombre), apellidos: str(d.apellidos), numero_licencia: str(d.numero_licencia) }
      : emptyDriver();
  const pt = (x: GuidePayloadInput['punto_de_partida']) => ({
    ubigeo: str(x?.ubigeo),
    direccion: str(x?.direccion),
    codigo_establecimiento_sunat: str(x?.codigo_establecimiento_sunat),
  });
  return {
    ...base,
    serie: str(p.serie) || base.serie,
    fecha_de_emision: str(p.fecha_de_emision) || today,
    fecha_de_inicio_de_traslado: str(p.fecha_de_inicio_de_traslado) || today,
    cliente: {
      numero_de_documento: str(p.cliente?.numero_de_documento),
      denominacion: str(p.cliente?.denominacion),
      direccion: str(p.cliente?.direccion),
    },
    motivo_de_traslado: str(p.motivo_de_traslado) || base.motivo_de_traslado,
    tipo_de_transporte: str(p.tipo_de_transporte) || base.tipo_de_transporte,
    numero_de_bultos: str(p.numero_de_bultos),
    peso_bruto_total: str(p.peso_bruto_total),
    peso_bruto_unidad_de_medida: str(p.peso_bruto_unidad_de_medida) || 'KGM',
    punto_de_partida: pt(p.punto_de_partida),
    punto_de_llegada: pt(p.punto_de_llegada),
    transportista: { documento_numero: str(p.transportista?.documento_numero), denominacion: str(p.transportista?.denominacion) },
    placa_numero: str(p.placa_numero),
    conductor: driver(p.conductor),
    destinatario: { documento_numero: str(p.destinatario?.documento_numero), denominacion: str(p.destinatario?.denominacion) },
    items: (p.items ?? []).map((i) => ({
      codigo: str(i.codigo),
      descripcion: str(i.descripcion),
      cantidad: str(i.cantidad) || '1',
      unidad_de_medida: str(i.unidad_de_medida) || 'NIU',
      peso: str(i.peso),
    })),
    vehiculos_secundarios: (p.vehiculos_secundarios ?? []).map((v) => ({ placa_numero: str(v.placa_numero), tuc: str(v.tuc) })),
    conductores_secundarios: (p.conductores_secundarios ?? []).map((d) => driver(d)),
    documentos_relacionados: (p.documentos_relacionados ?? []).map((r) => ({ tipo: str(r.tipo), serie: str(r.serie), numero: str(r.numero) })),
    observaciones: str(p.observaciones),
    tuc_vehiculo_principal: str(p.tuc_vehiculo_principal),
    fecha_de_entrega_al_transportista: str(p.fecha_de_entrega_al_transportista) || base.fecha_de_entrega_al_transportista,
    registro_mtc: str(p.registro_mtc),
  };
}

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());

/**
 * What 'Crear Documento' sends: only the blocks the mode and transport use (the carrier of a public
 * transport; plate and driver of a private one or of a carrier's guide; the recipient in carrier mode).
 */
export function guidePayloadOf(v: GuideValues, uniqueCode: string | null): GuidePayloadInput {
  const carrierMode = v.type === '31';
  const publicTransport = v.tipo_de_transporte === '01';
  const needsVehicle = v.tipo_de_transporte === '02' || carrierMode;
  return {
    type: v.type,
    serie: v.serie,
    fecha_de_emision: v.fecha_de_emision,
    fecha_de_inicio_de_traslado: v.fecha_de_inicio_de_traslado,
    cliente: { ...v.cliente, direccion: orNull(v.cliente.direccion) },
    motivo_de_traslado: v.motivo_de_traslado,
    tipo_de_transporte: v.tipo_de_transporte,
    numero_de_bultos: orNull(v.numero_de_bultos),
    peso_bruto_total: orNull(v.peso_bruto_total),
    peso_bruto_unidad_de_medida: v.peso_bruto_unidad_de_medida,
    punto_de_partida: { ...v.punto_de_partida, codigo_establecimiento_sunat: orNull(v.punto_de_partida.codigo_establecimiento_sunat) },
    punto_de_llegada: { ...v.punto_de_llegada, codigo_establecimiento_sunat: orNull(v.punto_de_llegada.codigo_establecimiento_sunat) },
    transportista: publicTransport && !carrierMode ? { documento_tipo: 6, ...v.transportista } : null,
    placa_numero: orNull(v.placa_numero),
    conductor: needsVehicle ? { documento_tipo: 1, ...v.conductor } : null,
    destinatario: carrierMode ? v.destinatario : null,
    items: v.items.map((i) => ({ ...i, codigo: orNull(i.codigo), peso: orNull(i.peso) })),
    vehiculos_secundarios: v.vehiculos_secundarios.map((x) => ({ placa_numero: x.placa_numero, tuc: carrierMode ? orNull(x.tuc) : null })),
    ...(carrierMode && {
      tuc_vehiculo_principal: orNull(v.tuc_vehiculo_principal),
      fecha_de_entrega_al_transportista: orNull(v.fecha_de_entrega_al_transportista),
      registro_mtc: orNull(v.registro_mtc),
    }),
    conductores_secundarios: v.conductores_secundarios.map((d) => ({ documento_tipo: 1, ...d })),
    documentos_relacionados: v.documentos_relacionados,
    observaciones: orNull(v.observaciones),
    codigo_unico: uniqueCode,
  };
}
