import { describe, expect, it } from 'vitest';
import { CARRIER_GUIDE_SUNAT_HINTS, carrierGuideSunatProblems, checkGuide, GUIDE_MESSAGES, type GuidePayloadInput } from '../src/index.ts';

const today = '2026-11-23';

/** A GRE transportista with everything SUNAT's GRE-T validation asks (issue 36). */
const carrier = (over: Partial<GuidePayloadInput> = {}): GuidePayloadInput => ({
  type: '31',
  serie: 'VVV1',
  fecha_de_emision: today,
  fecha_de_inicio_de_traslado: today,
  cliente: { numero_de_documento: '20100070970', denominacion: 'SUPERMERCADOS PERUANOS S.A.' },
  motivo_de_traslado: '01',
  tipo_de_transporte: '02',
  punto_de_partida: { ubigeo: '150101', direccion: 'Av. Argentina 123, Lima' },
  punto_de_llegada: { ubigeo: '040101', direccion: 'Calle Mercaderes 45, Arequipa' },
  placa_numero: 'ABC-123',
  conductor: { documento_numero: '45678912', nombre: 'Juan', apellidos: 'Pérez Soto', numero_licencia: 'Q45678912' },
  destinatario: { documento_numero: '10456789123', denominacion: 'María Quispe' },
  items: [{ descripcion: 'Cajas de repuestos', cantidad: 3, unidad_de_medida: 'NIU', peso: '12.5' }],
  registro_mtc: '1532cxno',
  tuc_vehiculo_principal: '15m22000001234',
  fecha_de_entrega_al_transportista: '2026-11-22',
  vehiculos_secundarios: [{ placa_numero: 'C9L-118', tuc: '15M22000004567' }],
  ...over,
});

const draftOf = (payload: GuidePayloadInput) => {
  const r = checkGuide(payload, { today });
  if (!r.ok) throw new Error(r.problems.join(' / '));
  return r.draft;
};

describe('GRE transportista fields (issue 36)', () => {
  it('keeps the MTC registration, the TUC of each vehicle and the delivery to the carrier, in SUNAT’s form', () => {
    expect(draftOf(carrier())).toMatchObject({
      mtcRegistration: '1532CXNO',
      vehicleTuc: '15M22000001234',
      secondaryPlates: ['C9L118'],
      secondaryTucs: ['15M22000004567'],
      goodsDeliveredOn: '2026-11-22',
    });
  });

  it('refuses a malformed MTC or TUC, a delivery after the trip starts, and more than 2 secondary vehicles or drivers', () => {
    const driver = { documento_numero: '41234567', nombre: 'Luis', apellidos: 'Ramos', numero_licencia: 'Q41234567' };
    const r = checkGuide(
      carrier({
        registro_mtc: '00000',
        tuc_vehiculo_principal: 'TUC-1',
        fecha_de_entrega_al_transportista: '2026-11-24',
        fecha_de_inicio_de_traslado: '2026-11-23',
        vehiculos_secundarios: [{ placa_numero: 'AAA111', tuc: 'corto' }, { placa_numero: 'BBB222' }, { placa_numero: 'CCC333' }],
        conductores_secundarios: [driver, driver, driver],
      }),
      { today },
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toEqual([
      GUIDE_MESSAGES.tuc('Vehículo secundario 1'),
      GUIDE_MESSAGES.secondaryVehicles,
      GUIDE_MESSAGES.secondaryDrivers,
      GUIDE_MESSAGES.mtc,
      GUIDE_MESSAGES.tuc('Vehículo principal'),
      GUIDE_MESSAGES.goodsDeliveredAfterStart,
    ]);
  });

  it('a GRE remitente carries none of the carrier’s fields', () => {
    const d = draftOf(carrier({ type: '09', serie: 'TTT1', numero_de_bultos: 3, destinatario: null }));
    expect(d).toMatchObject({ mtcRegistration: null, vehicleTuc: null, goodsDeliveredOn: null });
  });
});

describe("SUNAT's objections to a GRE-T (what the sandbox refuses)", () => {
  it('none when the guide has them all', () => {
    expect(carrierGuideSunatProblems(draftOf(carrier()))).toEqual([]);
  });

  it('4391 without MTC, 4399 without TUC, 3617 without the delivery to the carrier, each with a Spanish hint', () => {
    const problems = carrierGuideSunatProblems(
      draftOf(carrier({ registro_mtc: null, tuc_vehiculo_principal: '', fecha_de_entrega_al_transportista: null })),
    );
    expect(problems).toEqual([
      { code: '4391', hint: CARRIER_GUIDE_SUNAT_HINTS['4391'] },
      { code: '4399', hint: CARRIER_GUIDE_SUNAT_HINTS['4399'] },
      { code: '3617', hint: CARRIER_GUIDE_SUNAT_HINTS['3617'] },
    ]);
    expect(problems[0]!.hint).toBe('Falta el número de registro MTC del transportista: indícalo en Configuración › Empresa.');
  });
});
