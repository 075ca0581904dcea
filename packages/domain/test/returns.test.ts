import { describe, expect, it } from 'vitest';
import { canReturn, returnRefusal, returnShipmentSchema, returningBranchId, SHIPMENT_STATUSES, statusTone } from '../src/index.ts';

describe('return to origin', () => {
  it('is allowed only from En tránsito and En agencia', () => {
    const allowed = SHIPMENT_STATUSES.filter((s) => returnRefusal(s) === null);
    expect(allowed).toEqual(['En tránsito', 'En agencia']);
    expect(returnRefusal('Entregado')).toBe("Solo se puede devolver a origen un envío 'En tránsito' o 'En agencia' (este está 'Entregado').");
  });

  it('is decided by the branch that holds the parcel: the destination once it arrived, else the origin', () => {
    const shipment = { originBranchId: 1, destinationBranchId: 2 };
    expect(returningBranchId({ ...shipment, status: 'En agencia' })).toBe(2);
    expect(returningBranchId({ ...shipment, status: 'En tránsito' })).toBe(1);
    expect(canReturn({ role: 'agent', branchId: 2 }, { ...shipment, status: 'En agencia' })).toBe(true);
    expect(canReturn({ role: 'agent', branchId: 1 }, { ...shipment, status: 'En agencia' })).toBe(false);
    expect(canReturn({ role: 'agent', branchId: 1 }, { ...shipment, status: 'En tránsito' })).toBe(true);
    expect(canReturn({ role: 'courier', branchId: 2 }, { ...shipment, status: 'En agencia' })).toBe(false);
    expect(canReturn({ role: 'admin', branchId: null }, { ...shipment, status: 'En agencia' })).toBe(true);
  });

  it('needs a reason and a valid secret code for the return leg', () => {
    const bad = returnShipmentSchema.safeParse({ reason: '  ', secretCode: 'ab' });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => i.message);
    expect(messages).toContain('Indica el motivo de la devolución.');
    expect(messages).toContain('Mínimo 4 caracteres');
    expect(returnShipmentSchema.parse({ reason: ' Destinatario ausente ', secretCode: 'ret-1' })).toEqual({
      reason: 'Destinatario ausente',
      secretCode: 'ret-1',
    });
  });

  it('shows Devuelto in the spec\u2019s devuelto chip colour', () => {
    expect(statusTone('Devuelto')).toBe('returned');
  });
});
