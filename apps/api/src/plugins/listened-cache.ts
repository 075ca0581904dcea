import type { Database } from '../db/client.ts';

/** A bound on what a missed notification could cost, and on the memory held. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Values kept per process and evicted through a PostgreSQL LISTEN channel, so a change committed
 * anywhere reaches every process at its commit. While the listening connection is down nothing is
 * cached, and a load that started before an eviction is not kept, so a missed or raced notification
 * never leaves a stale entry. Null is never kept (a row not found may exist by the next request).
 * Each cache says what a payload of its channel evicts.
 */
export abstract class ListenedCache<K, V> {
  private entries = new Map<K, { value: V; at: number }>();
  private listening = false;
  /** Bumped by every eviction: a read that started before one may hold old data and is not kept. */
  private generation = 0;
  private stop: (() => Promise<void>) | null = null;

  constructor(private readonly channel: string) {}

  /** What a notification on the channel evicts. */
  protected abstract notified(payload: string): void;

  async start(database: Database) {
    this.stop = await database.listen(this.channel, {
      onNotify: (payload) => this.notified(payload),
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
  async get<T extends V>(key: K, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    // A key holds what its one loader returned: the same T each time it is asked for.
    if (hit && Date.now() - hit.at < TTL_MS) return hit.value as T;
    const generation = this.generation;
    const value = await load();
    if (value !== null && this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { value, at: Date.now() });
    }
    return value;
  }

  evict(key: K) {
    this.generation++;
    this.entries.delete(key);
  }

  evictAll() {
    this.generation++;
    this.entries.clear();
  }
}
