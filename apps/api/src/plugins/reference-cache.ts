import type { Database } from '../db/client.ts';

/**
 * The channel every API process LISTENs on for changes to what a shipment creation reads besides
 * its own input: branches and the price tables. The triggers of migration 0020 send on it (a
 * statement-level trigger on branches, weight_factor_tables and weight_factor_tiers), so any
 * writer — the API, a seed, an operator's SQL — reaches every process at its commit.
 */
export const REFERENCE_CHANNEL = 'tramo_reference';

/** A bound on what a missed notification could cost, and on the memory held. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Branches and route price tables as a creation reads them, kept per process so a creation does
 * not read them again in its transaction (two of its round trips, issue 19). Any change to those
 * tables evicts everything (they change a few times a day; a creation reloads a route in one read).
 * As the session cache: while the listening connection is down nothing is cached, and a load that
 * started before an eviction is not kept, so a missed or raced notification never leaves a stale
 * entry. Whoever changes the tables through this process also evicts once committed (`evictAll`),
 * so its own next request cannot run ahead of the notification.
 */
export class ReferenceCache {
  private entries = new Map<string, { value: unknown; at: number }>();
  private listening = false;
  /** Bumped by every eviction: a read that started before one may hold old data and is not kept. */
  private generation = 0;
  private stop: (() => Promise<void>) | null = null;

  async start(database: Database) {
    this.stop = await database.listen(REFERENCE_CHANNEL, {
      onNotify: () => this.evictAll(),
      onListening: () => {
        this.evictAll();
        this.listening = true;
      },
      onLost: () => {
        this.listening = false;
        this.evictAll();
      },
    });
  }

  async close() {
    this.listening = false;
    this.evictAll();
    await this.stop?.();
  }

  /** The cached value of `key`, else `load()`'s, kept unless an eviction came in meanwhile. */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value as T;
    const generation = this.generation;
    const value = await load();
    if (this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { value, at: Date.now() });
    }
    return value;
  }

  evictAll() {
    this.generation++;
    this.entries.clear();
  }
}
