import { ListenedCache } from './listened-cache.ts';

/**
 * The channel every API process LISTENs on for changes to what a shipment creation reads besides
 * its own input: branches and the price tables. The triggers of migration 0020 send on it (a
 * statement-level trigger on branches, weight_factor_tables and weight_factor_tiers), so any
 * writer — the API, a seed, an operator's SQL — reaches every process at its commit.
 */
export const REFERENCE_CHANNEL = 'tramo_reference';

/**
 * Branches and route price tables as a creation reads them, kept per process so a creation does
 * not read them again in its transaction (two of its round trips, issue 19). Any change to those
 * tables evicts everything (they change a few times a day; a creation reloads a route in one read).
 * Whoever changes the tables through this process also evicts once committed (`evictAll`), so its
 * own next request cannot run ahead of the notification.
 */
export class ReferenceCache extends ListenedCache<string, unknown> {
  constructor() {
    super(REFERENCE_CHANNEL);
  }

  protected notified() {
    this.evictAll();
  }
}
