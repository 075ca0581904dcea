import { eq, sql } from 'drizzle-orm';
import { LOGIN_THROTTLE } from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import { loginThrottle } from '../../db/schema.ts';

const windowMs = LOGIN_THROTTLE.windowMinutes * 60_000;

export const throttleKeys = (username: string, ip: string) => ({ user: `user:${username}`, address: `ip:${ip}` });
export type ThrottleKeys = ReturnType<typeof throttleKeys>;

const limitOf = (key: string) => (key.startsWith('ip:') ? LOGIN_THROTTLE.maxFailuresPerAddress : LOGIN_THROTTLE.maxFailuresPerUser);

/**
 * Counts one attempt on both keys before any password is checked, in one statement: parallel
 * attempts each get their own count back, so at most the limit's worth of them go on to a check
 * (reading the counters first and writing after the check let a burst check every password).
 * A window that has expired starts again at 1. True when the attempt is within every limit.
 *
 * The counter (`failures`) holds the attempts not proven right: a successful login clears its
 * user's and gives its address its attempt back.
 */
export async function countAttempt(db: Db, keys: ThrottleKeys, now: Date): Promise<boolean> {
  const windowOpenedAfter = sql`${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
  const inWindow = sql`${loginThrottle.windowStart} > ${windowOpenedAfter}`;
  const counted = await db
    .insert(loginThrottle)
    .values([keys.user, keys.address].map((key) => ({ key, failures: 1, windowStart: now })))
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${inWindow} then ${loginThrottle.failures} + 1 else 1 end`,
        windowStart: sql`case when ${inWindow} then ${loginThrottle.windowStart} else ${now.toISOString()}::timestamptz end`,
      },
    })
    .returning({ key: loginThrottle.key, failures: loginThrottle.failures });
  return counted.every((row) => row.failures <= limitOf(row.key));
}

/** A right password: the user starts afresh, and the address keeps only its wrong attempts. */
export async function countSuccess(db: Db, keys: ThrottleKeys): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, keys.user));
  await db
    .update(loginThrottle)
    .set({ failures: sql`greatest(${loginThrottle.failures} - 1, 0)` })
    .where(eq(loginThrottle.key, keys.address));
}
