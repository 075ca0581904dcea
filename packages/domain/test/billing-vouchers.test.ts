import { describe, expect, it } from 'vitest';
import {
  checkPerception,
  checkRetention,
  percentOfCents,
  SERIES_MESSAGES,
  VOUCHER_MESSAGES,
  voucherPreview,
  type VoucherPayloadInput,
} from '../src/index.ts';

const today = '2026-11-23';
const ctx = { today };

const retention = (over: Partial<VoucherPayloadInput> = {}): VoucherPayloadInput => ({
  serie: 'RRR1',
  fecha_de_emision: today,
  proveedor: { numero_de_documento: '20512345679', denominacion: 'PROVEEDOR SAC' },
  documentos_relacionados: [{ tipo: '01', serie: 'F001', numero: '150', fecha_de_emision: '2026-11-10', total: '1180.00' }],
  ...over,
});

const perception = (over: Partial<VoucherPayloadInput> = {}): VoucherPayloadInput => ({
  serie: 'PPP1',
  fecha_de_emision: today,
  cliente: { numero_de_documento: '20100070970', denominacion: 'CLIENTE SA' },
  documentos_relacionados: [{ tipo: '01', serie: 'FFF1', numero: 12, total: 500 }],
  ...over,
});

const problemsOf = (r: ReturnType<typeof checkRetention>) => (r.ok ? [] : r.problems);

describe('percentOfCents: half up to the céntimo', () => {
  it.each([
    // base céntimos, percent, expected céntimos
    [118_000, '3.00', 3_540],
    [100, '3.00', 3],
    [50, '3.00', 2], // 1.5 → 2
    [49, '3.00', 1], // 1.47 → 1
    [16_667, '3.00', 500], // 500.01 → 500
    [16_650, '3.00', 500], // 499.5 → 500
    [16_649, '3.00', 499], // 499.47 → 499
    [25, '2.00', 1], // 0.5 → 1
    [24, '2.00', 0], // 0.48 → 0
    [123_457, '2.00', 2_469], // 2469.14 → 2469
    [75, '2.00', 2], // 1.5 → 2
    [1_000, '0.50', 5],
    [333, '1.25', 4], // 4.1625 → 4
    [999_999_999, '3.00', 30_000_000], // 29999999.97 → 30000000
  ])('%i céntimos × %s %% = %i', (base, pct, expected) => {
    expect(percentOfCents(base, pct)).toBe(expected);
  });
});

describe('checkRetention', () => {
  it('withholds 3.00 % by default, per line and in total', () => {
    const r = checkRetention(
      retention({
        documentos_relacionados: [
          { tipo: '01', serie: 'F001', numero: '150', total: '1180.00' },
          { tipo: '01', serie: 'F001', numero: '151', total: '0.50' },
          { tipo: '01', serie: 'F001', numero: '152', total: '166.50' },
        ],
      }),
      ctx,
    );
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(r.draft.percent).toBe('3.00');
    expect(r.draft.lines.map((l) => [l.baseCents, l.amountCents, l.netCents])).toEqual([
      [118_000, 3_540, 114_460],
      [50, 2, 48],
      [16_650, 500, 16_150],
    ]);
    expect(r.draft.amountTotalCents).toBe(4_042);
    expect(r.draft.baseTotalCents).toBe(134_700);
    expect(r.draft.netTotalCents).toBe(130_658);
    expect(r.draft.subject).toMatchObject({ docType: 6, docNumber: '20512345679', name: 'PROVEEDOR SAC' });
  });

  it('withholds on the payment when one is given', () => {
    const r = checkRetention(
      retention({
        documentos_relacionados: [
          { tipo: '01', serie: 'F001', numero: 7, total: '1000', pago_fecha: '2026-11-22', pago_numero: 2, pago_importe: '400.10' },
        ],
      }),
      ctx,
    );
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(r.draft.lines[0]).toMatchObject({
      totalCents: 100_000,
      baseCents: 40_010,
      amountCents: 1_200,
      netCents: 38_810,
      paymentDate: '2026-11-22',
      paymentNumber: 2,
    });
  });

  it('takes another numeric percentage and refuses a non-numeric one', () => {
    const r = checkRetention(retention({ porcentaje: '6' }), ctx);
    expect(r.ok && r.draft.percent).toBe('6.00');
    expect(r.ok && r.draft.amountTotalCents).toBe(7_080);
    expect(problemsOf(checkRetention(retention({ porcentaje: 'tres' }), ctx))).toEqual([VOUCHER_MESSAGES.percent]);
    expect(problemsOf(checkRetention(retention({ porcentaje: '' }), ctx))).toEqual([VOUCHER_MESSAGES.percent]);
    expect(problemsOf(checkRetention(retention({ porcentaje: 0 }), ctx))).toEqual([VOUCHER_MESSAGES.percent]);
    expect(problemsOf(checkRetention(retention({ porcentaje: '3.005' }), ctx))).toEqual([VOUCHER_MESSAGES.percent]);
  });

  it('requires series, date, subject document 8 or 11 digits and name', () => {
    expect(
      problemsOf(
        checkRetention(retention({ serie: '', fecha_de_emision: '', proveedor: { numero_de_documento: '123456789', denominacion: '' } }), ctx),
      ),
    ).toEqual([
      VOUCHER_MESSAGES.issueDateRequired,
      SERIES_MESSAGES.required,
      VOUCHER_MESSAGES.subjectDocument('Proveedor'),
      VOUCHER_MESSAGES.subjectName('Proveedor'),
    ]);
    expect(problemsOf(checkRetention(retention({ serie: 'PPP1' }), ctx))).toEqual([SERIES_MESSAGES.prefix('un comprobante de retención', 'R')]);
    const dni = checkRetention(retention({ proveedor: { numero_de_documento: '70606878', denominacion: 'Ana' } }), ctx);
    expect(dni.ok && dni.draft.subject.docType).toBe(1);
  });

  it('requires at least one related document with type, series, number and numeric total', () => {
    expect(problemsOf(checkRetention(retention({ documentos_relacionados: [] }), ctx))).toEqual([VOUCHER_MESSAGES.relatedRequired]);
    expect(problemsOf(checkRetention(retention({ documentos_relacionados: [{ tipo: '99', serie: '', numero: 'x', total: 'mil' }] }), ctx))).toEqual([
      VOUCHER_MESSAGES.related.type(1),
      VOUCHER_MESSAGES.related.series(1),
      VOUCHER_MESSAGES.related.number(1),
      VOUCHER_MESSAGES.related.total(1),
    ]);
    expect(
      problemsOf(checkRetention(retention({ documentos_relacionados: [{ tipo: '01', serie: 'F001', numero: '1', total: '10.001' }] }), ctx)),
    ).toEqual([VOUCHER_MESSAGES.related.total(1)]);
    expect(
      problemsOf(
        checkRetention(retention({ documentos_relacionados: [{ tipo: '01', serie: 'F001', numero: '1', total: '10', pago_importe: '11' }] }), ctx),
      ),
    ).toEqual([VOUCHER_MESSAGES.related.paymentTooBig(1)]);
  });

  it('only soles (currency code 1)', () => {
    expect(problemsOf(checkRetention(retention({ moneda: 2 }), ctx))).toEqual([VOUCHER_MESSAGES.currency]);
  });

  it('checks an optional total against the computed one', () => {
    expect(checkRetention(retention({ total: '35.40' }), ctx).ok).toBe(true);
    expect(problemsOf(checkRetention(retention({ total: '35.41' }), ctx))).toEqual([VOUCHER_MESSAGES.totalMismatch('total retenido', '35.40')]);
  });
});

describe('checkPerception', () => {
  it('perceives 2.00 % by default on top of the amount', () => {
    const r = checkPerception(
      perception({
        documentos_relacionados: [
          { tipo: '01', serie: 'FFF1', numero: 12, total: 500 },
          { tipo: '03', serie: 'BBB1', numero: 3, total: '0.75' },
          { tipo: '01', serie: 'FFF1', numero: 13, total: '1234.57' },
        ],
      }),
      ctx,
    );
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(r.draft.type).toBe('40');
    expect(r.draft.percent).toBe('2.00');
    expect(r.draft.lines.map((l) => [l.amountCents, l.netCents])).toEqual([
      [1_000, 51_000],
      [2, 77],
      [2_469, 125_926],
    ]);
    expect(r.draft.amountTotalCents).toBe(3_471);
    expect(r.draft.netTotalCents).toBe(177_003);
    expect(r.draft.subject.name).toBe('CLIENTE SA');
  });

  it('keeps its series on P and names the customer in its messages', () => {
    expect(problemsOf(checkPerception(perception({ serie: 'RRR1' }), ctx))).toEqual([SERIES_MESSAGES.prefix('un comprobante de percepción', 'P')]);
    expect(problemsOf(checkPerception(perception({ cliente: { numero_de_documento: '1', denominacion: 'X' } }), ctx))).toEqual([
      VOUCHER_MESSAGES.subjectDocument('Cliente'),
    ]);
    expect(problemsOf(checkPerception(perception({ total: '9' }), ctx))).toEqual([VOUCHER_MESSAGES.totalMismatch('total percibido', '10.00')]);
  });
});

describe('the voucher form’s live amounts', () => {
  it('takes the payment as base when given, else the total; rounds half up like the rules', () => {
    const r = voucherPreview(
      '20',
      [
        { total: '1000.00', pago_importe: '' },
        { total: '500.00', pago_importe: '250.50' },
        { total: 'x', pago_importe: '' },
      ],
      '3.00',
    );
    expect(r.lines.map((l) => [l.baseCents, l.amountCents, l.netCents])).toEqual([
      [100000, 3000, 97000],
      [25050, 752, 24298],
      [0, 0, 0],
    ]);
    expect(r.amountTotalCents).toBe(3752);
    const p = voucherPreview('40', [{ total: '100.00', pago_importe: '' }], '2');
    expect(p.lines[0]).toEqual({ baseCents: 10000, amountCents: 200, netCents: 10200 });
    expect(voucherPreview('40', [{ total: '100.00', pago_importe: '' }], '0').amountTotalCents).toBe(0);
  });
});
