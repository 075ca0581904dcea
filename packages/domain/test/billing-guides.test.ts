import { describe, expect, it } from 'vitest';
import {
  checkGuide,
  GUIDE_MESSAGES,
  GUIDE_UNITS,
  isValidGuidePlate,
  SERIES_MESSAGES,
  TRANSFER_REASONS,
  TRANSPORT_TYPES,
  type GuidePayloadInput,
} from '../src/index.ts';

const today = '2026-11-23';
const ctx = { today };

/** A valid GRE remitente by private transport. */
const sender = (over: Partial<GuidePayloadInput> = {}): GuidePayloadInput => ({
  type: '09',
  serie: 'TTT1',
  fecha_de_emision: today,
  fecha_de_inicio_de_traslado: today,
  cliente: { numero_de_documento: '20100070970', denominacion: 'SUPERMERCADOS PERUANOS S.A.' },
  motivo_de_traslado: '01',
  tipo_de_transporte: '02',
  numero_de_bultos: 3,
  punto_de_partida: { ubigeo: '150101', direccion: 'Av. Argentina 123, Lima' },
  punto_de_llegada: { ubigeo: '040101', direccion: 'Calle Mercaderes 45, Arequipa' },
  placa_numero: 'ABC-123',
  conductor: { documento_numero: '45678912', nombre: 'Juan', apellidos: 'Pérez Soto', numero_licencia: 'Q45678912' },
  items: [{ descripcion: 'Cajas de repuestos', cantidad: 3, unidad_de_medida: 'NIU', peso: '12.5' }],
  ...over,
});

/** A valid GRE transportista. */
const carrier = (over: Partial<GuidePayloadInput> = {}): GuidePayloadInput =>
  sender({
    type: '31',
    serie: 'VVV1',
    numero_de_bultos: null,
    destinatario: { documento_numero: '10456789123', denominacion: 'María Quispe' },
    ...over,
  });

const problemsOf = (input: unknown) => {
  const r = checkGuide(input, ctx);
  return r.ok ? [] : r.problems;
};

describe('guide catalogues (spec section 9)', () => {
  it('lists the reasons, transport types and units', () => {
    expect(TRANSFER_REASONS).toEqual(['01', '02', '04', '08', '09', '13']);
    expect(TRANSPORT_TYPES).toEqual(['01', '02']);
    expect(GUIDE_UNITS).toEqual(['NIU', 'KG', 'TM', 'ZZ']);
  });
});

describe('checkGuide: sender mode (GRE-R)', () => {
  it('accepts a private-transport sender guide and builds the draft', () => {
    const r = checkGuide(sender(), ctx);
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(r.draft).toMatchObject({
      type: '09',
      mode: 'remitente',
      series: 'TTT1',
      client: { docType: 6, docNumber: '20100070970' },
      transferReason: '01',
      transportType: '02',
      bundles: 3,
      grossWeight: '12.5',
      grossWeightUnit: 'KGM',
      grossWeightComputed: true,
      plate: 'ABC123',
      driver: { docType: 1, docNumber: '45678912', licence: 'Q45678912', names: 'Juan', surnames: 'Pérez Soto' },
      origin: { ubigeo: '150101', establishmentCode: null },
      destination: { ubigeo: '040101' },
      carrier: null,
      recipient: null,
    });
  });

  it('requires series, dates, client, reason, type and bundle count', () => {
    const p = problemsOf(
      sender({
        serie: '',
        fecha_de_emision: '',
        fecha_de_inicio_de_traslado: '',
        cliente: { numero_de_documento: '123', denominacion: '' },
        motivo_de_traslado: '03',
        tipo_de_transporte: '',
        numero_de_bultos: null,
      }),
    );
    expect(p).toEqual(
      expect.arrayContaining([
        SERIES_MESSAGES.required,
        GUIDE_MESSAGES.issueDateRequired,
        GUIDE_MESSAGES.transferDateRequired,
        GUIDE_MESSAGES.clientDocument,
        GUIDE_MESSAGES.clientName,
        GUIDE_MESSAGES.transferReason,
        GUIDE_MESSAGES.transportType,
        GUIDE_MESSAGES.bundles,
      ]),
    );
  });

  it('takes a DNI client and refuses other document lengths', () => {
    const r = checkGuide(sender({ cliente: { numero_de_documento: '70606878', denominacion: 'Ana' } }), ctx);
    expect(r.ok && r.draft.client.docType).toBe(1);
    expect(problemsOf(sender({ cliente: { numero_de_documento: '7060687', denominacion: 'Ana' } }))).toEqual([GUIDE_MESSAGES.clientDocument]);
    expect(problemsOf(sender({ cliente: { numero_de_documento: '2010007097A', denominacion: 'Ana' } }))).toEqual([GUIDE_MESSAGES.clientDocument]);
  });

  it('refuses a zero or fractional bundle count', () => {
    expect(problemsOf(sender({ numero_de_bultos: 0 }))).toEqual([GUIDE_MESSAGES.bundles]);
    expect(problemsOf(sender({ numero_de_bultos: '1.5' }))).toEqual([GUIDE_MESSAGES.bundles]);
  });

  it('keeps the series of a sender guide on T and refuses future dates and a transfer before the issue', () => {
    expect(problemsOf(sender({ serie: 'VVV1' }))).toEqual([SERIES_MESSAGES.prefix('una guía de remisión remitente', 'T')]);
    expect(problemsOf(sender({ fecha_de_emision: '2026-11-24', fecha_de_inicio_de_traslado: '2026-11-24' }))).toContain(
      GUIDE_MESSAGES.issueDateFuture,
    );
    expect(problemsOf(sender({ fecha_de_inicio_de_traslado: '2026-11-22' }))).toEqual([GUIDE_MESSAGES.transferDateBeforeIssue]);
    expect(problemsOf(sender({ fecha_de_inicio_de_traslado: '2026-11-31' }))).toEqual([GUIDE_MESSAGES.transferDateInvalid]);
  });

  it('refuses an unknown guide type', () => {
    expect(problemsOf(sender({ type: '01' }))).toContain(GUIDE_MESSAGES.typeInvalid);
  });
});

describe('checkGuide: public vs private transport', () => {
  const publicGuide = (over: Partial<GuidePayloadInput> = {}) =>
    sender({
      tipo_de_transporte: '01',
      conductor: null,
      transportista: { documento_numero: '20512345679', denominacion: 'TRANSPORTES SUR SAC' },
      ...over,
    });

  it('public transport: carrier RUC + name and plate, no driver needed', () => {
    const r = checkGuide(publicGuide(), ctx);
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(r.draft.carrier).toEqual({ docType: 6, docNumber: '20512345679', name: 'TRANSPORTES SUR SAC' });
    expect(r.draft.driver).toBeNull();
  });

  it('public transport: refuses a missing or short carrier RUC, a missing name and a bad plate', () => {
    expect(problemsOf(publicGuide({ transportista: null }))).toEqual([GUIDE_MESSAGES.carrierRuc, GUIDE_MESSAGES.carrierName]);
    expect(problemsOf(publicGuide({ transportista: { documento_numero: '2051234567', denominacion: 'X' } }))).toEqual([GUIDE_MESSAGES.carrierRuc]);
    expect(problemsOf(publicGuide({ transportista: { documento_numero: '20512345679', denominacion: ' ' } }))).toEqual([GUIDE_MESSAGES.carrierName]);
    expect(problemsOf(publicGuide({ placa_numero: '' }))).toEqual([GUIDE_MESSAGES.plateRequired]);
    expect(problemsOf(publicGuide({ placa_numero: 'AB12' }))).toEqual([GUIDE_MESSAGES.plate]);
    expect(problemsOf(publicGuide({ placa_numero: 'ABC1234567' }))).toEqual([GUIDE_MESSAGES.plate]);
    expect(problemsOf(publicGuide({ placa_numero: 'AB#123' }))).toEqual([GUIDE_MESSAGES.plate]);
  });

  it('private transport: requires plate, driver document, licence and names', () => {
    expect(problemsOf(sender({ placa_numero: null, conductor: null }))).toEqual([
      GUIDE_MESSAGES.plateRequired,
      GUIDE_MESSAGES.driverDocument,
      GUIDE_MESSAGES.driverLicence,
      GUIDE_MESSAGES.driverNames,
    ]);
    expect(problemsOf(sender({ conductor: { documento_numero: '4567A', nombre: 'Juan', apellidos: 'Pérez', numero_licencia: 'Q1' } }))).toEqual([
      GUIDE_MESSAGES.driverDocument,
    ]);
    expect(problemsOf(sender({ conductor: { documento_numero: '45678912', nombre: 'Juan', apellidos: '', numero_licencia: 'Q1' } }))).toEqual([
      GUIDE_MESSAGES.driverNames,
    ]);
    expect(problemsOf(sender({ conductor: { documento_numero: '45678912', nombre: 'Juan', apellidos: 'Pérez', numero_licencia: '' } }))).toEqual([
      GUIDE_MESSAGES.driverLicence,
    ]);
  });

  it('plates: 6 to 8 letters or digits, hyphens ignored', () => {
    expect(isValidGuidePlate('ABC-123')).toBe(true);
    expect(isValidGuidePlate('ABC1234')).toBe(true);
    expect(isValidGuidePlate('ABCD1234')).toBe(true);
    expect(isValidGuidePlate('AB123')).toBe(false);
    expect(isValidGuidePlate('ABC12345X')).toBe(false);
  });
});

describe('checkGuide: carrier mode (GRE-T)', () => {
  it('accepts a carrier guide without bundle count, with recipient', () => {
    const r = checkGuide(carrier(), ctx);
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(r.draft).toMatchObject({
      type: '31',
      mode: 'transportista',
      series: 'VVV1',
      bundles: null,
      recipient: { docType: 6, docNumber: '10456789123', name: 'María Quispe' },
    });
  });

  it('requires the recipient, and plate and driver even on public transport', () => {
    expect(problemsOf(carrier({ destinatario: null }))).toEqual([GUIDE_MESSAGES.recipientDocument, GUIDE_MESSAGES.recipientName]);
    expect(problemsOf(carrier({ tipo_de_transporte: '01', placa_numero: '', conductor: null }))).toEqual([
      GUIDE_MESSAGES.plateRequired,
      GUIDE_MESSAGES.driverDocument,
      GUIDE_MESSAGES.driverLicence,
      GUIDE_MESSAGES.driverNames,
    ]);
  });

  it('keeps the series on V', () => {
    expect(problemsOf(carrier({ serie: 'TTT1' }))).toEqual([SERIES_MESSAGES.prefix('una guía de remisión transportista', 'V')]);
  });

  it('checks secondary vehicles and drivers', () => {
    const r = checkGuide(
      carrier({
        vehiculos_secundarios: [{ placa_numero: 'XYZ-987' }],
        conductores_secundarios: [{ documento_numero: '41234567', nombre: 'Luis', apellidos: 'Ramos', numero_licencia: 'Q41234567' }],
      }),
      ctx,
    );
    expect(r.ok && r.draft.secondaryPlates).toEqual(['XYZ987']);
    expect(r.ok && r.draft.secondaryDrivers[0]?.docNumber).toBe('41234567');
    expect(
      problemsOf(
        carrier({
          vehiculos_secundarios: [{ placa_numero: 'X1' }],
          conductores_secundarios: [{ documento_numero: '', nombre: '', apellidos: '', numero_licencia: '' }],
        }),
      ),
    ).toEqual([GUIDE_MESSAGES.secondaryPlate(1), GUIDE_MESSAGES.secondaryDriver(1)]);
  });
});

describe('checkGuide: origin and destination', () => {
  it('requires a 6-digit ubigeo and an address at both ends', () => {
    expect(
      problemsOf(sender({ punto_de_partida: { ubigeo: '15010', direccion: '' }, punto_de_llegada: { ubigeo: '04010A', direccion: 'x' } })),
    ).toEqual([GUIDE_MESSAGES.ubigeo('Punto de partida'), GUIDE_MESSAGES.address('Punto de partida'), GUIDE_MESSAGES.ubigeo('Punto de llegada')]);
    expect(problemsOf(sender({ punto_de_llegada: undefined }))).toEqual([
      GUIDE_MESSAGES.ubigeo('Punto de llegada'),
      GUIDE_MESSAGES.address('Punto de llegada'),
    ]);
  });

  it('keeps a 4-digit SUNAT establishment code and refuses another', () => {
    const r = checkGuide(sender({ punto_de_partida: { ubigeo: '150101', direccion: 'Lima', codigo_establecimiento_sunat: '0001' } }), ctx);
    expect(r.ok && r.draft.origin.establishmentCode).toBe('0001');
    expect(problemsOf(sender({ punto_de_partida: { ubigeo: '150101', direccion: 'Lima', codigo_establecimiento_sunat: '1' } }))).toEqual([
      GUIDE_MESSAGES.establishment('Punto de partida'),
    ]);
  });
});

describe('checkGuide: items and gross weight', () => {
  it('requires at least one item with description, quantity > 0 and a guide unit', () => {
    expect(problemsOf(sender({ items: [] }))).toEqual([GUIDE_MESSAGES.itemsRequired]);
    expect(problemsOf(sender({ items: [{ descripcion: '', cantidad: 0, unidad_de_medida: 'KGM' }] }))).toEqual([
      GUIDE_MESSAGES.item.description(1),
      GUIDE_MESSAGES.item.quantity(1),
      GUIDE_MESSAGES.item.unit(1),
    ]);
    expect(problemsOf(sender({ items: [{ descripcion: 'x', cantidad: '-1', unidad_de_medida: 'NIU', peso: 1 }] }))).toEqual([
      GUIDE_MESSAGES.item.quantity(1),
    ]);
    expect(problemsOf(sender({ items: [{ descripcion: 'x', cantidad: 'abc', unidad_de_medida: 'NIU', peso: 1 }] }))).toEqual([
      GUIDE_MESSAGES.item.quantity(1),
    ]);
  });

  it('computes the gross weight from the items when left blank (KG, TM and item weights)', () => {
    const items = [
      { descripcion: 'Arroz', cantidad: '50.25', unidad_de_medida: 'KG' },
      { descripcion: 'Cemento', cantidad: '0.5', unidad_de_medida: 'TM' },
      { descripcion: 'Cajas', cantidad: 2, unidad_de_medida: 'NIU', peso: '7.125' },
    ];
    const kg = checkGuide(sender({ items, peso_bruto_total: '' }), ctx);
    expect(kg.ok && kg.draft.grossWeight).toBe('557.375');
    expect(kg.ok && kg.draft.grossWeightComputed).toBe(true);
    const t = checkGuide(sender({ items, peso_bruto_total: null, peso_bruto_unidad_de_medida: 'TNE' }), ctx);
    expect(t.ok && t.draft.grossWeight).toBe('0.557');
    expect(t.ok && t.draft.grossWeightUnit).toBe('TNE');
  });

  it('takes a typed gross weight over the items', () => {
    const r = checkGuide(sender({ peso_bruto_total: '100.5' }), ctx);
    expect(r.ok && r.draft.grossWeight).toBe('100.5');
    expect(r.ok && r.draft.grossWeightComputed).toBe(false);
  });

  it('refuses a gross weight of 0, a negative or over-precise one, and a blank one it cannot compute', () => {
    expect(problemsOf(sender({ peso_bruto_total: 0 }))).toEqual([GUIDE_MESSAGES.grossWeight]);
    expect(problemsOf(sender({ peso_bruto_total: '-3' }))).toEqual([GUIDE_MESSAGES.grossWeight]);
    expect(problemsOf(sender({ peso_bruto_total: '1.0001' }))).toEqual([GUIDE_MESSAGES.grossWeight]);
    expect(problemsOf(sender({ items: [{ descripcion: 'Cajas', cantidad: 2, unidad_de_medida: 'NIU' }] }))).toEqual([
      GUIDE_MESSAGES.grossWeightUnknown,
    ]);
    expect(problemsOf(sender({ peso_bruto_unidad_de_medida: 'LB' }))).toEqual([GUIDE_MESSAGES.weightUnit]);
  });

  it('checks related documents', () => {
    const r = checkGuide(sender({ documentos_relacionados: [{ tipo: '01', serie: 'F001', numero: 123 }] }), ctx);
    expect(r.ok && r.draft.relatedDocuments).toEqual([{ type: '01', series: 'F001', number: '123' }]);
    expect(problemsOf(sender({ documentos_relacionados: [{ tipo: 'x', serie: '', numero: 'abc' }] }))).toEqual([
      GUIDE_MESSAGES.related.type(1),
      GUIDE_MESSAGES.related.series(1),
      GUIDE_MESSAGES.related.number(1),
    ]);
  });

  it('a past-dated guide is contingency and needs a 0 series', () => {
    expect(problemsOf(sender({ fecha_de_emision: '2026-11-20', fecha_de_inicio_de_traslado: '2026-11-20' }))).toEqual([SERIES_MESSAGES.contingency]);
    const r = checkGuide(sender({ serie: '0001', fecha_de_emision: '2026-11-20', fecha_de_inicio_de_traslado: '2026-11-21' }), ctx);
    expect(r.ok && r.draft.contingency).toBe(true);
  });
});
