import { inArray, sql } from 'drizzle-orm';
import { LOGIN_THROTTLE } from '@tramo/domain';
import type { Db } from '../../db/client.ts';
import { loginThrottle } from '../../db/schema.ts';

const windowMs = LOGIN_THROTTLE.windowMinutes * 60_000;

export const throttleKeys = (username: string, ip: string) => [`user:${username}`, `ip:${ip}`];

/** True when any key has used up its failures inside the current window. */
export async function isThrottled(db: Db, keys: string[], now: Date): Promise<boolean> {
  const rows = await db.select().from(loginThrottle).where(inArray(loginThrottle.key, keys));
  return rows.some((r) => {
    const max = r.key.startsWith('ip:') ? LOGIN_THROTTLE.maxFailuresPerAddress : LOGIN_THROTTLE.maxFailuresPerUser;
    return r.failures >= max && now.getTime() - r.windowStart.getTime() < windowMs;
  });
}

/** One more failure per key; a window that has expired starts again at 1. Atomic per key. */
export async function recordFailure(db: Db, keys: string[], now: Date): Promise<void> {
  const windowOpenedAfter = new Date(now.getTime() - windowMs);
  for (const key of keys) {
    await db
      .insert(loginThrottle)
      .values({ key, failures: 1, windowStart: now })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: {
          failures: sql`case when ${loginThrottle.windowStart} > ${windowOpenedAfter.toISOString()}::timestamptz then ${loginThrottle.failures} + 1 else 1 end`,
          windowStart: sql`case when ${loginThrottle.windowStart} > ${windowOpenedAfter.toISOString()}::timestamptz then ${loginThrottle.windowStart} else ${now.toISOString()}::timestamptz end`,
        },
      });
  }
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.delete(loginThrottle).where(inArray(loginThrottle.key, [key]));
}
