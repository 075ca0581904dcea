import { describe, expect, it } from 'vitest';
import {
  CREDIT_NOTE_MESSAGES,
  creditNoteAgainstProblems,
  creditsWhole,
  voidGivesShipmentsBack,
  type CreditNoteAgainst,
  type ModifiedDocument,
} from '../src/index.ts';

/** A credit note against a factura al crédito of S/ 708.00 (detracción none), as the register tells it. */
describe('a credit note against what its factura still owes', () => {
  const number = 'F351-00000007';
  const factura = (over: Partial<ModifiedDocument> = {}): ModifiedDocument => ({
    series: 'F351',
    number: 7,
    status: 'aceptado',
    customerDocType: '6',
    customerDocNumber: '20100070970',
    totalCents: 70_800,
    paymentForm: 'credito',
    ...over,
  });
  const note = (totalCents: number, over: Partial<CreditNoteAgainst> = {}): CreditNoteAgainst => ({
    modifiedSeries: 'F351',
    modifiedNumber: 7,
    customerDocType: 6,
    customerDocNumber: '20100070970',
    totalCents,
    reason: '09',
    ...over,
  });

  it('without collections credits at most what earlier notes left, as before', () => {
    expect(creditNoteAgainstProblems(note(59_000), factura(), 11_800)).toEqual([]);
    expect(creditNoteAgainstProblems(note(59_001), factura(), 11_800)).toEqual([CREDIT_NOTE_MESSAGES.exceeds(number, '590.00')]);
    expect(creditNoteAgainstProblems(note(59_001), factura({ collectedCents: 0 }), 11_800)).toEqual([CREDIT_NOTE_MESSAGES.exceeds(number, '590.00')]);
  });

  it('counts the collections already applied: the total less notes and collections, to the céntimo', () => {
    const collected = factura({ collectedCents: 50_000 });
    expect(creditNoteAgainstProblems(note(20_800), collected, 0)).toEqual([]);
    expect(creditNoteAgainstProblems(note(20_801), collected, 0)).toEqual([CREDIT_NOTE_MESSAGES.exceedsCollected(number, '208.00')]);
    expect(creditNoteAgainstProblems(note(8_800), collected, 12_000)).toEqual([]);
    expect(creditNoteAgainstProblems(note(8_801), collected, 12_000)).toEqual([CREDIT_NOTE_MESSAGES.exceedsCollected(number, '88.00')]);
    expect(CREDIT_NOTE_MESSAGES.exceedsCollected(number, '208.00')).toBe(
      'Nota de crédito: el total supera lo que queda por pagar de la factura F351-00000007 (S/ 208.00): sus cobranzas ya aplicadas no se acreditan.',
    );
  });

  it('a factura paid whole takes no note at all, and a note over its total says what is left: nothing', () => {
    const paid = factura({ collectedCents: 70_800 });
    expect(creditNoteAgainstProblems(note(1), paid, 0)).toEqual([CREDIT_NOTE_MESSAGES.exceedsCollected(number, '0.00')]);
    expect(creditNoteAgainstProblems(note(100_000), paid, 0)).toEqual([CREDIT_NOTE_MESSAGES.exceedsCollected(number, '0.00')]);
  });

  it('reason 13: the new instalments add up to the total less detracción, notes and collections', () => {
    const adjust = (instalmentsCents: number) => note(0, { reason: '13', instalmentsCents });
    const collected = factura({ collectedCents: 20_000, detractionCents: 2_800 });
    expect(creditNoteAgainstProblems(adjust(38_000), collected, 10_000)).toEqual([]);
    expect(creditNoteAgainstProblems(adjust(48_000), collected, 10_000)).toEqual([CREDIT_NOTE_MESSAGES.adjustmentSum('480.00', '380.00', number)]);
    // Without collections, what it owes is what it always was.
    expect(creditNoteAgainstProblems(adjust(58_000), factura({ detractionCents: 2_800 }), 10_000)).toEqual([]);
  });
});

describe("a factura's shipments follow the notes SUNAT accepted", () => {
  it('are freed once the accepted notes credit its whole total, not a céntimo before', () => {
    expect(creditsWhole(70_800, 70_800)).toBe(true);
    expect(creditsWhole(70_799, 70_800)).toBe(false);
  });

  it('come back when the void of an accepted note leaves the factura owing, and only then', () => {
    // The one note that credits it whole.
    expect(voidGivesShipmentsBack(70_800, 70_800, 70_800)).toBe(true);
    // Two partial notes: either one voided leaves it owing.
    expect(voidGivesShipmentsBack(70_800, 800, 70_800)).toBe(true);
    // Not credited whole: nothing was freed, nothing comes back.
    expect(voidGivesShipmentsBack(70_000, 70_000, 70_800)).toBe(false);
    // A reason-13 note of S/ 0 beside the anulación: voided, the anulación still frees them.
    expect(voidGivesShipmentsBack(70_800, 0, 70_800)).toBe(false);
  });

  it('the refusal names the comprobante that bills them now', () => {
    expect(CREDIT_NOTE_MESSAGES.voidShipmentsTaken('F001-00000012')).toBe(
      'Nota de crédito: no se puede anular, los envíos que liberó ya están en el comprobante F001-00000012; emite primero una nota de crédito para ese comprobante.',
    );
    expect(CREDIT_NOTE_MESSAGES.voidShipmentsTaken(null)).toContain('ya están en otro comprobante;');
  });
});
