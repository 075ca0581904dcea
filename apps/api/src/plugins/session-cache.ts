import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../db/client.ts';
import type { SessionUser } from '../types.ts';

/** The channel every API process LISTENs on; a payload is a user id, or `*` for everyone. */
export const SESSION_CHANNEL = 'tramo_session';
const EVERYONE = '*';

/** A bound on what a missed notification could cost, and on the memory held. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * The session user of each token, kept per process so a request does not read users+branches
 * again. Whatever changes what a session sees (token version, role, branch, the branch's name,
 * must-change, the user's removal) calls `sessionChanged` inside its transaction: the NOTIFY
 * leaves at commit and every process (this one included) evicts on it. While the listening
 * connection is down nothing is cached, so a missed notification never leaves a stale session.
 */
export class SessionCache {
  private entries = new Map<number, { user: SessionUser; at: number }>();
  private listening = false;
  /** Bumped by every eviction: a read that started before one may hold old data and is not kept. */
  private generation = 0;
  private stop: (() => Promise<void>) | null = null;

  async start(database: Database) {
    this.stop = await database.listen(SESSION_CHANNEL, {
      onNotify: (payload) => (payload === EVERYONE ? this.evictAll() : this.evict(Number(payload))),
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

  /** The cached user, else `load()`'s, kept unless an eviction came in meanwhile. */
  async get(id: number, load: () => Promise<SessionUser | null>): Promise<SessionUser | null> {
    const hit = this.entries.get(id);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.user;
    const generation = this.generation;
    const user = await load();
    if (user && this.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(id, { user, at: Date.now() });
    }
    return user;
  }

  evict(id: number) {
    this.generation++;
    this.entries.delete(id);
  }

  evictAll() {
    this.generation++;
    this.entries.clear();
  }
}

/**
 * Tells every process that `userId`'s session (null: everyone's) changed. Sent at commit, never
 * when the transaction rolls back. The caller also evicts in its own process once committed, so
 * its next request cannot race the notification.
 */
export async function sessionChanged(tx: Tx, userId: number | null) {
  await tx.execute(sql`select pg_notify(${SESSION_CHANNEL}, ${userId === null ? EVERYONE : String(userId)})`);
}
