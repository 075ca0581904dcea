import { describe, expect, it } from 'vitest';
import {
  collectableAtCounter,
  collectingBranchId,
  collectionRulesOf,
  DEFAULT_WHO_PAYS_RULES,
  methodRefusal,
  newShipmentSchema,
  whoPaysChangeSchema,
  whoPaysColumns,
  whoPaysRulesSchema,
} from '../src/index.ts';

const spec = {
  senderName: 'Comercial Andina SAC',
  recipientDoc: '45879612',
  recipientName: 'María Flores Ccori',
  originBranchId: 1,
  destinationBranchId: 2,
  productType: 'liviano',
  weightKg: 2.5,
  secretCode: 'clave-7',
};

describe('who pays on the shipment payload', () => {
  it("defaults the spec's payload to the sender at origin", () => {
    const parsed = newShipmentSchema.parse(spec);
    expect(parsed).toMatchObject({ payer: 'remitente', paymentMoment: 'origen', payerDocType: null, payerDocNumber: null, payerName: null });
  });

  it('keeps a third party only for tercero, with its document type from the number', () => {
    const third = whoPaysChangeSchema.parse({
      payer: 'tercero',
      paymentMoment: 'destino',
      payerDocNumber: '20123456786',
      payerName: 'Importaciones Sur SAC',
    });
    expect(whoPaysColumns(third)).toMatchObject({ payerDocType: 6, payerDocNumber: '20123456786', payerName: 'Importaciones Sur SAC' });
    const recipient = whoPaysChangeSchema.parse({ payer: 'destinatario', paymentMoment: 'destino', payerDocNumber: '45879612', payerName: 'X' });
    expect(whoPaysColumns(recipient)).toMatchObject({ payerDocType: null, payerDocNumber: null, payerName: null });
  });

  it('refuses a malformed third-party document and unknown values in Spanish', () => {
    const bad = whoPaysChangeSchema.safeParse({ payer: 'tercero', payerDocNumber: '1234', payerName: 'X' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.message).toContain('Documento del tercero inválido');
    expect(whoPaysChangeSchema.safeParse({ payer: 'nadie' }).error!.issues[0]!.message).toContain('Indica quién paga');
  });
});

describe('collecting at the counter', () => {
  const now = new Date('2026-05-10T15:00:00Z');
  const old = '2026-05-01T15:00:00Z';

  it('collects pago en destino once the parcel waits at the destination agency, whatever day it left', () => {
    expect(collectableAtCounter({ status: 'En agencia', createdAt: old, paymentMoment: 'destino' }, now)).toBe(true);
    for (const status of ['Creado', 'En tránsito', 'Entregado', 'Anulado', 'Devuelto']) {
      expect(collectableAtCounter({ status, createdAt: now, paymentMoment: 'destino' }, now), status).toBe(false);
    }
  });

  it('never collects credit shipments, and paid-at-origin keeps today-and-Creado', () => {
    expect(collectableAtCounter({ status: 'Creado', createdAt: now, paymentMoment: 'credito' }, now)).toBe(false);
    expect(collectableAtCounter({ status: 'Creado', createdAt: now, paymentMoment: 'origen' }, now)).toBe(true);
    expect(collectableAtCounter({ status: 'En agencia', createdAt: now, paymentMoment: 'origen' }, now)).toBe(false);
  });

  it('names the destination as the collecting branch for pago en destino only', () => {
    expect(collectingBranchId({ paymentMoment: 'destino', originBranchId: 1, destinationBranchId: 2 })).toBe(2);
    expect(collectingBranchId({ paymentMoment: 'origen', originBranchId: 1, destinationBranchId: 2 })).toBe(1);
  });
});

describe('Reglas de cobro', () => {
  it('defaults to S/ 500 and no weight limit', () => {
    expect(collectionRulesOf(DEFAULT_WHO_PAYS_RULES)).toEqual({ maxDestinationFreightCents: 50_000, originOnlyAboveKg: null });
  });

  it('validates the settings in Spanish: amounts, weights, duplicate routes and branches, empty method lists', () => {
    expect(whoPaysRulesSchema.parse({ maxDestinationFreight: '350.50', originOnlyAboveKg: '' })).toMatchObject({
      maxDestinationFreight: 350.5,
      originOnlyAboveKg: null,
      routes: [],
    });
    const problems = (body: unknown) => whoPaysRulesSchema.safeParse(body).error?.issues.map((i) => i.message) ?? [];
    expect(problems({ maxDestinationFreight: -1, originOnlyAboveKg: null })).toContain('Flete máximo inválido: un monto de 0 a 100000.');
    expect(problems({ maxDestinationFreight: 10, originOnlyAboveKg: 0 })[0]).toContain('Peso inválido');
    const route = { originBranchId: 1, destinationBranchId: 2, destinationAllowed: false };
    expect(problems({ maxDestinationFreight: 10, originOnlyAboveKg: null, routes: [route, route] })).toContain('La misma ruta aparece dos veces.');
    expect(problems({ maxDestinationFreight: 10, originOnlyAboveKg: null, branchMethods: [{ branchId: 1, methods: [] }] })).toContain(
      'Elige al menos un medio de pago para la sucursal.',
    );
  });

  it("refuses a method the branch's counter does not take; no list means every method", () => {
    expect(methodRefusal('card_pos', ['cash'])).toBe('Esta sucursal no acepta el medio de pago Tarjeta (POS).');
    expect(methodRefusal('cash', ['cash'])).toBeNull();
    expect(methodRefusal('card_pos', null)).toBeNull();
  });
});
