import { describe, expect, it } from 'vitest';
import {
  alertDay,
  alertWindow,
  complianceRefusal,
  daysUntilExpiry,
  expiryState,
  groupLoadIntoGuides,
  isExpired,
  REQUIRED_DRIVER_DOCUMENTS,
  REQUIRED_VEHICLE_DOCUMENTS,
  type HeldDocument,
} from '../src/index.ts';

// 20/11/2026 at 23:59 Lima is 21/11/2026 04:59 UTC; at 00:00 of the 21st Lima it is 05:00 UTC.
const limaLastMinuteOf20 = new Date('2026-11-21T04:59:59Z');
const limaStartOf21 = new Date('2026-11-21T05:00:00Z');

describe('expiry in Lima days', () => {
  it('a document that expires today is valid until 23:59 Lima', () => {
    expect(isExpired('2026-11-20', limaLastMinuteOf20)).toBe(false);
    expect(daysUntilExpiry('2026-11-20', limaLastMinuteOf20)).toBe(0);
  });
  it('and expired from 00:00 of the next Lima day, though UTC is still the same day at 19:00 Lima', () => {
    expect(isExpired('2026-11-20', limaStartOf21)).toBe(true);
    expect(isExpired('2026-11-21', new Date('2026-11-22T00:30:00Z'))).toBe(false); // 21/11 19:30 Lima
  });
  it('states: vigente, por vencer within 30 days, vencido', () => {
    expect(expiryState('2026-12-31', limaStartOf21)).toBe('vigente');
    expect(expiryState('2026-12-21', limaStartOf21)).toBe('por_vencer');
    expect(expiryState('2026-11-20', limaStartOf21)).toBe('vencido');
  });
  it('alert windows: 30, 15 and 7 days, the smallest begun; none before or once expired', () => {
    const now = limaStartOf21; // 21/11
    expect(alertWindow('2026-12-22', now)).toBeNull(); // 31 days
    expect(alertWindow('2026-12-21', now)).toBe(30);
    expect(alertWindow('2026-12-06', now)).toBe(15);
    expect(alertWindow('2026-12-05', now)).toBe(15);
    expect(alertWindow('2026-11-28', now)).toBe(7);
    expect(alertWindow('2026-11-21', now)).toBe(7);
    expect(alertWindow('2026-11-20', now)).toBeNull();
  });
  it("tomorrow's window opens on its Lima day, across a month end", () => {
    expect(alertDay('2026-12-05', 7)).toBe('2026-11-28');
    expect(alertDay('2027-01-10', 15)).toBe('2026-12-26');
    expect(alertWindow('2026-12-06', new Date('2026-11-22T04:59:00Z'))).toBe(15); // 21/11 23:59 Lima: 15 days
    expect(alertWindow('2026-12-06', new Date('2026-11-22T05:00:00Z'))).toBe(15);
    expect(alertWindow('2026-11-29', new Date('2026-11-22T04:59:00Z'))).toBe(15); // 8 days
    expect(alertWindow('2026-11-29', new Date('2026-11-22T05:00:00Z'))).toBe(7); // 7 days from 22/11 Lima
  });
});

describe('the gate', () => {
  const soat = (expiresOn: string): HeldDocument => ({ type: 'soat', number: 'S-1', expiresOn });
  const citv: HeldDocument = { type: 'citv', number: 'C-1', expiresOn: '2027-06-30' };
  it('names the document and its date', () => {
    expect(complianceRefusal([soat('2026-11-20'), citv], REQUIRED_VEHICLE_DOCUMENTS, 'ABC-123', limaStartOf21)).toBe(
      'El SOAT de ABC-123 venció el 20/11/2026.',
    );
  });
  it('lets a vehicle through on its last valid day', () => {
    expect(complianceRefusal([soat('2026-11-20'), citv], REQUIRED_VEHICLE_DOCUMENTS, 'ABC-123', limaLastMinuteOf20)).toBeNull();
  });
  it('a renewed SOAT beside the expired one counts', () => {
    expect(complianceRefusal([soat('2026-11-20'), soat('2027-11-20'), citv], REQUIRED_VEHICLE_DOCUMENTS, 'ABC-123', limaStartOf21)).toBeNull();
  });
  it('a missing required document is refused too', () => {
    expect(complianceRefusal([citv], REQUIRED_VEHICLE_DOCUMENTS, 'ABC-123', limaStartOf21)).toBe('ABC-123 no tiene SOAT registrado.');
  });
  it("a driver's licence", () => {
    expect(
      complianceRefusal([{ type: 'licencia', number: 'Q123', expiresOn: '2026-11-01' }], REQUIRED_DRIVER_DOCUMENTS, 'Juan Pérez', limaStartOf21),
    ).toBe('La licencia de Juan Pérez venció el 01/11/2026.');
  });
});

describe('a mixed load into guides', () => {
  const p = (n: string) => ({ docType: '6', docNumber: n });
  it('one guide per remitente/destinatario pair, in load order', () => {
    const guides = groupLoadIntoGuides([
      { id: 1, sender: p('20100070970'), recipient: p('20512345678') },
      { id: 2, sender: p('20600000001'), recipient: p('20512345678') },
      { id: 3, sender: p('20100070970'), recipient: p('20512345678') },
      { id: 4, sender: p('20100070970'), recipient: { docType: '1', docNumber: '12345678' } },
    ]);
    expect(guides.map((g) => g.shipmentIds)).toEqual([[1, 3], [2], [4]]);
    expect(guides[2]?.recipient.docType).toBe('1');
  });
  it('one pair, one guide', () => {
    expect(
      groupLoadIntoGuides([
        { id: 'a', sender: p('1'), recipient: p('2') },
        { id: 'b', sender: p('1'), recipient: p('2') },
      ]),
    ).toHaveLength(1);
  });
});
