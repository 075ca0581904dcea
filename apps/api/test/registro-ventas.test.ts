import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limaDay, parseCsv, PLE_FIELD_COUNT, SALES_REGISTER_MONTH_MESSAGE, salesRegisterTotals, type SalesRegister } from '@tramo/domain';
import { DEMO_ISSUER } from '../src/providers/billing/index.ts';
import { sandboxBilling } from './sandbox-billing.ts';
import { engines, startTestApp, type TestContext } from './harness.ts';

/*
 * Issue #32: the Registro de Ventas e Ingresos of a seeded month. Its PLE 14.1 file passes a
 * structural check (35 fields a line, SUNAT's date and amount formats, SUNAT's file name), its
 * totals equal the documents register's counters, and its CSV parses back to the same figures.
 */

const today = limaDay(new Date());
const month = today.slice(0, 7);
const COMPANY = { doc_type: 6, doc_number: '20100070970', name: 'SUPERMERCADOS PERUANOS S.A.', address: 'Av. Morro Solar 1086, Lima' };
const PERSON = { doc_type: 1, doc_number: '70606878', name: 'ROSA QUISPE MAMANI' };
const item = (unitValue: string) => ({ description: 'Servicio de transporte de carga', unit: 'ZZ', quantity: 1, unitValue, igvType: '10' });

describe.each(engines)('Registro de Ventas (%s)', (engine) => {
  let t: TestContext;
  let admin: string;
  let billing: Awaited<ReturnType<typeof sandboxBilling>>;
  const ids: Record<string, { id: number; numero: number; serie: string }> = {};

  beforeAll(async () => {
    billing = await sandboxBilling('registro-ventas');
    t = await startTestApp(engine, { providers: { billing: billing.provider } });
    billing.followClock(t.clock.now);
    admin = await t.login('ADMIN');
    const emit = async (name: string, body: object) => {
      const res = await t.call('POST', '/api/billing/create-emit', { token: admin, body: { issueDate: today, ...body } });
      expect(res.statusCode).toBe(201);
      ids[name] = res.json();
    };
    // A factura of 708.00, a voided factura of 118.00, a boleta of 59.00, and a note of 118.00 on the first factura.
    await emit('factura', { type: '01', serie: 'FFF1', items: [item('500'), item('100')], customer: COMPANY });
    await emit('voided', { type: '01', serie: 'FFF1', items: [item('100')], customer: COMPANY });
    await emit('boleta', { type: '03', serie: 'BBB1', items: [item('50')], customer: PERSON });
    await emit('note', {
      type: '07',
      serie: 'FFF1',
      items: [item('100')],
      customer: COMPANY,
      extras: {
        documento_que_se_modifica_tipo: '01',
        documento_que_se_modifica_serie: 'FFF1',
        documento_que_se_modifica_numero: ids.factura!.numero,
        tipo_de_nota_de_credito: '01',
      },
    });
    const voided = await t.call('POST', '/api/billing/void', { token: admin, body: { id: ids.voided!.id, motivo: 'ERROR DEL SISTEMA' } });
    expect(voided.statusCode).toBe(200);
    await t.call('GET', `/api/billing/void-status/${ids.voided!.id}`, { token: admin });
  });
  afterAll(async () => {
    await t?.close();
    await billing?.cleanup();
  });

  const register = async () => {
    const res = await t.call('GET', `/api/billing/registro-ventas?mes=${month}`, { token: admin });
    expect(res.statusCode).toBe(200);
    return res.json() as SalesRegister;
  };

  it('lists the month in SUNAT’s columns: a voided factura at zero with state 2, a credit note negative with the document it modifies', async () => {
    const r = await register();
    expect(r.period).toBe(`${month.replace('-', '')}00`);
    expect(r.rows.map((row) => [row.type, row.series, row.number, row.state, row.total])).toEqual([
      ['01', 'FFF1', ids.factura!.numero, '1', 708],
      ['01', 'FFF1', ids.voided!.numero, '2', 0],
      ['03', 'BBB1', ids.boleta!.numero, '1', 59],
      ['07', 'FFF1', ids.note!.numero, '1', -118],
    ]);
    const note = r.rows[3]!;
    expect(note).toMatchObject({ base: -100, igv: -18, modified: { issueDate: today, type: '01', series: 'FFF1', number: ids.factura!.numero } });
    expect(r.rows[2]).toMatchObject({ customerDocType: '1', customerDocNumber: '70606878', customerName: 'ROSA QUISPE MAMANI' });
    expect(r.rows.map((row) => row.correlative)).toEqual(['M1', 'M2', 'M3', 'M4']);
    // The totals reconcile with the register's counters: 708 + 59 - 118 (the voided factura adds nothing).
    expect(r.totals).toMatchObject({ count: 4, voided: 1, base: 550, igv: 99, total: 649 });
    expect(r.counters).toEqual({ count: 4, base: 550, igv: 99, exonerada: 0, inafecta: 0, total: 649 });
    expect(r.reconciled).toBe(true);
    // The database sums the month by the lines' own rules (the page reads no more than its lines).
    expect(r.totals).toEqual(salesRegisterTotals(r.rows));
    // A page of the month: its lines keep the month's correlatives, the totals stay the month's.
    const second = (await t.call('GET', `/api/billing/registro-ventas?mes=${month}&page=2&pageSize=2`, { token: admin })).json() as SalesRegister;
    expect(second.rows.map((row) => row.correlative)).toEqual(['M3', 'M4']);
    expect(second).toMatchObject({ page: 2, pageSize: 2, totals: r.totals, reconciled: true });
  });

  it('exports the PLE 14.1 file under SUNAT’s name with 35 fields a line in SUNAT’s formats, adding up to the register', async () => {
    const r = await register();
    const res = await t.call('GET', `/api/billing/registro-ventas.txt?mes=${month}`, { token: admin });
    expect(res.statusCode).toBe(200);
    const name = `LE${DEMO_ISSUER.ruc}${month.replace('-', '')}00140100001111.txt`;
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(r.pleFileName).toBe(name);
    expect(res.body.endsWith('|\r\n')).toBe(true);
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(r.rows.length);
    let total = 0;
    for (const line of lines) {
      expect(line.endsWith('|')).toBe(true);
      const f = line.slice(0, -1).split('|');
      expect(f).toHaveLength(PLE_FIELD_COUNT);
      expect(f[0]).toMatch(/^\d{6}00$/);
      expect(f[2]).toMatch(/^M\d{1,9}$/);
      expect(f[3]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
      expect(f[5]).toMatch(/^(01|03|07)$/);
      expect(f[6]).toMatch(/^[FB][A-Z0-9]{3}$/);
      for (const i of [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]) expect(f[i]).toMatch(/^-?\d{1,12}\.\d{2}$/);
      expect(f[25]).toBe('PEN');
      expect(f[26]).toMatch(/^\d\.\d{3}$/);
      expect(f[34]).toMatch(/^[12]$/);
      if (f[5] === '07') {
        expect(f[27]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
        expect([f[28], f[29], f[30]]).toEqual(['01', 'FFF1', String(ids.factura!.numero)]);
      } else expect(f.slice(27, 31)).toEqual(['', '', '', '']);
      if (f[34] === '2') expect(f[24]).toBe('0.00');
      total += Math.round(Number(f[24]) * 100);
    }
    expect(total / 100).toBe(r.totals.total);
    expect(total / 100).toBe(r.counters.total);
  });

  it('exports a CSV that Excel opens (BOM, sep=, Lima dates) and that parses back to the register', async () => {
    const r = await register();
    const res = await t.call('GET', `/api/billing/registro-ventas.csv?mes=${month}&locale=es-PE`, { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    // fetch's text() drops the byte-order mark: read the first bytes themselves.
    const url = `${t.baseUrl}/api/billing/registro-ventas.csv?mes=${month}`;
    const raw = new Uint8Array(await (await fetch(url, { headers: { authorization: `Bearer ${admin}` } })).arrayBuffer());
    expect([...raw.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(res.body.startsWith('sep=,\r\n')).toBe(true);
    const rows = parseCsv(res.body);
    expect(rows[0]![0]).toBe('CUO');
    expect(rows).toHaveLength(1 + r.rows.length + 1);
    const totalColumn = rows[0]!.indexOf('Total');
    expect(rows.slice(1, -1).map((row) => Number(row[totalColumn]))).toEqual(r.rows.map((row) => row.total));
    expect(rows.slice(1, -1).map((row) => row[2])).toEqual(
      r.rows.map((row) => `${row.issueDate.slice(8)}/${row.issueDate.slice(5, 7)}/${row.issueDate.slice(0, 4)}`),
    );
    expect(Number(rows.at(-1)![totalColumn])).toBe(r.totals.total);
    // A decimal comma locale gets ';' and '649,00'.
    const es = await t.call('GET', `/api/billing/registro-ventas.csv?mes=${month}&locale=es-ES`, { token: admin });
    expect(parseCsv(es.body).at(-1)![totalColumn]).toBe('649,00');
  });

  it('answers an empty month with no rows and an empty-file name; refuses a bad month in Spanish and other roles with 403', async () => {
    const empty = (await t.call('GET', '/api/billing/registro-ventas?mes=2001-01', { token: admin })).json() as SalesRegister;
    expect(empty).toMatchObject({ rows: [], reconciled: true, pleFileName: `LE${DEMO_ISSUER.ruc}20010100140100001011.txt` });
    const bad = await t.call('GET', '/api/billing/registro-ventas?mes=2026-13', { token: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(SALES_REGISTER_MONTH_MESSAGE);
    const agent = await t.login('AGENTE1');
    expect((await t.call('GET', `/api/billing/registro-ventas?mes=${month}`, { token: agent })).statusCode).toBe(403);
  });
});
