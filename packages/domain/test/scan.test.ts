import { describe, expect, it } from 'vitest';
import { codeFromScan, publicTrackingPath } from '../src/index.ts';

describe('codeFromScan: what a camera read of a label means', () => {
  it('takes the barcode (the code itself) as read, trimmed', () => {
    expect(codeFromScan(' TMT-000123 ')).toBe('TMT-000123');
  });
  it("takes the code out of the label's QR, whatever the host", () => {
    expect(codeFromScan(`https://envios.tramo.pe${publicTrackingPath('TMT-000123')}`)).toBe('TMT-000123');
    expect(codeFromScan(`http://192.0.2.7:3000${publicTrackingPath('TMT-000045')}?x=1`)).toBe('TMT-000045');
  });
  it("takes the code out of a QR that carries the link's key (issue 31)", () => {
    expect(publicTrackingPath('TMT-000123', 'aB3_-x9Zq0')).toBe('/seguimiento/TMT-000123?k=aB3_-x9Zq0');
    expect(codeFromScan(`https://envios.tramo.pe${publicTrackingPath('TMT-000123', 'aB3_-x9Zq0')}`)).toBe('TMT-000123');
  });
  it('hands anything else on as read', () => {
    expect(codeFromScan('7751234567890')).toBe('7751234567890');
    expect(codeFromScan('https://example.com/otra/cosa')).toBe('https://example.com/otra/cosa');
  });
});
