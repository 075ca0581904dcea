import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COLLECTION_RULES,
  deliveryPaymentRefusal,
  isCollectableAtDestination,
  whoPaysAfterReturn,
  whoPaysChangeRefusal,
  whoPaysRefusal,
  type CollectableShipment,
  type WhoPaysContext,
} from '../src/index.ts';

const ctx: WhoPaysContext = {
  rules: DEFAULT_COLLECTION_RULES,
  routeAllowsDestination: true,
  priceCents: 4500,
  weightKg: 12,
  hasCreditAccount: false,
};

describe('who pays and when', () => {
  it('the spec default (sender at origin) always stands', () => {
    expect(
      whoPaysRefusal({ payer: 'remitente', paymentMoment: 'origen' }, { ...ctx, routeAllowsDestination: false, priceCents: 999_999 }),
    ).toBeNull();
  });
  it('the recipient pays S/ 45.00 at the destination', () => {
    expect(whoPaysRefusal({ payer: 'destinatario', paymentMoment: 'destino' }, ctx)).toBeNull();
  });
  it('S/ 500.00 is the most, S/ 500.01 is refused', () => {
    expect(whoPaysRefusal({ payer: 'destinatario', paymentMoment: 'destino' }, { ...ctx, priceCents: 50_000 })).toBeNull();
    expect(whoPaysRefusal({ payer: 'destinatario', paymentMoment: 'destino' }, { ...ctx, priceCents: 50_001 })).toEqual({
      field: 'paymentMoment',
      message: 'El pago en destino admite fletes de hasta S/ 500.00.',
    });
  });
  it('a route without pago en destino refuses it', () => {
    expect(whoPaysRefusal({ payer: 'destinatario', paymentMoment: 'destino' }, { ...ctx, routeAllowsDestination: false })?.message).toBe(
      'Esta ruta no admite pago en destino.',
    );
  });
  it('a weight limit sends heavy freight to the origin', () => {
    const rules = { ...DEFAULT_COLLECTION_RULES, originOnlyAboveKg: 10 };
    expect(whoPaysRefusal({ payer: 'destinatario', paymentMoment: 'destino' }, { ...ctx, rules })?.message).toBe(
      'Los envíos de más de 10 kg se pagan en origen.',
    );
    expect(whoPaysRefusal({ payer: 'destinatario', paymentMoment: 'destino' }, { ...ctx, rules, weightKg: 10 })).toBeNull();
  });
  it('the sender does not pay at the destination', () => {
    expect(whoPaysRefusal({ payer: 'remitente', paymentMoment: 'destino' }, ctx)?.field).toBe('payer');
  });
  it('a third party needs a document and a name', () => {
    expect(whoPaysRefusal({ payer: 'tercero', paymentMoment: 'origen', payerDocNumber: ' ', payerName: 'Ana' }, ctx)?.field).toBe('payerDocNumber');
    expect(whoPaysRefusal({ payer: 'tercero', paymentMoment: 'destino', payerDocNumber: '20100070970', payerName: 'Agro SAC' }, ctx)).toBeNull();
  });
  it('credit only with an active account', () => {
    expect(whoPaysRefusal({ payer: 'remitente', paymentMoment: 'credito' }, ctx)?.message).toBe('El cliente no tiene una cuenta de crédito activa.');
    expect(whoPaysRefusal({ payer: 'remitente', paymentMoment: 'credito' }, { ...ctx, hasCreditAccount: true })).toBeNull();
  });
  it('may change until paid or loaded', () => {
    expect(whoPaysChangeRefusal({ hasLivePayment: false, loaded: false })).toBeNull();
    expect(whoPaysChangeRefusal({ hasLivePayment: true, loaded: false })).toBe('El envío ya tiene un pago: quién paga y cuándo ya no cambian.');
    expect(whoPaysChangeRefusal({ hasLivePayment: false, loaded: true })).toBe('El envío ya se cargó: quién paga y cuándo ya no cambian.');
  });
});

describe('collection at the destination', () => {
  const s: CollectableShipment = { status: 'En agencia', paymentMoment: 'destino', originBranchId: 1, destinationBranchId: 2, hasLivePayment: false };
  it('waiting at the destination branch, or on its way there', () => {
    expect(isCollectableAtDestination(s, 2)).toBe(true);
    expect(isCollectableAtDestination({ ...s, status: 'En tránsito' }, 2)).toBe(true);
  });
  it('not at the origin, not once paid, not before it leaves, not when paid at origin', () => {
    expect(isCollectableAtDestination(s, 1)).toBe(false);
    expect(isCollectableAtDestination({ ...s, hasLivePayment: true }, 2)).toBe(false);
    expect(isCollectableAtDestination({ ...s, status: 'Creado' }, 2)).toBe(false);
    expect(isCollectableAtDestination({ ...s, paymentMoment: 'origen' }, 2)).toBe(false);
  });
  it('delivery waits for the money', () => {
    expect(deliveryPaymentRefusal({ paymentMoment: 'destino', paid: false, dueCents: 4500 })).toBe(
      'Cobra el flete antes de entregar: S/ 45.00 por cobrar.',
    );
    expect(deliveryPaymentRefusal({ paymentMoment: 'destino', paid: true, dueCents: 4500 })).toBeNull();
    expect(deliveryPaymentRefusal({ paymentMoment: 'origen', paid: false, dueCents: 4500 })).toBeNull();
  });
  it('a return before payment makes the sender pay at the origin', () => {
    expect(whoPaysAfterReturn({ payer: 'destinatario', paymentMoment: 'destino' }, false)).toEqual({
      payer: 'remitente',
      paymentMoment: 'origen',
      payerDocNumber: null,
      payerName: null,
    });
    expect(whoPaysAfterReturn({ payer: 'destinatario', paymentMoment: 'destino' }, true).paymentMoment).toBe('destino');
  });
});
