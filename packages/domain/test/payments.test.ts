import { describe, expect, it } from 'vitest';
import {
  closeCashSessionSchema,
  closingSummary,
  countedFromDenominations,
  collectableAtCounter,
  csvCell,
  csvDialectFor,
  csvSeparatorFor,
  manualPaymentRequestSchema,
  PAYMENT_ADDRESS_MAX,
  MOVEMENT_CSV_COLUMNS,
  movementCsvLine,
  movementCsvPreamble,
  movementFiltersSchema,
  openCashSessionSchema,
  parseAmountCents,
  parseCsv,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_NAMES,
  PAYMENT_METHODS,
  receiptItemFor,
  receiptKey,
  receivableSums,
  type MovementCsvSource,
} from '../src/index.ts';

const valid = {
  shipmentId: 7,
  customerName: 'María Flores',
  customerDocNumber: '45879612',
  amount: '118.00',
  currency: 'PEN',
  methodCode: 'cash',
};

const problems = (body: Record<string, unknown>) => {
  const r = manualPaymentRequestSchema.safeParse(body);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('payment methods', () => {
  it('has the six codes of the spec, each with a Spanish name', () => {
    expect(PAYMENT_METHODS).toEqual(['cash', 'card_pos', 'bank_transfer', 'yape_qr', 'plin_qr', 'card_online']);
    expect(PAYMENT_METHOD_NAMES.cash).toBe('Efectivo');
    expect(PAYMENT_METHODS.filter((m) => m.endsWith('_qr'))).toHaveLength(2);
  });
});

describe('payment modal', () => {
  it('accepts a cash payment for a DNI and reads the amount in céntimos', () => {
    const r = manualPaymentRequestSchema.parse(valid);
    expect(r).toMatchObject({ amountCents: 11800, customerDocType: 1, methodCode: 'cash', currency: 'PEN', providerTxId: null });
  });
  it('refuses an amount that is not > 0 with "Monto inválido"', () => {
    for (const amount of [0, '0', -5, '-1', 'abc', '1.234', '', null, '1e3', Number.NaN]) {
      expect(problems({ ...valid, amount }).amount).toBe(PAYMENT_MESSAGES.amount);
    }
    expect(parseAmountCents('0.01')).toBe(1);
    expect(parseAmountCents(12.5)).toBe(1250);
    expect(parseAmountCents('0.1')).toBe(10);
  });
  it('wants 8 digits for a DNI and 11 for a RUC, with the spec messages', () => {
    expect(PAYMENT_MESSAGES.dni).toBe('El DNI debe tener 8 dígitos.');
    expect(PAYMENT_MESSAGES.ruc).toBe('El RUC debe tener 11 dígitos.');
    expect(problems({ ...valid, customerDocNumber: '1234567' }).customerDocNumber).toBe(PAYMENT_MESSAGES.dni);
    expect(problems({ ...valid, customerDocType: 1, customerDocNumber: '4587961a' }).customerDocNumber).toBe(PAYMENT_MESSAGES.dni);
    expect(problems({ ...valid, customerDocType: 6, customerDocNumber: '2010007097' }).customerDocNumber).toBe(PAYMENT_MESSAGES.ruc);
    expect(manualPaymentRequestSchema.parse({ ...valid, customerDocNumber: '20100070970' }).customerDocType).toBe(6);
    expect(manualPaymentRequestSchema.parse({ ...valid, customerDocType: '6', customerDocNumber: '20100070970' }).customerDocType).toBe(6);
  });
  it("carries a factura's address as typed (trimmed), blank as absent, at most 200 characters", () => {
    const ruc = { ...valid, customerDocType: 6, customerDocNumber: '20100070970' };
    expect(manualPaymentRequestSchema.parse({ ...ruc, customerAddress: '  Av. Morro Solar 1086, Lima ' }).customerAddress).toBe(
      'Av. Morro Solar 1086, Lima',
    );
    expect(manualPaymentRequestSchema.parse({ ...ruc, customerAddress: '   ' }).customerAddress).toBeNull();
    expect(manualPaymentRequestSchema.parse(ruc).customerAddress).toBeNull();
    expect(problems({ ...ruc, customerAddress: 'x'.repeat(PAYMENT_ADDRESS_MAX + 1) }).customerAddress).toBe(
      `Máximo ${PAYMENT_ADDRESS_MAX} caracteres`,
    );
  });
  it('requires the name', () => {
    expect(problems({ ...valid, customerName: '  ' }).customerName).toBe(PAYMENT_MESSAGES.name);
  });
  it('takes PEN only: "Este modal solo soporta PEN."', () => {
    expect(PAYMENT_MESSAGES.currency).toBe('Este modal solo soporta PEN.');
    expect(problems({ ...valid, currency: 'USD' }).currency).toBe(PAYMENT_MESSAGES.currency);
    expect(manualPaymentRequestSchema.parse({ ...valid, currency: undefined }).currency).toBe('PEN');
  });
  it('requires the voucher id for every method but cash', () => {
    for (const methodCode of PAYMENT_METHODS.filter((m) => m !== 'cash')) {
      expect(problems({ ...valid, methodCode }).providerTxId).toBe(PAYMENT_MESSAGES.voucher);
      expect(problems({ ...valid, methodCode, providerTxId: '  ' }).providerTxId).toBe(PAYMENT_MESSAGES.voucher);
      expect(manualPaymentRequestSchema.parse({ ...valid, methodCode, providerTxId: 'OP-991' }).providerTxId).toBe('OP-991');
    }
    expect(PAYMENT_MESSAGES.voucher.startsWith('Debes ingresar el ID del voucher')).toBe(true);
    expect(problems({ ...valid, methodCode: 'bitcoin' }).methodCode).toBe(PAYMENT_MESSAGES.method);
  });
});

describe('receipt of a payment', () => {
  it('is a boleta 03 for a DNI and a factura 01 for a RUC', () => {
    expect(receiptItemFor('TMT-000001', 11800, 1).type).toBe('03');
    expect(receiptItemFor('TMT-000001', 11800, 6).type).toBe('01');
  });
  it("reads 'Servicio de envío' + the code, at most 250 characters", () => {
    expect(receiptItemFor('TMT-000042', 100, 1).description).toBe('Servicio de envío TMT-000042');
    expect(receiptItemFor(null, 100, 1).description).toBe('Servicio de envío');
    expect(receiptItemFor('X'.repeat(400), 100, 1).description).toHaveLength(250);
  });
  it('nets the amount over 1.18 to the céntimo, IGV the rest', () => {
    expect(receiptItemFor('T', 11800, 1)).toMatchObject({ netCents: 10000, igvCents: 1800 });
    // 10.00 / 1.18 = 8.4745… → 8.47; IGV 1.53
    expect(receiptItemFor('T', 1000, 1)).toMatchObject({ netCents: 847, igvCents: 153 });
    for (let cents = 1; cents < 5000; cents += 7) {
      const r = receiptItemFor('T', cents, 1);
      expect(r.netCents + r.igvCents).toBe(cents);
      expect(Math.abs(r.netCents * 118 - cents * 100)).toBeLessThanOrEqual(59);
    }
  });
  it('keys the receipt by payment so a retry finds the same document (≤ 20 characters)', () => {
    expect(receiptKey(12)).toBe('PAGO-12');
    expect(receiptKey(2_147_483_647, 99).length).toBeLessThanOrEqual(20);
  });
});

describe('movements filters', () => {
  it("refuses 'from' after 'to' with 'Rango de fechas inválido'", () => {
    const r = movementFiltersSchema.safeParse({ dateFrom: '2026-05-10', dateTo: '2026-05-01' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Rango de fechas inválido');
    expect(movementFiltersSchema.safeParse({ dateFrom: '2026-05-01', dateTo: '2026-05-01' }).success).toBe(true);
  });
  it('takes a numeric user id only, and blank filters as absent', () => {
    expect(movementFiltersSchema.safeParse({ userId: 'abc' }).error?.issues[0]?.message).toBe(PAYMENT_MESSAGES.userId);
    expect(movementFiltersSchema.parse({ userId: '12', branchId: '', method: '', status: '' })).toEqual({ userId: 12 });
    expect(movementFiltersSchema.safeParse({ status: 'received' }).success).toBe(false);
  });
});

const row = (over: Partial<MovementCsvSource> = {}): MovementCsvSource => ({
  date: '2026-05-01T10:00:00.000Z',
  branchName: 'Lima',
  collectedByName: 'Luis Ramírez',
  collectedByUserId: 2,
  methodName: 'Efectivo',
  amount: 1234.5,
  currency: 'PEN',
  status: 'paid',
  payerName: 'María "Mary" Flores',
  customerName: 'Comercial; Andina, SAC',
  reference: null,
  shipmentCode: 'TMT-000001',
  platePrimary: null,
  drivers: null,
  shipmentDescription: 'Caja frágil\r\nsegunda línea\nfin',
  providerTxId: null,
  ...over,
});

describe('movements CSV', () => {
  it("uses ';' where the locale writes a decimal comma, ',' elsewhere (es-PE)", () => {
    expect(csvSeparatorFor('es-PE')).toBe(',');
    expect(csvSeparatorFor('en-US')).toBe(',');
    expect(csvSeparatorFor('es-ES')).toBe(';');
    expect(csvSeparatorFor('de-DE')).toBe(';');
  });
  it('starts with a BOM, a sep= line and the 16 headers', () => {
    const pre = movementCsvPreamble(csvDialectFor('es-PE'));
    expect(pre.charCodeAt(0)).toBe(0xfeff);
    expect(pre.slice(1).split('\r\n')[0]).toBe('sep=,');
    expect(MOVEMENT_CSV_COLUMNS).toHaveLength(16);
    expect(pre.split('\r\n')[1]!.split(',')).toHaveLength(16);
  });
  it('flattens line breaks and escapes quotes and separators', () => {
    expect(csvCell('a\r\nb\nc\rd', ',')).toBe('a b c d');
    expect(csvCell('say "hi"', ',')).toBe('"say ""hi"""');
    expect(csvCell('a,b', ',')).toBe('"a,b"');
    expect(csvCell('a,b', ';')).toBe('a,b');
    expect(csvCell('a;b', ';')).toBe('"a;b"');
    expect(csvCell(null, ',')).toBe('');
  });
  it("neutralises a text cell that a spreadsheet would run as a formula (= + - @ tab CR) with a leading '", () => {
    expect(csvCell("=cmd|' /C calc'!A0", ',')).toBe("'=cmd|' /C calc'!A0");
    expect(csvCell('+51 999', ',')).toBe("'+51 999");
    expect(csvCell('-2+3', ',')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)', ',')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1+1', ',')).toBe("'\t=1+1");
    expect(csvCell('\r=1+1', ',')).toBe("' =1+1");
    expect(csvCell('=HYPERLINK("http://x")', ',')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('María = Flores', ',')).toBe('María = Flores');
    expect(csvCell(-12, ',')).toBe('-12');
  });
  it('keeps a negative amount numeric while the text cells of its line are neutralised', () => {
    const dialect = csvDialectFor('es-PE');
    const parsed = parseCsv(movementCsvLine(row({ amount: -12, payerName: "=cmd|' /C calc'!A0", customerName: '@x' }), dialect));
    expect(parsed[0]![5]).toBe('-12.00');
    expect(parsed[0]![8]).toBe("'=cmd|' /C calc'!A0");
    expect(parsed[0]![9]).toBe("'@x");
  });
  it('writes amounts with 2 decimals in the locale mark, and parses back to the same cells', () => {
    for (const locale of ['es-PE', 'es-ES']) {
      const dialect = csvDialectFor(locale);
      const text =
        movementCsvPreamble(dialect) + movementCsvLine(row(), dialect) + movementCsvLine(row({ amount: 0.1, status: 'canceled' }), dialect);
      const parsed = parseCsv(text);
      expect(parsed).toHaveLength(3);
      expect(parsed.every((r) => r.length === 16)).toBe(true);
      const mark = locale === 'es-ES' ? ',' : '.';
      expect(parsed[1]![5]).toBe(`1234${mark}50`);
      expect(parsed[2]![5]).toBe(`0${mark}10`);
      expect(parsed[1]![7]).toBe('Pagado');
      expect(parsed[2]![7]).toBe('Anulado');
      expect(parsed[1]![8]).toBe('María "Mary" Flores');
      expect(parsed[1]![9]).toBe('Comercial; Andina, SAC');
      expect(parsed[1]![14]).toBe('Caja frágil segunda línea fin');
    }
  });
  it('writes the date as dd/mm/yyyy hh:mm in Lima: a payment at 23:30 Lima (04:30 UTC the next day) stays on its Lima day', () => {
    const dialect = csvDialectFor('es-PE');
    const [evening] = parseCsv(movementCsvLine(row({ date: '2026-11-26T04:30:00.000Z' }), dialect));
    expect(evening![0]).toBe('25/11/2026 23:30');
    const [morning] = parseCsv(movementCsvLine(row({ date: '2026-11-26T13:05:59.999Z' }), dialect));
    expect(morning![0]).toBe('26/11/2026 08:05');
  });
});

describe('cash sessions', () => {
  it('compares expected (float + movements, voids negative) with counted per method; a voided charge is Anulado, not a payment', () => {
    const c = closingSummary(
      5000,
      [
        { method: 'cash', amountCents: 11800, paymentStatus: 'paid' },
        { method: 'cash', amountCents: 2050, paymentStatus: 'canceled' },
        { method: 'cash', amountCents: -2050 },
        { method: 'yape_qr', amountCents: 1999, paymentStatus: 'paid' },
      ],
      { cashCents: 16700, byMethod: { yape_qr: 1999 } },
    );
    const cash = c.lines.find((l) => l.methodCode === 'cash')!;
    expect(cash).toMatchObject({ expectedCents: 16800, countedCents: 16700, differenceCents: -100, count: 1 });
    expect(c.voided).toEqual({ count: 1, cents: 2050 });
    expect(c.lines.find((l) => l.methodCode === 'card_pos')).toMatchObject({ expectedCents: 0, countedCents: 0, differenceCents: 0 });
    expect(c).toMatchObject({ expectedCents: 18799, countedCents: 18699, differenceCents: -100 });
  });
  it('counts cash by denomination', () => {
    const body = closeCashSessionSchema.parse({
      denominations: [
        { value: 100, quantity: 2 },
        { value: '0.10', quantity: 3 },
      ],
    });
    expect(countedFromDenominations(body.denominations!)).toBe(20030);
    expect(closeCashSessionSchema.safeParse({ denominations: [{ value: 3, quantity: 1 }] }).success).toBe(false);
    expect(closeCashSessionSchema.safeParse({}).success).toBe(false);
    expect(openCashSessionSchema.parse({ float: '50.5' }).float).toBe(5050);
    expect(openCashSessionSchema.safeParse({ float: -1 }).success).toBe(false);
  });
});

describe('receivables', () => {
  it('sums per sender the shipments not Anulado without a paid payment, exactly', () => {
    const s = (customerKey: string, priceCents: number, over: { status?: string; paid?: boolean; createdAt?: string } = {}) => ({
      customerKey,
      customerName: customerKey.toUpperCase(),
      priceCents,
      createdAt: over.createdAt ?? '2026-05-01T10:00:00Z',
      status: over.status ?? 'Creado',
      paid: over.paid ?? false,
    });
    const sums = receivableSums([
      s('a', 1010),
      s('a', 2020, { createdAt: '2026-05-03T10:00:00Z' }),
      s('a', 999, { paid: true }),
      s('a', 5000, { status: 'Anulado' }),
      s('b', 10),
      s('b', 20, { status: 'Entregado' }),
      s('c', 700, { paid: true }),
    ]);
    expect(sums).toEqual([
      { customerKey: 'a', customerName: 'A', shipmentsCount: 2, openCents: 3030, lastShipmentAt: '2026-05-03T10:00:00Z' },
      { customerKey: 'b', customerName: 'B', shipmentsCount: 2, openCents: 30, lastShipmentAt: '2026-05-01T10:00:00Z' },
    ]);
  });
});

describe('collectable at the counter today', () => {
  const now = new Date('2026-05-01T05:01:00Z'); // 1 May, 00:01 in Lima
  it("takes a shipment in 'Creado' created on today's Lima day, whatever the UTC date", () => {
    expect(collectableAtCounter({ status: 'Creado', createdAt: '2026-05-01T05:00:00Z' }, now)).toBe(true);
    expect(collectableAtCounter({ status: 'Creado', createdAt: new Date('2026-05-02T04:59:00Z') }, now)).toBe(true);
  });
  it("refuses yesterday's (Lima) and any status but 'Creado'", () => {
    expect(collectableAtCounter({ status: 'Creado', createdAt: '2026-05-01T04:59:00Z' }, now)).toBe(false);
    for (const status of ['En tránsito', 'En agencia', 'Entregado', 'Anulado', 'Devuelto'])
      expect(collectableAtCounter({ status, createdAt: '2026-05-01T05:00:00Z' }, now)).toBe(false);
  });
});
