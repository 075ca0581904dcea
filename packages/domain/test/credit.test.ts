import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountBalanceCents,
  ageingBucket,
  ageingTotals,
  allocateCollection,
  anyOverdue,
  buildStatement,
  collectionSchema,
  creditAccountSchema,
  creditRefusal,
  daysOverdue,
  detractionAmountCents,
  dueDateFor,
  dueSchedule,
  invoiceCollectableCents,
  invoiceOpenCents,
  lastEndedPeriod,
  periodContaining,
  type OpenInvoice,
} from '../src/index.ts';

describe('credit limit and overdue invoices', () => {
  const account = { status: 'activa' as const, limitCents: 500_000, balanceCents: 488_000, hasOverdue: false };

  it('takes a shipment that fits, up to the limit exactly', () => {
    expect(creditRefusal(account, 11_999)).toBeNull();
    expect(creditRefusal(account, 12_000)).toBeNull(); // 4,880.00 + 120.00 = 5,000.00, the limit itself
  });

  it('refuses one céntimo over, naming what is still available', () => {
    expect(creditRefusal(account, 12_001)).toEqual({ code: 'CREDIT_LIMIT', message: 'Línea de crédito excedida: disponible S/ 120.00.' });
  });

  it('says S/ 0.00 available when the balance already passed the limit (after an override)', () => {
    expect(creditRefusal({ ...account, balanceCents: 510_000 }, 100)?.message).toBe('Línea de crédito excedida: disponible S/ 0.00.');
  });

  it('refuses on an overdue invoice before looking at the limit, and without an active account', () => {
    expect(creditRefusal({ ...account, hasOverdue: true }, 1)).toEqual({ code: 'CREDIT_OVERDUE', message: 'Cliente con facturas vencidas.' });
    expect(creditRefusal({ ...account, status: 'suspendida' }, 1)?.code).toBe('NO_CREDIT_ACCOUNT');
    expect(creditRefusal(null, 1)?.message).toBe('El cliente no tiene una cuenta de crédito activa.');
  });

  it('validates the account form with Spanish messages', () => {
    const ok = creditAccountSchema.safeParse({
      customerId: 3,
      limit: '5000',
      termsDays: 30,
      period: 'mensual',
      contactName: 'Rosa Díaz',
      contactEmail: 'cobranzas@andina.pe',
    });
    expect(ok.success && ok.data).toMatchObject({ limit: 5000, status: 'activa', contactPhone: null });
    const bad = creditAccountSchema.safeParse({ customerId: 3, limit: 0, termsDays: 0, period: 'anual', contactName: ' ' });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => i.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Límite de crédito inválido: un monto mayor que 0, hasta 10000000.',
        'Plazo inválido: de 1 a 180 días.',
        'Periodo de facturación inválido: semanal, quincenal o mensual.',
        'Contacto requerido',
      ]),
    );
  });
});

describe('collections: oldest first, partial, overpayment', () => {
  const open: OpenInvoice[] = [
    { documentId: 12, label: 'F001-12', issueDate: '2026-10-01', dueDate: '2026-10-31', openCents: 70_800 },
    { documentId: 9, label: 'F001-9', issueDate: '2026-09-01', dueDate: '2026-10-01', openCents: 35_400 },
    { documentId: 15, label: 'F001-15', issueDate: '2026-11-01', dueDate: '2026-12-01', openCents: 118_000 },
  ];

  it('pays the oldest due first and the next one in part', () => {
    // 500.00: F001-9 (354.00) in full, then 146.00 of F001-12.
    expect(allocateCollection(50_000, open)).toEqual({
      ok: true,
      allocations: [
        { documentId: 9, amountCents: 35_400 },
        { documentId: 12, amountCents: 14_600 },
      ],
      unappliedCents: 0,
    });
  });

  it('keeps an overpayment as a credit balance', () => {
    // 2,500.00 against 354.00 + 708.00 + 1,180.00 = 2,242.00 → 258.00 left on the account.
    const r = allocateCollection(250_000, open);
    expect(r.ok && r.unappliedCents).toBe(25_800);
    expect(r.ok && r.allocations.map((a) => a.amountCents)).toEqual([35_400, 70_800, 118_000]);
  });

  it('applies explicit allocations as given, and refuses one over its invoice or over the payment', () => {
    expect(allocateCollection(30_000, open, [{ documentId: 15, amountCents: 30_000 }])).toEqual({
      ok: true,
      allocations: [{ documentId: 15, amountCents: 30_000 }],
      unappliedCents: 0,
    });
    expect(allocateCollection(100_000, open, [{ documentId: 9, amountCents: 35_401 }])).toMatchObject({
      ok: false,
      message: 'F001-9: se puede aplicar hasta S/ 354.00.',
    });
    expect(allocateCollection(10_000, open, [{ documentId: 9, amountCents: 10_001 }])).toMatchObject({
      ok: false,
      message: 'Lo aplicado a las facturas supera el importe del cobro.',
    });
    expect(allocateCollection(10_000, open, [{ documentId: 99, amountCents: 100 }])).toMatchObject({
      ok: false,
      message: 'La factura no es de este cliente o ya no tiene saldo.',
    });
  });

  it('never applies more than paid nor more than open (property)', () => {
    const invoice = fc.record({
      documentId: fc.integer({ min: 1, max: 10_000 }),
      openCents: fc.integer({ min: 0, max: 1_000_000 }),
      due: fc.integer({ min: 0, max: 400 }),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000_000 }),
        fc.uniqueArray(invoice, { selector: (i) => i.documentId, maxLength: 12 }),
        (amount, raw) => {
          const invoices = raw.map((i) => ({
            documentId: i.documentId,
            label: `F-${i.documentId}`,
            issueDate: '2026-01-01',
            dueDate: dueDateFor('2026-01-01', i.due),
            openCents: i.openCents,
          }));
          const r = allocateCollection(amount, invoices);
          if (!r.ok) return false;
          const applied = r.allocations.reduce((s, a) => s + a.amountCents, 0);
          const openById = new Map(invoices.map((i) => [i.documentId, i.openCents]));
          return (
            applied + r.unappliedCents === amount && r.allocations.every((a) => a.amountCents > 0 && a.amountCents <= openById.get(a.documentId)!)
          );
        },
      ),
    );
  });

  it('validates a collection: bank and operation for a transfer, 2 decimals, no duplicated invoice', () => {
    const bad = collectionSchema.safeParse({
      customerId: 1,
      receivedOn: '2026-11-20',
      method: 'transferencia',
      amount: '10.005',
      allocations: [
        { documentId: 1, amount: 1 },
        { documentId: 1, amount: 1 },
      ],
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining(['Importe inválido: mayor que 0, con 2 decimales como máximo.', 'Banco requerido', 'Número de operación requerido']),
    );
    const dup = collectionSchema.safeParse({
      customerId: 1,
      receivedOn: '2026-11-20',
      method: 'efectivo',
      amount: '10',
      allocations: [
        { documentId: 1, amount: 1 },
        { documentId: 1, amount: 1 },
      ],
    });
    expect(dup.error!.issues.map((i) => i.message)).toEqual(['La misma factura aparece dos veces.']);
    const cash = collectionSchema.safeParse({ customerId: 1, receivedOn: '2026-11-20', method: 'efectivo', amount: '10.50' });
    expect(cash.success && cash.data).toMatchObject({ amount: 10.5, allocations: [], bank: null });
  });
});

describe('the detracción in what the customer owes', () => {
  // A period factura of S/ 1,180.00 (1,000.00 + IGV): detracción 4 % = 47.20 → S/ 47.00 in whole soles.
  const invoice = {
    totalCents: 118_000,
    creditedCents: 0,
    collectedCents: 0,
    detractionCents: detractionAmountCents(118_000),
    detractionDeposited: false,
  };

  it('owes the total until the deposit; the carrier collects the total less the detracción', () => {
    expect(invoice.detractionCents).toBe(4_700);
    expect(invoiceOpenCents(invoice)).toBe(118_000);
    expect(invoiceCollectableCents(invoice)).toBe(113_300);
  });

  it('after a partial collection and the deposit, what is left is the rest of the net', () => {
    const later = { ...invoice, collectedCents: 50_000, detractionDeposited: true };
    expect(invoiceOpenCents(later)).toBe(63_300); // 1,180.00 − 500.00 − 47.00
    expect(invoiceCollectableCents(later)).toBe(63_300);
    expect(invoiceOpenCents({ ...later, collectedCents: 113_300 })).toBe(0);
  });

  it('the account balance is uninvoiced shipments + open invoices − money not yet applied', () => {
    expect(
      accountBalanceCents({ uninvoicedShipmentsCents: 4_500, invoices: [invoice, { ...invoice, creditedCents: 18_000 }], unappliedCents: 2_000 }),
    ).toBe(4_500 + 118_000 + 100_000 - 2_000);
  });
});

describe('ageing in Lima days', () => {
  it('is por vencer through the due date itself, then counts whole days across month ends', () => {
    expect(ageingBucket('2026-10-31', '2026-10-31')).toBe('porVencer');
    expect(daysOverdue('2026-10-31', '2026-11-01')).toBe(1);
    expect(ageingBucket('2026-10-31', '2026-11-01')).toBe('d1a30');
    expect(ageingBucket('2026-10-31', '2026-11-30')).toBe('d1a30'); // 30 days
    expect(ageingBucket('2026-10-31', '2026-12-01')).toBe('d31a60'); // 31 days
    expect(daysOverdue('2026-01-31', '2026-03-01')).toBe(29); // February 2026 has 28 days
    expect(ageingBucket('2026-01-31', '2026-04-01')).toBe('d31a60'); // 60 days
    expect(ageingBucket('2026-01-31', '2026-04-02')).toBe('d61a90'); // 61 days
    expect(ageingBucket('2025-12-31', '2026-03-31')).toBe('d61a90'); // 90 days, across the year end
    expect(ageingBucket('2025-12-31', '2026-04-01')).toBe('mas90');
  });

  it('sums open amounts per bucket and tells when anything is overdue', () => {
    const items = [
      { dueDate: '2026-11-30', openCents: 10_000 },
      { dueDate: '2026-11-10', openCents: 2_550 },
      { dueDate: '2026-08-01', openCents: 700 },
      { dueDate: '2026-11-01', openCents: 0 },
    ];
    expect(ageingTotals(items, '2026-11-26')).toEqual({ porVencer: 10_000, d1a30: 2_550, d31a60: 0, d61a90: 0, mas90: 700, total: 13_250 });
    expect(anyOverdue(items, '2026-11-26')).toBe(true);
    expect(
      anyOverdue(
        [
          { dueDate: '2026-11-01', openCents: 0 },
          { dueDate: '2026-11-26', openCents: 5 },
        ],
        '2026-11-26',
      ),
    ).toBe(false);
  });
});

describe('invoicing periods', () => {
  it('weeks run Monday to Sunday, fortnights 1–15 and 16–end, months to their last day', () => {
    expect(periodContaining('semanal', '2026-11-26')).toEqual({ from: '2026-11-23', to: '2026-11-29' }); // a Thursday
    expect(periodContaining('semanal', '2026-11-01')).toEqual({ from: '2026-10-26', to: '2026-11-01' }); // a Sunday
    expect(periodContaining('quincenal', '2026-02-16')).toEqual({ from: '2026-02-16', to: '2026-02-28' });
    expect(periodContaining('quincenal', '2026-02-15')).toEqual({ from: '2026-02-01', to: '2026-02-15' });
    expect(periodContaining('mensual', '2028-02-10')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it('the last ended period is the one before today’s', () => {
    expect(lastEndedPeriod('mensual', '2026-11-26')).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(lastEndedPeriod('mensual', '2026-01-01')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(lastEndedPeriod('quincenal', '2026-11-26')).toEqual({ from: '2026-11-01', to: '2026-11-15' });
    expect(lastEndedPeriod('semanal', '2026-11-23')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(dueDateFor('2026-11-30', 30)).toBe('2026-12-30');
  });
});

describe('estado de cuenta', () => {
  it('runs the balance from the opening through the period; an invoice moves nothing', () => {
    const s = buildStatement(20_000, [
      { date: '2026-11-03', kind: 'envio', reference: 'TMT-000201', debitCents: 4_500, creditCents: 0 },
      { date: '2026-11-02', kind: 'cobro', reference: 'Transferencia BCP 88123', debitCents: 0, creditCents: 20_000 },
      { date: '2026-11-05', kind: 'envio', reference: 'TMT-000207', debitCents: 12_050, creditCents: 0 },
      { date: '2026-11-30', kind: 'factura', reference: 'F001-20', debitCents: 0, creditCents: 0, documentCents: 16_550 },
      { date: '2026-11-30', kind: 'nota', reference: 'FC01-3', debitCents: 0, creditCents: 1_050 },
    ]);
    expect(s.rows.map((r) => [r.reference, r.balanceCents])).toEqual([
      ['Transferencia BCP 88123', 0],
      ['TMT-000201', 4_500],
      ['TMT-000207', 16_550],
      ['F001-20', 16_550],
      ['FC01-3', 15_500],
    ]);
    expect(s).toMatchObject({ openingCents: 20_000, debitsCents: 16_550, creditsCents: 21_050, closingCents: 15_500 });
  });

  it('lists what is due by due date with its bucket', () => {
    expect(
      dueSchedule(
        [
          { reference: 'F001-20', dueDate: '2026-12-30', openCents: 15_500 },
          { reference: 'F001-11', dueDate: '2026-10-15', openCents: 800 },
          { reference: 'F001-14', dueDate: '2026-11-01', openCents: 0 },
        ],
        '2026-11-26',
      ),
    ).toEqual([
      { reference: 'F001-11', dueDate: '2026-10-15', openCents: 800, bucket: 'd31a60' },
      { reference: 'F001-20', dueDate: '2026-12-30', openCents: 15_500, bucket: 'porVencer' },
    ]);
  });
});
