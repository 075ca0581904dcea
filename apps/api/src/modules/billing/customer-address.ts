import { isValidRuc } from '@tramo/domain';
import type { ServiceContext } from '../../types.ts';
import * as repo from './repository.ts';

/**
 * A factura needs the customer's address (Nubefact answers error 20 to an empty cliente_direccion).
 * When neither the customer record nor the form has one, the RUC lookup is asked for it; a lookup
 * that cannot answer leaves it empty, and the domain's refusal asks the counter to type it.
 */
export async function addressByRuc(ctx: Pick<ServiceContext, 'db' | 'now' | 'providers' | 'log'>, ruc: string): Promise<string | null> {
  if (!isValidRuc(ruc)) return null;
  try {
    const found = await ctx.providers.lookup.find('ruc', ruc, { db: ctx.db, now: ctx.now });
    return found?.address?.trim() || null;
  } catch (err) {
    ctx.log.warn({ err }, 'RUC lookup for a factura address failed');
    return null;
  }
}

/**
 * The address a payment's factura goes out with, found before anything is stored: as the counter
 * typed it, else the registered customer's, else the RUC lookup's; null for a boleta or when none has one.
 */
export async function receiptAddress(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'providers' | 'log'>,
  c: { docType: number; docNumber: string; customerId: number | null; typed: string | null },
): Promise<string | null> {
  if (c.docType !== 6) return null;
  if (c.typed?.trim()) return c.typed.trim();
  const registered = c.customerId ? await repo.customerById(ctx.db, c.customerId) : null;
  return registered?.address?.trim() || addressByRuc(ctx, c.docNumber);
}
