import { isValidRuc } from '@tramo/domain';
import type { ServiceContext } from '../../types.ts';

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
