import { describe, expect, it } from 'vitest';
import {
  amountInWords,
  creditNoteSeries,
  DEFAULT_SERIES,
  detractionAmountCents,
  detractionApplies,
  documentKey,
  formatDocumentNumber,
  INSTALMENT_MESSAGES,
  instalmentProblems,
  integerInWords,
  isContingency,
  isValidDocumentNumber,
  lastDueDate,
  MAX_DOCUMENT_NUMBER,
  pendingAmountCents,
  SERIES_MESSAGES,
  seriesProblems,
  suggestedSeries,
  sunatQrText,
  voidWordsFor,
  type Instalment,
} from '../src/index.ts';

describe('series', () => {
  const normal = { contingency: false };

  it('defaults per type (spec section 9)', () => {
    expect(DEFAULT_SERIES).toMatchObject({ '01': 'FFF1', '03': 'BBB1', '09': 'TTT1', '31': 'VVV1', '20': 'RRR1', '40': 'PPP1' });
    expect(suggestedSeries('01', normal)).toBe('FFF1');
    expect(suggestedSeries('03', normal)).toBe('BBB1');
    expect(suggestedSeries('07', { contingency: false, modifiedType: '03' })).toBe('BBB1');
    expect(suggestedSeries('03', { contingency: true })).toBe('0001');
  });

  it('accepts a valid series', () => {
    expect(seriesProblems('01', 'FFF1', normal)).toEqual([]);
    expect(seriesProblems('01', 'F001', normal)).toEqual([]);
    expect(seriesProblems('03', 'B001', normal)).toEqual([]);
    expect(seriesProblems('03', 'BBB1', normal)).toEqual([]);
  });

  it('is required', () => {
    expect(seriesProblems('01', '', normal)).toEqual([SERIES_MESSAGES.required]);
  });

  it('has at most 4 characters', () => {
    expect(seriesProblems('01', 'F0001', normal)).toEqual([SERIES_MESSAGES.length]);
    // SUNAT 1001 / Nubefact 20: a 2-character series is not a series.
    expect(seriesProblems('01', 'F1', normal)).toEqual([SERIES_MESSAGES.length]);
    expect(seriesProblems('03', 'B01', normal)).toEqual([SERIES_MESSAGES.length]);
  });

  it('has only capital letters and digits', () => {
    expect(seriesProblems('01', 'F-01', normal)).toEqual([SERIES_MESSAGES.alphanumeric]);
  });

  it('starts with F for a factura and B for a boleta', () => {
    expect(seriesProblems('01', 'BBB1', normal)).toEqual(['La serie de una factura debe empezar con F.']);
    expect(seriesProblems('03', 'FFF1', normal)).toEqual(['La serie de una boleta debe empezar con B.']);
  });

  it('forces FFF1 on a credit note of a factura and BBB1 on one of a boleta', () => {
    expect(creditNoteSeries('01')).toBe('FFF1');
    expect(creditNoteSeries('03')).toBe('BBB1');
    expect(seriesProblems('07', 'FFF1', { contingency: false, modifiedType: '01' })).toEqual([]);
    expect(seriesProblems('07', 'BBB1', { contingency: false, modifiedType: '03' })).toEqual([]);
    expect(seriesProblems('07', 'F001', { contingency: false, modifiedType: '01' })).toEqual([
      'La serie de una nota de crédito que modifica una factura es FFF1.',
    ]);
    expect(seriesProblems('07', 'FFF1', { contingency: false, modifiedType: '03' })).toEqual([
      'La serie de una nota de crédito que modifica una boleta es BBB1.',
    ]);
  });

  it('in contingency (past issue date) is numeric and starts with 0', () => {
    expect(isContingency('2026-05-01', '2026-05-02')).toBe(true);
    expect(isContingency('2026-05-02', '2026-05-02')).toBe(false);
    const past = { contingency: true };
    expect(seriesProblems('01', '0001', past)).toEqual([]);
    expect(seriesProblems('03', '0002', past)).toEqual([]);
    expect(seriesProblems('07', '0001', { contingency: true, modifiedType: '01' })).toEqual([]);
    expect(seriesProblems('01', 'FFF1', past)).toEqual([SERIES_MESSAGES.contingency]);
    expect(seriesProblems('01', '1001', past)).toEqual([SERIES_MESSAGES.contingency]);
    expect(seriesProblems('01', '001', past)).toEqual([SERIES_MESSAGES.length, SERIES_MESSAGES.contingency]);
  });

  it('starting with 0 is only for contingency', () => {
    expect(seriesProblems('01', '0001', normal)).toEqual([SERIES_MESSAGES.contingencyOnlyPast]);
  });

  it('numbers run from 1 to 99,999,999 and print padded to 8 digits', () => {
    expect(isValidDocumentNumber(1)).toBe(true);
    expect(isValidDocumentNumber(MAX_DOCUMENT_NUMBER)).toBe(true);
    expect(isValidDocumentNumber(0)).toBe(false);
    expect(isValidDocumentNumber(100_000_000)).toBe(false);
    expect(isValidDocumentNumber(1.5)).toBe(false);
    expect(formatDocumentNumber('F001', 123)).toBe('F001-00000123');
    expect(formatDocumentNumber('BBB1', 99_999_999)).toBe('BBB1-99999999');
    expect(() => formatDocumentNumber('F001', 0)).toThrow(RangeError);
    expect(documentKey('01', 'FFF1', 7)).toBe('01-FFF1-7');
  });
});

describe('detracción of the freight service', () => {
  it('applies to a factura above S/ 400 only', () => {
    expect(detractionApplies('01', 40_000)).toBe(false);
    expect(detractionApplies('01', 40_001)).toBe(true);
    expect(detractionApplies('03', 100_000)).toBe(false);
    expect(detractionApplies('07', 100_000)).toBe(false);
  });

  it('is 4 % of the greater of total and reference value, in whole soles', () => {
    // 1,180.00 × 4 % = 47.20 → 47.00
    expect(detractionAmountCents(118_000)).toBe(4_700);
    // 1,187.50 × 4 % = 47.50 → 48.00 (half up)
    expect(detractionAmountCents(118_750)).toBe(4_800);
    // 400.01 × 4 % = 16.0004 → 16.00
    expect(detractionAmountCents(40_001)).toBe(1_600);
    // reference 1,500.00 > total 1,180.00: 60.00
    expect(detractionAmountCents(118_000, 150_000)).toBe(6_000);
    // reference below the total: the total counts
    expect(detractionAmountCents(118_000, 50_000)).toBe(4_700);
    // 1,236.87 × 4 % = 49.4748 → 49.00
    expect(detractionAmountCents(123_687)).toBe(4_900);
  });
});

describe('credit instalments', () => {
  const cuota = (n: number, fecha_de_pago: string, importeCents: number): Instalment => ({ cuota: n, fecha_de_pago, importeCents });

  it('need at least one', () => {
    expect(instalmentProblems([], '2026-05-01', 11_800)).toEqual([INSTALMENT_MESSAGES.required]);
  });

  it('add up to exactly the pending amount (SUNAT 3265: no céntimo either way)', () => {
    const issue = '2026-05-01';
    expect(instalmentProblems([cuota(1, '2026-06-01', 5_900), cuota(2, '2026-07-01', 5_900)], issue, 11_800)).toEqual([]);
    expect(instalmentProblems([cuota(1, '2026-06-01', 11_799)], issue, 11_800)).toEqual([INSTALMENT_MESSAGES.sum('117.99', '118.00')]);
    expect(instalmentProblems([cuota(1, '2026-06-01', 11_801)], issue, 11_800)).toEqual([INSTALMENT_MESSAGES.sum('118.01', '118.00')]);
    expect(instalmentProblems([cuota(1, '2026-06-01', 11_798)], issue, 11_800)).toEqual([INSTALMENT_MESSAGES.sum('117.98', '118.00')]);
    expect(instalmentProblems([cuota(1, '2026-06-01', 11_802)], issue, 11_800)).toEqual([INSTALMENT_MESSAGES.sum('118.02', '118.00')]);
  });

  it('leave out the detracción from what is pending', () => {
    expect(pendingAmountCents(118_000, 4_700)).toBe(113_300);
    expect(pendingAmountCents(11_800)).toBe(11_800);
  });

  it('need a valid due date after the issue date (SUNAT 3267)', () => {
    const issue = '2026-05-10';
    expect(instalmentProblems([cuota(1, '', 11_800)], issue, 11_800)).toEqual([INSTALMENT_MESSAGES.dueDateRequired(1)]);
    expect(instalmentProblems([cuota(1, '2026-02-30', 11_800)], issue, 11_800)).toEqual([INSTALMENT_MESSAGES.dueDateInvalid(1)]);
    expect(instalmentProblems([cuota(1, '2026-05-09', 11_800)], issue, 11_800)).toEqual([INSTALMENT_MESSAGES.dueDateBeforeIssue(1)]);
    expect(instalmentProblems([cuota(1, '2026-05-10', 11_800)], issue, 11_800)).toEqual([INSTALMENT_MESSAGES.dueDateBeforeIssue(1)]);
    expect(instalmentProblems([cuota(1, '2026-05-11', 11_800)], issue, 11_800)).toEqual([]);
  });

  it('each amount is positive', () => {
    expect(instalmentProblems([cuota(1, '2026-06-01', 11_800), cuota(2, '2026-07-01', 0)], '2026-05-01', 11_800)).toEqual([
      INSTALMENT_MESSAGES.amountPositive(2),
    ]);
  });

  it('the invoice falls due on the last instalment', () => {
    expect(lastDueDate([cuota(1, '2026-07-01', 1), cuota(2, '2026-06-01', 1)])).toBe('2026-07-01');
    expect(lastDueDate([])).toBeNull();
  });
});

describe('amount in words', () => {
  it.each([
    [1, 'SON: CERO CON 01/100 SOLES'],
    [100, 'SON: UNO CON 00/100 SOLES'],
    [1_550, 'SON: QUINCE CON 50/100 SOLES'],
    [11_800, 'SON: CIENTO DIECIOCHO CON 00/100 SOLES'],
    [100_000_099, 'SON: UN MILLÓN CON 99/100 SOLES'],
    [2_100, 'SON: VEINTIUNO CON 00/100 SOLES'],
    [2_200, 'SON: VEINTIDÓS CON 00/100 SOLES'],
    [1_600, 'SON: DIECISÉIS CON 00/100 SOLES'],
    [10_000, 'SON: CIEN CON 00/100 SOLES'],
    [10_100, 'SON: CIENTO UNO CON 00/100 SOLES'],
    [70_875, 'SON: SETECIENTOS OCHO CON 75/100 SOLES'],
    [100_000, 'SON: MIL CON 00/100 SOLES'],
    [100_100, 'SON: MIL UNO CON 00/100 SOLES'],
    [2_100_000, 'SON: VEINTIÚN MIL CON 00/100 SOLES'],
    [3_100_000, 'SON: TREINTA Y UN MIL CON 00/100 SOLES'],
    [10_100_000, 'SON: CIENTO UN MIL CON 00/100 SOLES'],
    [10_000_000, 'SON: CIEN MIL CON 00/100 SOLES'],
    [99_999_999, 'SON: NOVECIENTOS NOVENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE CON 99/100 SOLES'],
    [200_000_000, 'SON: DOS MILLONES CON 00/100 SOLES'],
    [2_100_000_000, 'SON: VEINTIÚN MILLONES CON 00/100 SOLES'],
    [123_456_789_00, 'SON: CIENTO VEINTITRÉS MILLONES CUATROCIENTOS CINCUENTA Y SEIS MIL SETECIENTOS OCHENTA Y NUEVE CON 00/100 SOLES'],
    [0, 'SON: CERO CON 00/100 SOLES'],
  ])('%i céntimos', (cents, words) => {
    expect(amountInWords(cents)).toBe(words);
  });

  it('shortens the units before MIL MILLONES too', () => {
    expect(integerInWords(1_001_000_000)).toBe('MIL UN MILLONES');
    expect(integerInWords(21_000_000_000)).toBe('VEINTIÚN MIL MILLONES');
  });

  it('refuses what is not a whole number of céntimos', () => {
    expect(() => amountInWords(-1)).toThrow(RangeError);
    expect(() => amountInWords(1.5)).toThrow(RangeError);
  });
});

describe('SUNAT QR text', () => {
  it('lists the fields separated by | with a trailing |', () => {
    const text = sunatQrText({
      issuerRuc: '20123456789',
      type: '03',
      series: 'BBB1',
      number: 4,
      igvCents: 973,
      totalCents: 6_370,
      issueDate: '2026-07-30',
      customerDocType: 1,
      customerDocNumber: '70606878',
      hash: 'abc=',
    });
    expect(text).toBe('20123456789|03|BBB1|000004|9.73|63.70|30/07/2026|1|70606878|abc=|');
  });

  it('writes - for a customer without a document', () => {
    const text = sunatQrText({
      issuerRuc: '20123456789',
      type: '03',
      series: 'BBB1',
      number: 1,
      igvCents: 0,
      totalCents: 500,
      issueDate: '2026-07-30',
      customerDocType: 0,
      customerDocNumber: '',
      hash: 'h',
    });
    expect(text.split('|').slice(7, 9)).toEqual(['0', '-']);
  });
});

describe('undoing a document', () => {
  it.each([
    ['01', 'Anular'],
    ['03', 'Anular'],
    ['07', 'Anular'],
    ['09', 'Dar de baja'],
    ['31', 'Dar de baja'],
    ['20', 'Revertir'],
    ['40', 'Revertir'],
  ] as const)('%s is undone with %s', (type, action) => {
    expect(voidWordsFor(type).action).toBe(action);
    expect(voidWordsFor(type).notice).toMatch(/SUNAT/);
  });
});
