import { describe, expect, it } from 'vitest';
import { endedPeriodsOf, PERIOD_BATCH_MESSAGES, PERIOD_INVOICE_MESSAGES, periodBatchAnswer, periodBatchSchema } from '../src/index.ts';

/** 'Facturar periodos vencidos' (issue 35): which periods a run takes, and what it accepts. */
describe('endedPeriodsOf', () => {
  // Thursday 2026-01-15 in Lima: the week of Monday 12 is still open, the fortnight 1–15 too.
  const today = '2026-01-15';
  const days = ['2025-12-31', '2026-01-02', '2026-01-05', '2026-01-11', '2026-01-12', '2026-01-14'];

  it('groups the days into weeks Monday to Sunday, oldest first, leaving out the week not yet ended', () => {
    expect(endedPeriodsOf('semanal', days, today)).toEqual([
      { from: '2025-12-29', to: '2026-01-04' }, // 31 Dec and 2 Jan share a week across the year's end
      { from: '2026-01-05', to: '2026-01-11' },
    ]);
  });

  it('fortnights and months end on their last day, so the 15th itself is still open', () => {
    expect(endedPeriodsOf('quincenal', days, today)).toEqual([{ from: '2025-12-16', to: '2025-12-31' }]);
    expect(endedPeriodsOf('quincenal', days, '2026-01-16')).toEqual([
      { from: '2025-12-16', to: '2025-12-31' },
      { from: '2026-01-01', to: '2026-01-15' },
    ]);
    expect(endedPeriodsOf('mensual', days, today)).toEqual([{ from: '2025-12-01', to: '2025-12-31' }]);
    expect(endedPeriodsOf('mensual', [], today)).toEqual([]);
  });
});

describe('periodBatchSchema', () => {
  const period = { customerId: 7, from: '2026-01-05', to: '2026-01-11' };

  it('takes the previewed periods, grouping by shipment unless told, and the detracciones account once', () => {
    expect(periodBatchSchema.parse({ periods: [period], detractionAccount: ' 00-005-123456 ' })).toEqual({
      periods: [period],
      grouping: 'envio',
      detractionAccount: '00-005-123456',
    });
  });

  it('refuses an empty run, a period twice, a reversed period and a bad account, in Spanish', () => {
    const problems = (body: unknown) => periodBatchSchema.safeParse(body).error?.issues.map((i) => i.message);
    expect(problems({ periods: [] })).toEqual([PERIOD_BATCH_MESSAGES.empty]);
    expect(problems({ periods: [period, { ...period, customerId: '7' }] })).toEqual([PERIOD_BATCH_MESSAGES.repeated]);
    expect(problems({ periods: [{ ...period, from: '2026-01-12' }] })).toEqual([PERIOD_INVOICE_MESSAGES.range]);
    expect(problems({ periods: [period], detractionAccount: 'BN 123' })).toEqual([PERIOD_INVOICE_MESSAGES.account]);
  });
});

it("periodBatchAnswer counts each row's outcome", () => {
  const row = { customerId: 1, customerName: 'X', from: 'a', to: 'b', documentId: null, number: null, status: null, message: null };
  expect(
    periodBatchAnswer([
      { ...row, outcome: 'emitida' },
      { ...row, outcome: 'emitida' },
      { ...row, outcome: 'ya emitida' },
      { ...row, outcome: 'rechazada' },
    ]),
  ).toMatchObject({ issued: 2, already: 1, refused: 1 });
});
