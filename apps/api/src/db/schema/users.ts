import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { branches } from './branches.js';
import { createdAt, updatedAt } from './columns.js';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    role: text('role').notNull(),
    branchId: integer('branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    // Bumped on password change, reset and delete: tokens carrying an older version stop working.
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_uq').on(t.username),
    index('users_branch_idx').on(t.branchId),
    check('users_role_ck', sql`${t.role} in ('admin', 'agent', 'courier')`),
  ],
);

/** Failed-login counters per username and per client address; in the DB so every API process shares them. */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  /** The last attempt counted: repeated failures wait longer after it before the next (issue 31, F9). */
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
});
