import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { answers, centsToNumber, creditableDocumentSchema, creditableQuerySchema, scopeOf, type CreditableDocument } from '@tramo/domain';
import { guard } from '../../plugins/auth.ts';
import { currentUser, type App, type ServiceContext, type SessionUser } from '../../types.ts';

/*
 * The credit-note form picks the document it modifies from the register: the accepted facturas and
 * boletas (neither voided nor rejected, SUNAT 2119-2121) of the customer, or matching what is typed
 * (number or customer), each with what is left to credit after the live notes against it and, for a
 * factura al crédito, the collections applied to it (migration 0114).
 */

const LIMIT = 30;

export async function creditableDocuments(
  ctx: ServiceContext,
  user: SessionUser,
  query: z.output<typeof creditableQuerySchema>,
): Promise<CreditableDocument[]> {
  const scope = scopeOf(user);
  const q = query.q ?? '';
  const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const numberMatch = /^([A-Za-z0-9]{4})-?0*(\d{1,8})$/.exec(q.replace(/\s/g, ''));
  const result = await ctx.db.execute(sql`
    select d.id, d.type, d.series, d.number, d.issue_date::text as issue_date, d.customer_id, d.customer_doc_type,
           d.customer_doc_number, d.customer_name, round(d.total * 100)::bigint as total_cents,
           d.document -> 'payment' ->> 'form' as payment_form,
           coalesce((select sum(round(n.total * 100)) from documents n
                      where n.type = '07' and n.modifies = d.series || '-' || lpad(d.number::text, 8, '0')
                        and n.status not in ('anulado', 'rechazado')
                        and n.document -> 'creditNote' ->> 'modifiedType' = d.type), 0)::bigint as credited_cents,
           -- A factura's collections already applied (the credit module's allocations, read only): paid, not creditable (0114).
           coalesce((select sum(round(a.amount * 100)) from credit_allocations a
                      where d.type = '01' and a.document_id = d.id and a.live), 0)::bigint as collected_cents
      from documents d
     where d.type in ('01', '03') and d.status = 'aceptado'
       and (${scope === 'all'} or d.branch_id = ${typeof scope === 'number' ? scope : -1})
       and (${!query.customerDocNumber} or d.customer_doc_number = ${query.customerDocNumber ?? ''})
       and (${q === ''}
            or (${numberMatch !== null} and d.series = ${numberMatch?.[1]?.toUpperCase() ?? ''} and d.number = ${Number(numberMatch?.[2] ?? 0)})
            or d.customer_name ilike ${like} or d.customer_doc_number like ${like}
            or (d.series || '-' || lpad(d.number::text, 8, '0')) ilike ${like})
     order by d.issue_date desc, d.id desc
     limit ${LIMIT}`);
  return (result.rows as Record<string, unknown>[]).map((r) => {
    const total = Number(r.total_cents);
    return {
      id: Number(r.id),
      type: r.type as '01' | '03',
      series: String(r.series),
      number: Number(r.number),
      issueDate: String(r.issue_date),
      customerId: r.customer_id === null ? null : Number(r.customer_id),
      customerDocType: String(r.customer_doc_type),
      customerDocNumber: String(r.customer_doc_number),
      customerName: String(r.customer_name),
      total: centsToNumber(total),
      creditable: centsToNumber(Math.max(0, total - Number(r.credited_cents) - Number(r.collected_cents))),
      paymentForm: (r.payment_form as string | null) ?? null,
    };
  });
}

export default async function creditableRoutes(app: App) {
  const staff = guard(app, { roles: ['admin', 'agent'] });
  app.get(
    '/billing/creditable',
    {
      schema: {
        tags: ['billing'],
        summary: 'Comprobantes aceptados que una nota de crédito puede modificar, con lo que queda por acreditar',
        querystring: creditableQuerySchema,
        response: answers({ 200: z.array(creditableDocumentSchema) }),
      },
      preHandler: staff,
    },
    async (request) => creditableDocuments(app, currentUser(request), request.query),
  );
}
