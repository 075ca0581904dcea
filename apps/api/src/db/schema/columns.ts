import { customType, timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Raw bytes: PGlite reads them back as a Uint8Array, node-postgres as a Buffer. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** A text-search vector; the API only writes it through the database's own trigger. */
export const tsvector = customType<{ data: string; driverData: string }>({ dataType: () => 'tsvector' });
