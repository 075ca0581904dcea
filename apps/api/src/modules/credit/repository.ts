import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { creditAccounts, creditAllocations, creditCollections, customers, detractionDeposits } from '../../db/schema.ts';

/**
 * Credit accounts' data (issue 35). Balances are never stored: each read sums the rows that make
 * them (credit shipments not yet invoiced, facturas al crédito, credit notes, allocations, deposits),
 * so the account can't disagree with what it is made of.
 */

/** The customer who owes a credit shipment: the third party when one pays, else the sender. */
export const CREDIT_CUSTOMER = sql.raw(`case when s.payer = 'tercero' then s.payer_customer_id else s.sender_customer_id end`);

export type AccountRow = typeof creditAccounts.$inferSelect & {
  customerName: string;
  docType: number;
  docNumber: string;
  address: string | null;
};

const accountColumns = {
  id: creditAccounts.id,
  customerId: creditAccounts.customerId,
  creditLimit: creditAccounts.creditLimit,
  termsDays: creditAccounts.termsDays,
  period: creditAccounts.period,
  status: creditAccounts.status,
  contactName: creditAccounts.contactName,
  contactEmail: creditAccounts.contactEmail,
  contactPhone: creditAccounts.contactPhone,
  createdAt: creditAccounts.createdAt,
  updatedAt: creditAccounts.updatedAt,
  updatedBy: creditAccounts.updatedBy,
  customerName: sql<string>`trim(${customers.firstName} || ' ' || coalesce(${customers.lastName}, ''))`,
  docType: customers.docType,
  docNumber: customers.docNumber,
  address: customers.address,
};

export async function accounts(db: Db | Tx, where?: SQL): Promise<AccountRow[]> {
  return db
    .select(accountColumns)
    .from(creditAccounts)
    .innerJoin(customers, eq(customers.id, creditAccounts.customerId))
    .where(where)
    .orderBy(customers.firstName, creditAccounts.id);
}

export async function accountOf(db: Db | Tx, customerId: number, lock = false): Promise<AccountRow | null> {
  const query = db
    .select(accountColumns)
    .from(creditAccounts)
    .innerJoin(customers, eq(customers.id, creditAccounts.customerId))
    .where(eq(creditAccounts.customerId, customerId));
  // Locking the account queues every credit decision of one customer (a new shipment, a
  // collection): each sees the balance the one before it left.
  const [row] = lock ? await query.for('update', { of: creditAccounts }) : await query;
  return row ?? null;
}

export async function customerById(db: Db | Tx, id: number) {
  const [row] = await db.select().from(customers).where(eq(customers.id, id));
  return row ?? null;
}

export async function insertAccount(tx: Tx, values: typeof creditAccounts.$inferInsert) {
  const [row] = await tx.insert(creditAccounts).values(values).returning();
  return row!;
}

export async function updateAccount(tx: Tx, customerId: number, values: Partial<typeof creditAccounts.$inferInsert>) {
  await tx.update(creditAccounts).set(values).where(eq(creditAccounts.customerId, customerId));
}

export interface InvoiceRow {
  id: number;
  series: string;
  number: number;
  issueDate: string;
  dueDate: string;
  status: string;
  totalCents: number;
  creditedCents: number;
  collectedCents: number;
  detractionCents: number;
  deposit: { constancia: string; depositedOn: string; amountCents: number } | null;
}

/**
 * The customer's facturas al crédito that stand (not voided, not rejected), with what credit
 * notes, collections and the detracción deposit took off each. The due date is the factura's
 * own (its last instalment), else its issue date plus the account's terms.
 */
export async function invoicesOf(
  db: Db | Tx,
  docNumber: string,
  termsDays: number,
  options: { openOnly?: boolean; until?: string } = {},
): Promise<InvoiceRow[]> {
  return (await invoicesOfMany(db, [{ docNumber, termsDays }], options)).get(docNumber) ?? [];
}

/**
 * invoicesOf for many customers in one statement (issue 37: the list of accounts read three
 * statements per account). Set-based: the credit notes and the allocations are summed once for
 * all the facturas and joined, instead of a subquery per factura (the credit notes' one scanned
 * every credit note for each factura: `modifies` has no index). Keyed by the customer's document.
 */
export async function invoicesOfMany(
  db: Db | Tx,
  customers: { docNumber: string; termsDays: number }[],
  options: { openOnly?: boolean; until?: string } = {},
): Promise<Map<string, InvoiceRow[]>> {
  const byCustomer = new Map<string, InvoiceRow[]>(customers.map((c) => [c.docNumber, []]));
  if (customers.length === 0) return byCustomer;
  const accounts = sql.join(
    customers.map((c) => sql`(${c.docNumber}::text, ${c.termsDays}::int)`),
    sql`, `,
  );
  const result = await db.execute(sql`
    with acc (doc_number, terms_days) as (values ${accounts}),
    inv as (
      select d.id, d.customer_doc_number, d.series, d.number, d.issue_date::text as issue_date, d.status,
        d.series || '-' || lpad(d.number::text, 8, '0') as label,
        round(d.total * 100)::bigint as total_cents,
        coalesce((d.document -> 'detraction' ->> 'amountCents')::bigint, 0) as detraction_cents,
        coalesce(d.document -> 'payment' ->> 'dueDate', (d.issue_date + acc.terms_days)::text) as due_date
      from documents d
      join acc on acc.doc_number = d.customer_doc_number
      ${
        // Only the facturas open now (kept by 0101's triggers): an account's paid years are not read.
        options.openOnly ? sql`join credit_open_invoices o on o.document_id = d.id and o.customer_doc_number = acc.doc_number` : sql``
      }
      where d.type = '01' and d.status not in ('anulado', 'rechazado')
        and d.document -> 'payment' ->> 'form' = 'credito'
        ${options.until ? sql`and d.issue_date <= ${options.until}::date` : sql``}
    ),
    notes as (
      select n.modifies, sum(round(n.total * 100))::bigint as cents
      from documents n
      where n.type = '07' and n.status not in ('anulado', 'rechazado') and n.document -> 'creditNote' ->> 'modifiedType' = '01'
        and n.modifies in (select label from inv)
      group by n.modifies
    ),
    allocated as (
      select a.document_id, sum(round(a.amount * 100))::bigint as cents
      from credit_allocations a
      where a.live and a.document_id in (select id from inv)
      group by a.document_id
    )
    select inv.*, coalesce(notes.cents, 0)::bigint as credited_cents, coalesce(allocated.cents, 0)::bigint as collected_cents,
      dd.constancia, dd.deposited_on::text as deposited_on, round(dd.amount * 100)::bigint as deposited_cents
    from inv
    left join notes on notes.modifies = inv.label
    left join allocated on allocated.document_id = inv.id
    left join detraction_deposits dd on dd.document_id = inv.id
    order by inv.due_date, inv.issue_date, inv.id`);
  for (const r of result.rows as Record<string, unknown>[]) {
    const row: InvoiceRow = {
      id: Number(r.id),
      series: String(r.series),
      number: Number(r.number),
      issueDate: String(r.issue_date),
      dueDate: String(r.due_date),
      status: String(r.status),
      totalCents: Number(r.total_cents),
      creditedCents: Number(r.credited_cents),
      collectedCents: Number(r.collected_cents),
      detractionCents: Number(r.detraction_cents),
      deposit: r.constancia
        ? { constancia: String(r.constancia), depositedOn: String(r.deposited_on), amountCents: Number(r.deposited_cents) }
        : null,
    };
    if (options.openOnly && row.totalCents - row.creditedCents - row.collectedCents - (row.deposit ? row.detractionCents : 0) <= 0) continue;
    byCustomer.get(String(r.customer_doc_number))?.push(row);
  }
  return byCustomer;
}

/** The customer's credit shipments that no live factura carries yet, and their sum. */
export async function uninvoicedShipments(db: Db | Tx, customerId: number, until?: string) {
  const result = await db.execute(sql`
    select s.id, s.code, s.created_at, s.quoted_price::text as price, round(s.quoted_price * 100)::bigint as cents,
      o.name as origin_name, de.name as destination_name
    from shipments s
    join branches o on o.id = s.origin_branch_id
    join branches de on de.id = s.destination_branch_id
    where s.payment_moment = 'credito' and ${CREDIT_CUSTOMER} = ${customerId} and s.status <> 'Anulado'
      ${until ? sql`and s.created_at < ${until}` : sql``}
      and not exists (select 1 from document_shipments ds where ds.shipment_id = s.id and ds.live and ds.role = 'comprobante')
    order by s.created_at, s.id`);
  return (result.rows as Record<string, unknown>[]).map((r) => ({
    id: Number(r.id),
    code: String(r.code),
    createdAt: new Date(String(r.created_at)),
    cents: Number(r.cents),
    route: `${String(r.origin_name)} → ${String(r.destination_name)}`,
  }));
}

/** The uninvoiced credit shipments' sum per customer, for many customers in one statement (the list of accounts). */
export async function uninvoicedCentsOfMany(db: Db | Tx, customerIds: number[]): Promise<Map<number, number>> {
  const sums = new Map<number, number>(customerIds.map((id) => [id, 0]));
  if (customerIds.length === 0) return sums;
  const result = await db.execute(sql`
    select o.customer_id, coalesce(sum(round(s.quoted_price * 100)), 0)::bigint as cents
    from credit_open_shipments o
    join shipments s on s.id = o.shipment_id
    where o.customer_id in (${sql.join(
      customerIds.map((id) => sql`${id}::int`),
      sql`, `,
    )})
    group by 1`);
  for (const r of result.rows as { customer_id: unknown; cents: unknown }[]) sums.set(Number(r.customer_id), Number(r.cents));
  return sums;
}

/** unappliedCents for many customers in one statement (the list of accounts). */
export async function unappliedCentsOfMany(db: Db | Tx, customerIds: number[]): Promise<Map<number, number>> {
  const sums = new Map<number, number>(customerIds.map((id) => [id, 0]));
  if (customerIds.length === 0) return sums;
  const result = await db.execute(sql`
    select c.customer_id,
      coalesce(sum(round(c.amount * 100) - coalesce((select sum(round(a.amount * 100)) from credit_allocations a where a.collection_id = c.id and a.live), 0)), 0)::bigint as cents
    from credit_open_collections o
    join credit_collections c on c.id = o.collection_id
    where o.customer_id in (${sql.join(
      customerIds.map((id) => sql`${id}::int`),
      sql`, `,
    )}) and c.status = 'vigente'
    group by c.customer_id`);
  for (const r of result.rows as { customer_id: unknown; cents: unknown }[]) sums.set(Number(r.customer_id), Number(r.cents));
  return sums;
}

/** Money received and not applied to any factura: the customer's credit balance. */
export async function unappliedCents(db: Db | Tx, customerId: number): Promise<number> {
  const result = await db.execute(sql`
    select coalesce(sum(round(c.amount * 100) - coalesce((select sum(round(a.amount * 100)) from credit_allocations a where a.collection_id = c.id and a.live), 0)), 0)::bigint as cents
    from credit_collections c where c.customer_id = ${customerId} and c.status = 'vigente'`);
  return Number((result.rows[0] as { cents: unknown }).cents);
}

export async function collectionsOf(db: Db | Tx, customerId: number) {
  const rows = await db
    .select()
    .from(creditCollections)
    .where(eq(creditCollections.customerId, customerId))
    .orderBy(creditCollections.receivedOn, creditCollections.id);
  const allocations = await db
    .select({
      collectionId: creditAllocations.collectionId,
      documentId: creditAllocations.documentId,
      amount: creditAllocations.amount,
      live: creditAllocations.live,
    })
    .from(creditAllocations)
    .innerJoin(creditCollections, eq(creditCollections.id, creditAllocations.collectionId))
    .where(eq(creditCollections.customerId, customerId));
  return rows.map((c) => ({ ...c, allocations: allocations.filter((a) => a.collectionId === c.id) }));
}

export async function collectionByKey(db: Db | Tx, clientKey: string) {
  const [row] = await db.select().from(creditCollections).where(eq(creditCollections.clientKey, clientKey));
  return row ?? null;
}

export async function collectionById(db: Db | Tx, id: number, lock = false) {
  const query = db.select().from(creditCollections).where(eq(creditCollections.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function insertCollection(tx: Tx, values: typeof creditCollections.$inferInsert, allocations: { documentId: number; amount: string }[]) {
  const [row] = await tx.insert(creditCollections).values(values).returning();
  if (allocations.length > 0) await tx.insert(creditAllocations).values(allocations.map((a) => ({ ...a, collectionId: row!.id })));
  return row!;
}

export async function voidCollection(tx: Tx, id: number, values: { voidReason: string; voidedAt: Date; voidedBy: number }) {
  // The trigger (migration 0080) ends its allocations in this same statement.
  await tx
    .update(creditCollections)
    .set({ status: 'anulado', ...values })
    .where(and(eq(creditCollections.id, id), eq(creditCollections.status, 'vigente')));
}

export async function insertDeposit(tx: Tx, values: typeof detractionDeposits.$inferInsert) {
  const [row] = await tx.insert(detractionDeposits).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/** A factura by id, locked while money is applied to it. */
export async function invoiceDocument(tx: Tx | Db, id: number) {
  const result = await tx.execute(sql`select id, type, series, number, status, customer_doc_number, issue_date::text as issue_date,
      round(total * 100)::bigint as total_cents, coalesce((document -> 'detraction' ->> 'amountCents')::bigint, 0) as detraction_cents,
      document -> 'payment' ->> 'form' as payment_form
    from documents where id = ${id} for update`);
  const r = result.rows[0] as Record<string, unknown> | undefined;
  return r
    ? {
        id: Number(r.id),
        type: String(r.type),
        label: `${String(r.series)}-${String(r.number)}`,
        status: String(r.status),
        docNumber: String(r.customer_doc_number),
        issueDate: String(r.issue_date),
        totalCents: Number(r.total_cents),
        detractionCents: Number(r.detraction_cents),
        credit: r.payment_form === 'credito',
      }
    : null;
}

export interface StatementSources {
  shipments: { date: string; code: string; cents: number }[];
  invoices: { date: string; label: string; totalCents: number; carriedCents: number }[];
  /** `reopenedCents`: what the factura had gathered of the account's credit shipments, when this accepted note credited it whole (migrations 0083, 0115). */
  notes: { date: string; label: string; cents: number; reopenedCents: number; modifies: string }[];
  collections: { date: string; label: string; cents: number; voidedOn: string | null }[];
  deposits: { date: string; label: string; cents: number }[];
}

/** Everything that moved a customer's account up to `until` (a Lima date), for its estado de cuenta. */
export async function statementSources(db: Db | Tx, customerId: number, docNumber: string, until: string): Promise<StatementSources> {
  const lima = (column: string) => sql.raw(`(${column} at time zone 'America/Lima')::date::text`);
  const invoiceWhere = sql`d.type = '01' and d.customer_doc_number = ${docNumber} and d.status not in ('anulado', 'rechazado')
    and d.document -> 'payment' ->> 'form' = 'credito' and d.issue_date <= ${until}::date`;
  // The account's credit shipments a document gathered (live or since reopened).
  const carried = (doc: 'd') =>
    sql`(select coalesce(sum(round(s.quoted_price * 100)), 0)::bigint from document_shipments ds join shipments s on s.id = ds.shipment_id
      where ds.document_id = ${sql.raw(doc)}.id and ds.role = 'comprobante' and s.payment_moment = 'credito' and ${CREDIT_CUSTOMER} = ${customerId})`;
  // The notes SUNAT accepted against the note's factura up to (and before) this one: the accepted
  // note that reaches the total reopened it (a pending one frees nothing, migration 0115).
  const acceptedUpTo = (op: '<' | '<=') =>
    sql.raw(`(select coalesce(sum(m.total), 0) from documents m where m.type = '07' and m.modifies = n.modifies
      and m.status = 'aceptado' and m.document -> 'creditNote' ->> 'modifiedType' = '01' and m.id ${op} n.id)`);
  const [shipments, invoices, notes, collections, deposits] = await Promise.all([
    db.execute(sql`select ${lima('s.created_at')} as day, s.code, round(s.quoted_price * 100)::bigint as cents
      from shipments s where s.payment_moment = 'credito' and ${CREDIT_CUSTOMER} = ${customerId} and s.status <> 'Anulado'
        and (s.created_at at time zone 'America/Lima')::date <= ${until}::date
      order by s.created_at, s.id`),
    db.execute(sql`select d.issue_date::text as day, d.series || '-' || d.number as label, round(d.total * 100)::bigint as cents,
        ${carried('d')} as carried
      from documents d where ${invoiceWhere} order by d.issue_date, d.id`),
    db.execute(sql`select n.issue_date::text as day, n.series || '-' || n.number as label, round(n.total * 100)::bigint as cents,
        d.series || '-' || d.number as modifies,
        case when n.status = 'aceptado' and ${acceptedUpTo('<=')} >= d.total and ${acceptedUpTo('<')} < d.total then ${carried('d')} else 0 end as reopened
      from documents n join documents d on n.modifies = d.series || '-' || lpad(d.number::text, 8, '0')
      where n.type = '07' and n.status not in ('anulado', 'rechazado') and n.document -> 'creditNote' ->> 'modifiedType' = '01'
        and ${invoiceWhere} and n.issue_date <= ${until}::date
      order by n.issue_date, n.id`),
    db.execute(sql`select c.received_on::text as day, c.method || coalesce(' ' || c.bank, '') || coalesce(' ' || c.operation_number, '') as label,
        round(c.amount * 100)::bigint as cents, ${lima('c.voided_at')} as voided_on
      from credit_collections c where c.customer_id = ${customerId} and c.received_on <= ${until}::date order by c.received_on, c.id`),
    db.execute(sql`select dd.deposited_on::text as day, 'Constancia ' || dd.constancia || ' (' || d.series || '-' || d.number || ')' as label,
        round(dd.amount * 100)::bigint as cents
      from detraction_deposits dd join documents d on d.id = dd.document_id
      where ${invoiceWhere} and dd.deposited_on <= ${until}::date order by dd.deposited_on, dd.document_id`),
  ]);
  const rows = (r: { rows: unknown[] }) => r.rows as Record<string, unknown>[];
  return {
    shipments: rows(shipments).map((r) => ({ date: String(r.day), code: String(r.code), cents: Number(r.cents) })),
    invoices: rows(invoices).map((r) => ({
      date: String(r.day),
      label: String(r.label),
      totalCents: Number(r.cents),
      carriedCents: Number(r.carried),
    })),
    notes: rows(notes).map((r) => ({
      date: String(r.day),
      label: String(r.label),
      cents: Number(r.cents),
      reopenedCents: Number(r.reopened),
      modifies: String(r.modifies),
    })),
    collections: rows(collections).map((r) => ({
      date: String(r.day),
      label: String(r.label),
      cents: Number(r.cents),
      voidedOn: r.voided_on ? String(r.voided_on) : null,
    })),
    deposits: rows(deposits).map((r) => ({ date: String(r.day), label: String(r.label), cents: Number(r.cents) })),
  };
}

/**
 * The Lima days on which each active account's customer sent credit shipments that no live
 * comprobante carries yet, before `today` ('Facturar periodos vencidos' groups them into periods).
 */
export async function uninvoicedDaysOfActiveAccounts(db: Db | Tx, today: string): Promise<Map<number, string[]>> {
  const result = await db.execute(sql`
    select ${CREDIT_CUSTOMER} as customer_id, (s.created_at at time zone 'America/Lima')::date::text as day
    from shipments s
    where s.payment_moment = 'credito' and s.status <> 'Anulado'
      and (s.created_at at time zone 'America/Lima')::date < ${today}::date
      and ${CREDIT_CUSTOMER} in (select a.customer_id from credit_accounts a where a.status = 'activa')
      and not exists (select 1 from document_shipments ds where ds.shipment_id = s.id and ds.live and ds.role = 'comprobante')
    group by 1, 2
    order by 1, 2`);
  const days = new Map<number, string[]>();
  for (const r of result.rows as { customer_id: unknown; day: unknown }[]) {
    const id = Number(r.customer_id);
    days.set(id, [...(days.get(id) ?? []), String(r.day)]);
  }
  return days;
}

/** Whether a document still bills shipments (a live comprobante link): not voided, rejected or credited whole. */
export async function billsShipments(db: Db | Tx, documentId: number): Promise<boolean> {
  const result = await db.execute(
    sql`select exists (select 1 from document_shipments where document_id = ${documentId} and live and role = 'comprobante') as bills`,
  );
  return Boolean((result.rows[0] as { bills: unknown }).bills);
}
