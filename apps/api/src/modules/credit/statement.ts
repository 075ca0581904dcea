import { buildStatement, centsToNumber, CREDIT_MESSAGES, dueSchedule, limaDay, type StatementLine } from '@tramo/domain';
import { notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext } from '../../types.ts';
import { invoiceOpen } from './accounts.ts';
import * as repo from './repository.ts';

const COLLECTION_LABEL: Record<string, string> = { transferencia: 'Transferencia', deposito: 'Depósito', cheque: 'Cheque', efectivo: 'Efectivo' };
const collectionLabel = (label: string) => {
  const [method, ...rest] = label.split(' ');
  return [COLLECTION_LABEL[method!] ?? method, ...rest].join(' ');
};

/** The account's movements as statement lines (see the domain's buildStatement for what moves the balance). */
function linesOf(s: repo.StatementSources): StatementLine[] {
  return [
    ...s.shipments.map((x) => ({ date: x.date, kind: 'envio' as const, reference: x.code, debitCents: x.cents, creditCents: 0 })),
    // A factura debits only what no credit shipment on it already did (a factura of counter or
    // manual items is new debt; a period factura of credit shipments is not).
    ...s.invoices.map((x) => ({
      date: x.date,
      kind: 'factura' as const,
      reference: x.label,
      debitCents: Math.max(x.totalCents - x.carriedCents, 0),
      // IGV rounding can make a period factura a céntimo under the shipments it gathers.
      creditCents: Math.max(x.carriedCents - x.totalCents, 0),
      documentCents: x.totalCents,
    })),
    ...s.notes.flatMap((x) => [
      { date: x.date, kind: 'nota' as const, reference: x.label, debitCents: 0, creditCents: x.cents },
      // Credited whole, the factura let its shipments go: they are owed again until a new factura takes them.
      ...(x.reopenedCents > 0
        ? [{ date: x.date, kind: 'reapertura' as const, reference: `${x.modifies} (${x.label})`, debitCents: x.reopenedCents, creditCents: 0 }]
        : []),
    ]),
    ...s.collections.flatMap((x) => [
      { date: x.date, kind: 'cobro' as const, reference: collectionLabel(x.label), debitCents: 0, creditCents: x.cents },
      ...(x.voidedOn
        ? [{ date: x.voidedOn, kind: 'anulacion' as const, reference: collectionLabel(x.label), debitCents: x.cents, creditCents: 0 }]
        : []),
    ]),
    ...s.deposits.map((x) => ({ date: x.date, kind: 'detraccion' as const, reference: x.label, debitCents: 0, creditCents: x.cents })),
  ];
}

/** GET /credit/accounts/{customerId}/statement?from&to: the estado de cuenta of a period. */
export async function accountStatement(ctx: ServiceContext, customerId: number, from: string, to: string) {
  if (from > to) throw unprocessable('El rango de fechas es inválido: "desde" es posterior a "hasta".', { from: 'Rango inválido' });
  const db = ctx.readDb;
  const account = await repo.accountOf(db, customerId);
  if (!account) throw notFound(CREDIT_MESSAGES.accountNotFound);
  const lines = linesOf(await repo.statementSources(db, customerId, account.docNumber, to));
  const opening = buildStatement(
    0,
    lines.filter((l) => l.date < from),
  ).closingCents;
  const statement = buildStatement(
    opening,
    lines.filter((l) => l.date >= from),
  );
  const today = limaDay(ctx.now());
  const invoices = await repo.invoicesOf(db, account.docNumber, account.termsDays, { until: to });
  const due = dueSchedule(
    invoices.map((i) => ({ reference: `${i.series}-${i.number}`, dueDate: i.dueDate, openCents: invoiceOpen(i) })),
    today,
  );
  return {
    customerId,
    customerName: account.customerName,
    docNumber: account.docNumber,
    from,
    to,
    opening: centsToNumber(statement.openingCents),
    debits: centsToNumber(statement.debitsCents),
    credits: centsToNumber(statement.creditsCents),
    closing: centsToNumber(statement.closingCents),
    rows: statement.rows.map((r) => ({
      date: r.date,
      kind: r.kind,
      reference: r.reference,
      debit: centsToNumber(r.debitCents),
      credit: centsToNumber(r.creditCents),
      document: r.documentCents === undefined ? null : centsToNumber(r.documentCents),
      balance: centsToNumber(r.balanceCents),
    })),
    due: due.map((d) => ({ reference: d.reference, dueDate: d.dueDate, open: centsToNumber(d.openCents), bucket: d.bucket })),
  };
}
