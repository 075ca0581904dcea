import type { z } from 'zod';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { centsToString, TARIFF_FIELD_MESSAGES, type customerRoutePricesBodySchema, type CustomerRoutePricesAnswer } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { customerRouteTariffs, customers, tariffArticles } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { isForeignKeyViolation, notFound, unprocessable } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';

/**
 * A customer's own tiers and article prices per route (issue 34: 'Tarifas de cliente', the
 * alternative to a discount). Stored as the route's whole list, replaced as one, audited.
 */

type Row = typeof customerRouteTariffs.$inferSelect;
type StoredTiers = Record<string, { from_kg: number; to_kg: number; factor_per_kg: number }[]>;
type StoredArticles = { articleId: number; price: string }[];

async function articleNames(db: Db | Tx, ids: number[]) {
  if (!ids.length) return new Map<number, string>();
  const rows = await db.select({ id: tariffArticles.id, name: tariffArticles.name }).from(tariffArticles).where(inArray(tariffArticles.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

function answer(row: Row, names: Map<number, string>): CustomerRoutePricesAnswer {
  const tiers: StoredTiers = {};
  for (const [type, list] of Object.entries(row.tiers as StoredTiers)) {
    tiers[type] = list.map((t) => ({ from_kg: t.from_kg, to_kg: t.to_kg, factor_per_kg: t.factor_per_kg }));
  }
  return {
    customerId: row.customerId,
    originBranchId: row.originBranchId,
    destinationBranchId: row.destinationBranchId,
    tiers,
    articles: (row.articlePrices as StoredArticles).map((a) => ({
      articleId: a.articleId,
      name: names.get(a.articleId) ?? '',
      price: Number(a.price),
    })),
  };
}

/** GET /tariffs/customers/{id}/routes: every route the customer has prices of its own on. */
export async function listCustomerRoutePrices(ctx: ServiceContext, customerId: number): Promise<CustomerRoutePricesAnswer[]> {
  const rows = await ctx.db
    .select()
    .from(customerRouteTariffs)
    .where(eq(customerRouteTariffs.customerId, customerId))
    .orderBy(asc(customerRouteTariffs.originBranchId), asc(customerRouteTariffs.destinationBranchId));
  const names = await articleNames(ctx.db, [...new Set(rows.flatMap((r) => (r.articlePrices as StoredArticles).map((a) => a.articleId)))]);
  return rows.map((r) => answer(r, names));
}

/** PUT /tariffs/customers/{id}/routes: the route's own prices replaced (both lists empty: removed). */
export function putCustomerRoutePrices(
  ctx: ServiceContext,
  actor: SessionUser,
  customerId: number,
  body: z.output<typeof customerRoutePricesBodySchema>,
) {
  const { originBranchId, destinationBranchId } = body;
  if (originBranchId === destinationBranchId) throw unprocessable(TARIFF_FIELD_MESSAGES.cloneSameRoute);
  return ctx.db
    .transaction(async (tx) => {
      const [customer] = await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
      if (!customer) throw notFound(TARIFF_FIELD_MESSAGES.customerNotFound);
      const ids = body.articles.map((a) => a.articleId);
      const names = await articleNames(tx, ids);
      if (ids.some((id) => !names.has(id)))
        throw unprocessable(TARIFF_FIELD_MESSAGES.articleNotFound, { articles: TARIFF_FIELD_MESSAGES.articleNotFound });
      const key = and(
        eq(customerRouteTariffs.customerId, customerId),
        eq(customerRouteTariffs.originBranchId, originBranchId),
        eq(customerRouteTariffs.destinationBranchId, destinationBranchId),
      );
      const [before] = await tx.select().from(customerRouteTariffs).where(key);
      const values = {
        tiers: body.tiers as StoredTiers,
        articlePrices: body.articles.map((a) => ({ articleId: a.articleId, price: centsToString(a.price) })),
        updatedAt: ctx.now(),
      };
      let after: CustomerRoutePricesAnswer | null = null;
      if (Object.keys(values.tiers).length === 0 && values.articlePrices.length === 0) {
        await tx.delete(customerRouteTariffs).where(key);
      } else {
        const [row] = await tx
          .insert(customerRouteTariffs)
          .values({ customerId, originBranchId, destinationBranchId, ...values })
          .onConflictDoUpdate({
            target: [customerRouteTariffs.customerId, customerRouteTariffs.originBranchId, customerRouteTariffs.destinationBranchId],
            set: values,
          })
          .returning();
        after = answer(row!, names);
      }
      await audit(tx, {
        userId: actor.id,
        entity: 'customer_route_tariff',
        entityId: `${customerId}:${originBranchId}-${destinationBranchId}`,
        action: 'put',
        before: before
          ? answer(
              before,
              await articleNames(
                tx,
                (before.articlePrices as StoredArticles).map((a) => a.articleId),
              ),
            )
          : null,
        after,
      });
      return after ?? { customerId, originBranchId, destinationBranchId, tiers: {}, articles: [] };
    })
    .catch((err: unknown) => {
      if (isForeignKeyViolation(err)) throw unprocessable('La sucursal, el artículo o el cliente no existe.', undefined, 'NOT_FOUND_REFERENCE');
      throw err;
    });
}
