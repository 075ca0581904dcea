import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import type { SessionUser } from '../types.ts';
import { ListenedCache } from './listened-cache.ts';

/** The channel every API process LISTENs on; a payload is a user id, or `*` for everyone. */
export const SESSION_CHANNEL = 'tramo_session';
const EVERYONE = '*';

/**
 * The session user of each token, kept per process so a request does not read users+branches
 * again. Whatever changes what a session sees (token version, role, branch, the branch's name,
 * must-change, the user's removal) calls `sessionChanged` inside its transaction: the NOTIFY
 * leaves at commit and every process (this one included) evicts on it. A user not found is not
 * kept.
 */
export class SessionCache extends ListenedCache<number, SessionUser | null> {
  constructor() {
    super(SESSION_CHANNEL);
  }

  protected notified(payload: string) {
    if (payload === EVERYONE) this.evictAll();
    else this.evict(Number(payload));
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
