import { describe, expect, it } from 'vitest';
import {
  csvDialectFor,
  parseCsv,
  PLE_FIELD_COUNT,
  pleFileName,
  pleLine,
  salesRegisterCsv,
  salesRegisterRow,
  salesRegisterTotals,
  type SalesRegisterSource,
} from '../src/index.ts';

const source = (over: Partial<SalesRegisterSource> = {}): SalesRegisterSource => ({
  id: 7,
  type: '01',
  series: 'FFF1',
  number: 12,
  issueDate: '2026-11-05',
  dueDate: null,
  status: 'aceptado',
  customerDocType: '6',
  customerDocNumber: '20100070970',
  customerName: 'SUPERMERCADOS PERUANOS S.A.',
  gravadaCents: 100_000,
  exoneradaCents: 0,
  inafectaCents: 0,
  igvCents: 18_000,
  totalCents: 118_000,
  modified: null,
  detraction: null,
  ...over,
});

describe('Registro de Ventas (PLE 14.1)', () => {
  it('names the file as SUNAT does: LE + RUC + period + 140100 + flags', () => {
    expect(pleFileName('20605200983', '2026-11', true)).toBe('LE2060520098320261100140100001111.txt');
    expect(pleFileName('20605200983', '2026-11', false)).toBe('LE2060520098320261100140100001011.txt');
  });

  it('writes 35 pipe-ended fields with dd/mm/yyyy dates, point decimals and state 1', () => {
    const line = pleLine(salesRegisterRow(source({ dueDate: '2026-12-05' }), 1), '2026-11');
    expect(line.endsWith('|\r\n')).toBe(true);
    const f = line.slice(0, -3).split('|');
    expect(f).toHaveLength(PLE_FIELD_COUNT);
    expect(f.slice(0, 8)).toEqual(['20261100', '7', 'M1', '05/11/2026', '05/12/2026', '01', 'FFF1', '12']);
    expect([f[13], f[15], f[24], f[25], f[26], f[34]]).toEqual(['1000.00', '180.00', '1180.00', 'PEN', '1.000', '1']);
  });

  it('a voided document keeps its number with zero amounts and state 2; a detracción is noted but not in the PLE', () => {
    const voided = salesRegisterRow(source({ status: 'anulado', detraction: { percent: 4, amountCents: 4720 } }), 2);
    expect(voided).toMatchObject({ state: '2', base: 0, igv: 0, total: 0, detraction: null });
    const live = salesRegisterRow(source({ detraction: { percent: 4, amountCents: 4720 } }), 1);
    expect(live.detraction).toEqual({ percent: 4, amount: 47.2 });
    expect(pleLine(live, '2026-11').split('|')).toHaveLength(PLE_FIELD_COUNT + 1);
  });

  it('a credit note is negative and names the document it modifies; a boleta without document leaves fields 10 and 11 empty', () => {
    const note = salesRegisterRow(source({ type: '07', number: 3, modified: { issueDate: '2026-10-30', type: '01', series: 'FFF1', number: 9 } }), 3);
    const f = pleLine(note, '2026-11').split('|');
    expect([f[13], f[15], f[24]]).toEqual(['-1000.00', '-180.00', '-1180.00']);
    expect(f.slice(27, 31)).toEqual(['30/10/2026', '01', 'FFF1', '9']);
    const boleta = salesRegisterRow(source({ type: '03', series: 'BBB1', customerDocType: '0', customerDocNumber: '-', customerName: 'VARIOS' }), 4);
    expect(pleLine(boleta, '2026-11').split('|').slice(9, 12)).toEqual(['', '', 'VARIOS']);
  });

  it('totals add exactly and the CSV parses back with them', () => {
    const rows = [
      salesRegisterRow(source(), 1),
      salesRegisterRow(source({ id: 8, number: 13, gravadaCents: 10, igvCents: 2, totalCents: 12 }), 2),
      salesRegisterRow(source({ id: 9, type: '07', number: 1, gravadaCents: 10, igvCents: 2, totalCents: 12 }), 3),
    ];
    const totals = salesRegisterTotals(rows);
    expect(totals).toMatchObject({ count: 3, base: 1000, igv: 180, total: 1180 });
    const csv = parseCsv(salesRegisterCsv({ rows, totals }, csvDialectFor('es-ES')));
    expect(csv[0]).toContain('Base imponible');
    expect(csv.at(-1)![csv[0]!.indexOf('Total')]).toBe('1180,00');
    expect(csv[1]![2]).toBe('05/11/2026');
  });
});
