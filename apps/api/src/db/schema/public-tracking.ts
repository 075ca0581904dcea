import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Public tracking lookups per client address (issue 18), in the DB so every API process counts
 * the same window: the public page is the one unauthenticated read, and codes are sequential.
 */
export const publicRateLimits = pgTable('public_rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});
