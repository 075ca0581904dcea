import { sql } from 'drizzle-orm';
import {
  centsToNumber,
  csvDialectFor,
  pleFileName,
  plePeriod,
  pleText14,
  salesRegisterCsv,
  salesRegisterRow,
  salesRegisterTotals,
  toCents,
  type SalesRegister,
  type SalesRegisterSource,
  type SalesRegisterTotals,
} from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import type { ServiceContext } from '../../types.ts';
import { billingOf } from './provider.ts';

/*
 * The Registro de Ventas e Ingresos of a month (issue #32, PLE 14.1): the facturas, boletas and
 * credit notes issued in it (a document SUNAT rejected never existed for it; guides and vouchers
 * are not sales), read through the read replica like the other reports. Its totals are checked
 * against the documents register's monthly counters, which the database keeps in the transaction of
 * every document change: the accountant sees at once whether the file adds up to the register.
 */

interface SourceRow extends Record<string, unknown> {
  id: number;
  type: '01' | '03' | '07';
  series: string;
  number: number;
  issue_date: string;
  status: string;
  customer_doc_type: string;
  customer_doc_number: string;
  customer_name: string;
  gravada: string;
  exonerada: string;
  inafecta: string;
  igv: string;
  total: string;
  payment: { dueDate?: string | null; instalments?: { fecha_de_pago: string }[] } | null;
  credit_note: { modifiedType: string; modifiedSeries: string; modifiedNumber: number } | null;
  detraction: { percent: number; amountCents: number } | null;
  modified_issue_date: string | null;
}

const monthBounds = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return { first: `${month}-01`, next };
};

const dayOf = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10));

/** The month's documents in the register's order, or one slice of them (`page`: its offset and size). */
async function monthDocuments(db: Db, month: string, page?: { offset: number; size: number }): Promise<SalesRegisterSource[]> {
  const { first, next } = monthBounds(month);
  const { rows } = await db.execute<SourceRow>(sql`
    select d.id, d.type, d.series, d.number, d.issue_date::text as issue_date, d.status,
           d.customer_doc_type, d.customer_doc_number, d.customer_name,
           d.gravada::text as gravada, d.exonerada::text as exonerada, d.inafecta::text as inafecta,
           d.igv::text as igv, d.total::text as total,
           d.document -> 'payment' as payment, d.document -> 'creditNote' as credit_note,
           d.document -> 'detraction' as detraction, m.issue_date::text as modified_issue_date
    from documents d
    left join documents m
      on d.type = '07'
     and m.type = d.document -> 'creditNote' ->> 'modifiedType'
     and m.series = d.document -> 'creditNote' ->> 'modifiedSeries'
     and m.number = (d.document -> 'creditNote' ->> 'modifiedNumber')::int
    where d.type in ('01', '03', '07') and d.status <> 'rechazado'
      and d.issue_date >= ${first}::date and d.issue_date < ${next}::date
    order by d.issue_date, d.type, d.series, d.number
    ${page ? sql`limit ${page.size} offset ${page.offset}` : sql``}`);
  return rows.map((r) => {
    const instalments = r.payment?.instalments ?? [];
    const note = r.credit_note;
    return {
      id: Number(r.id),
      type: r.type,
      series: r.series,
      number: Number(r.number),
      issueDate: dayOf(r.issue_date),
      dueDate: r.payment?.dueDate ?? instalments[instalments.length - 1]?.fecha_de_pago ?? null,
      status: r.status,
      customerDocType: r.customer_doc_type,
      customerDocNumber: r.customer_doc_number,
      customerName: r.customer_name,
      gravadaCents: toCents(r.gravada),
      exoneradaCents: toCents(r.exonerada),
      inafectaCents: toCents(r.inafecta),
      igvCents: toCents(r.igv),
      totalCents: toCents(r.total),
      modified: note
        ? {
            issueDate: r.modified_issue_date ? dayOf(r.modified_issue_date) : null,
            type: note.modifiedType,
            series: note.modifiedSeries,
            number: Number(note.modifiedNumber),
          }
        : null,
      detraction: r.detraction ? { percent: Number(r.detraction.percent), amountCents: Number(r.detraction.amountCents) } : null,
    };
  });
}

interface TotalsRow extends Record<string, unknown> {
  count: number;
  voided: number;
  base: string;
  igv: string;
  exonerada: string;
  inafecta: string;
  total: string;
  detraction_cents: string;
}

/**
 * The month's totals summed by the database with the lines' own rules (salesRegisterRow: a credit
 * note subtracts, a voided document counts and adds nothing, nor does its detracción), so a page of
 * the register reads one page of documents and one row of sums, not the whole month into memory
 * (issue 37: the month's JSON mapped in the API was most of the page's time).
 */
async function monthTotals(db: Db, month: string): Promise<SalesRegisterTotals> {
  const { first, next } = monthBounds(month);
  const signed = (column: string) =>
    sql.raw(`coalesce(sum(case when status = 'anulado' then 0 when type = '07' then -${column} else ${column} end), 0)::text`);
  const { rows } = await db.execute<TotalsRow>(sql`
    select count(*)::int as count, (count(*) filter (where status = 'anulado'))::int as voided,
           ${signed('gravada')} as base, ${signed('igv')} as igv, ${signed('exonerada')} as exonerada,
           ${signed('inafecta')} as inafecta, ${signed('total')} as total,
           coalesce(sum((document -> 'detraction' ->> 'amountCents')::bigint) filter (where status <> 'anulado'), 0)::text as detraction_cents
    from documents
    where type in ('01', '03', '07') and status <> 'rechazado'
      and issue_date >= ${first}::date and issue_date < ${next}::date`);
  const r = rows[0]!;
  return {
    count: Number(r.count),
    voided: Number(r.voided),
    base: centsToNumber(toCents(r.base)),
    igv: centsToNumber(toCents(r.igv)),
    exonerada: centsToNumber(toCents(r.exonerada)),
    inafecta: centsToNumber(toCents(r.inafecta)),
    total: centsToNumber(toCents(r.total)),
    detraction: centsToNumber(Number(r.detraction_cents)),
  };
}

interface CounterRow extends Record<string, unknown> {
  type: string;
  status: string;
  n: string;
  gravada: string;
  exonerada: string;
  inafecta: string;
  igv: string;
  total: string;
}

/** The month's sales from the register's counters: notes subtract, voided documents count but add nothing. */
async function monthCounters(db: Db, month: string): Promise<SalesRegister['counters']> {
  const { rows } = await db.execute<CounterRow>(sql`
    select type, status, sum(n)::text as n, sum(gravada)::text as gravada, sum(exonerada)::text as exonerada,
           sum(inafecta)::text as inafecta, sum(igv)::text as igv, sum(total)::text as total
    from document_monthly_totals
    where month = ${`${month}-01`}::date and type in ('01', '03', '07') and status <> 'rechazado'
    group by type, status`);
  const sum = (pick: (r: CounterRow) => string) =>
    centsToNumber(rows.filter((r) => r.status !== 'anulado').reduce((s, r) => s + (r.type === '07' ? -1 : 1) * toCents(pick(r)), 0));
  return {
    count: rows.reduce((s, r) => s + Number(r.n), 0),
    base: sum((r) => r.gravada),
    igv: sum((r) => r.igv),
    exonerada: sum((r) => r.exonerada),
    inafecta: sum((r) => r.inafecta),
    total: sum((r) => r.total),
  };
}

/** The register's answer around its lines: the period, the file's name, whether the totals match the counters. */
function registerOf(
  ctx: ServiceContext,
  month: string,
  rows: SalesRegister['rows'],
  totals: SalesRegisterTotals,
  counters: SalesRegister['counters'],
  page: number,
  pageSize: number,
): SalesRegister {
  const reconciled = (['count', 'base', 'igv', 'exonerada', 'inafecta', 'total'] as const).every((k) => totals[k] === counters[k]);
  return {
    month,
    period: plePeriod(month),
    pleFileName: pleFileName(billingOf(ctx).issuer.ruc, month, totals.count > 0),
    rows,
    page,
    pageSize,
    totals,
    counters,
    reconciled,
  };
}

/** The month's whole register (the PLE file and the CSV hold every line), its totals and the counters it must match. */
async function wholeMonth(ctx: ServiceContext, month: string): Promise<SalesRegister> {
  const [sources, counters] = await Promise.all([monthDocuments(ctx.readDb, month), monthCounters(ctx.readDb, month)]);
  const rows = sources.map((s, i) => salesRegisterRow(s, i + 1));
  return registerOf(ctx, month, rows, salesRegisterTotals(rows), counters, 1, rows.length);
}

/** `GET /billing/registro-ventas?mes=&page=&pageSize=`: a page of the month's register with the whole month's totals. */
export async function salesRegister(ctx: ServiceContext, month: string, page: number, pageSize: number): Promise<SalesRegister> {
  const offset = (page - 1) * pageSize;
  const [sources, totals, counters] = await Promise.all([
    monthDocuments(ctx.readDb, month, { offset, size: pageSize }),
    monthTotals(ctx.readDb, month),
    monthCounters(ctx.readDb, month),
  ]);
  // Correlatives count from the month's first line, whatever the page.
  const rows = sources.map((s, i) => salesRegisterRow(s, offset + i + 1));
  return registerOf(ctx, month, rows, totals, counters, page, pageSize);
}

/** The PLE 14.1 text file of the month, under SUNAT's file name. */
export async function salesRegisterPle(ctx: ServiceContext, month: string): Promise<{ text: string; filename: string }> {
  const register = await wholeMonth(ctx, month);
  return { text: pleText14(register.rows, month), filename: register.pleFileName };
}

/** The month's register as a CSV Excel opens (separator and decimal mark by the locale). */
export async function salesRegisterCsvFile(ctx: ServiceContext, month: string, locale: string): Promise<string> {
  return salesRegisterCsv(await wholeMonth(ctx, month), csvDialectFor(locale));
}
