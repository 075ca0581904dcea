import { pgTable, text } from 'drizzle-orm/pg-core';

/** Key/value settings that must survive restarts (the demo-mode signing secret). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});
