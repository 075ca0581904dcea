import { eq, sql, type SQLWrapper } from 'drizzle-orm';
import { LOGIN_THROTTLE, loginDelaySeconds } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { loginThrottle } from '../../db/schema.ts';

const windowMs = LOGIN_THROTTLE.windowMinutes * 60_000;

export const throttleKeys = (username: string, ip: string) => ({ user: `user:${username}`, address: `ip:${ip}` });
export type ThrottleKeys = ReturnType<typeof throttleKeys>;

/** What may happen to a login attempt before its password is checked. */
export type AttemptVerdict = { kind: 'counted' } | { kind: 'locked' } | { kind: 'wait'; seconds: number };

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/**
 * Counts one attempt on both keys before any password is checked: each key in one statement, so
 * parallel attempts each get their own count back and at most the limit's worth of them go on to
 * a check (reading the counters first and writing after the check let a burst check every
 * password). A window that has expired starts again at 1.
 *
 * The counter (`failures`) holds the attempts not proven right: a successful login clears its
 * user's and gives its address its attempt back. A username's failures also make its next attempt
 * wait (loginDelaySeconds, computed here in SQL): one made too early is not counted, only told how
 * long to wait. The wait is checked in the upsert's own WHERE, on the row it locks, so of parallel
 * attempts after a wait only the first is counted and every process sees the same wait.
 */
export async function countAttempt(db: Db, keys: ThrottleKeys, now: Date): Promise<AttemptVerdict> {
  const inWindow = sql`${loginThrottle.windowStart} > ${at(new Date(now.getTime() - windowMs))}`;
  const { delayFromFailures, maxDelaySeconds, maxFailuresPerUser, maxFailuresPerAddress } = LOGIN_THROTTLE;
  const delay = sql`make_interval(secs => least(power(2, ${loginThrottle.failures} - ${delayFromFailures}), ${maxDelaySeconds}))`;
  // A locked username goes on being counted: its attempts are refused as locked, not told to wait.
  const mayTry = sql`not (${inWindow}) or ${loginThrottle.failures} < ${delayFromFailures} or ${loginThrottle.failures} >= ${maxFailuresPerUser}
    or ${loginThrottle.lastAttemptAt} is null or ${loginThrottle.lastAttemptAt} + ${delay} <= ${at(now)}`;
  const count = (key: string, setWhere?: ReturnType<typeof sql>) =>
    db
      .insert(loginThrottle)
      .values({ key, failures: 1, windowStart: now, lastAttemptAt: now })
      .onConflictDoUpdate({
        target: loginThrottle.key,
        set: {
          failures: sql`case when ${inWindow} then ${loginThrottle.failures} + 1 else 1 end`,
          windowStart: sql`case when ${inWindow} then ${loginThrottle.windowStart} else ${at(now)} end`,
          lastAttemptAt: now,
        },
        setWhere,
      })
      .returning({ failures: loginThrottle.failures });

  const [user] = await count(keys.user, mayTry);
  if (!user) {
    const [row] = await db
      .select({ failures: loginThrottle.failures, lastAttemptAt: loginThrottle.lastAttemptAt })
      .from(loginThrottle)
      .where(eq(loginThrottle.key, keys.user));
    const until = (row?.lastAttemptAt?.getTime() ?? now.getTime()) + loginDelaySeconds(row?.failures ?? 0) * 1000;
    return { kind: 'wait', seconds: Math.max(1, Math.ceil((until - now.getTime()) / 1000)) };
  }
  const [address] = await count(keys.address);
  return user.failures > maxFailuresPerUser || address!.failures > maxFailuresPerAddress ? { kind: 'locked' } : { kind: 'counted' };
}

/** A right password: the user starts afresh, and the address keeps only its wrong attempts. */
export async function countSuccess(db: Db, keys: ThrottleKeys): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, keys.user));
  await db
    .update(loginThrottle)
    .set({ failures: sql`greatest(${loginThrottle.failures} - 1, 0)` })
    .where(eq(loginThrottle.key, keys.address));
}

/**
 * Until when a username is locked out (its failures reached the limit inside the window), as a
 * column for a query over users (`username` is the users' column); null when it is not.
 */
export function lockedUntil(username: SQLWrapper, now: Date) {
  return sql<Date | string | null>`(select ${loginThrottle.windowStart} + make_interval(mins => ${LOGIN_THROTTLE.windowMinutes})
    from ${loginThrottle} where ${loginThrottle.key} = 'user:' || ${username}
    and ${loginThrottle.failures} >= ${LOGIN_THROTTLE.maxFailuresPerUser} and ${loginThrottle.windowStart} > ${at(new Date(now.getTime() - windowMs))})`;
}

/** An admin lifts a username's lock (and its wait): its counter goes. The failures it held, for the audit row. */
export async function clearLogin(tx: Tx, username: string): Promise<number> {
  const [row] = await tx
    .delete(loginThrottle)
    .where(eq(loginThrottle.key, `user:${username}`))
    .returning({ failures: loginThrottle.failures });
  return row?.failures ?? 0;
}
