import { describe, expect, it } from 'vitest';
import { destinationVoidRefusal, WHO_PAYS_MONEY_MESSAGES, whoPaysAfterReturn } from '../src/index.ts';

describe('who pays in the money views (issue 33)', () => {
  it('refuses voiding a paid pago en destino once the parcel was delivered, and nothing else', () => {
    const paid = { paymentMoment: 'destino', shipmentStatus: 'Entregado', paymentStatus: 'paid' };
    expect(destinationVoidRefusal(paid)).toBe(WHO_PAYS_MONEY_MESSAGES.voidAfterDelivery);
    expect(destinationVoidRefusal({ ...paid, shipmentStatus: 'En agencia' })).toBeNull();
    expect(destinationVoidRefusal({ ...paid, paymentMoment: 'origen' })).toBeNull();
    expect(destinationVoidRefusal({ ...paid, paymentStatus: 'pending' })).toBeNull();
  });

  it('makes an unpaid pago en destino the sender’s at origin after a return; a paid one keeps who paid', () => {
    const destino = {
      payer: 'tercero' as const,
      paymentMoment: 'destino' as const,
      payerDocNumber: '20123456786',
      payerName: 'Importaciones Sur SAC',
    };
    expect(whoPaysAfterReturn(destino, false)).toEqual({ payer: 'remitente', paymentMoment: 'origen', payerDocNumber: null, payerName: null });
    expect(whoPaysAfterReturn(destino, true)).toBe(destino);
    const origen = { payer: 'remitente' as const, paymentMoment: 'origen' as const };
    expect(whoPaysAfterReturn(origen, false)).toBe(origen);
  });
});
