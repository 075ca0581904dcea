/**
 * The database schema, one file per module that owns the tables (drizzle-kit reads the folder).
 * Everything is re-exported here so `db/schema.js` stays the one import path.
 */
export * from './schema/branches.js';
export * from './schema/users.js';
export * from './schema/audit.js';
export * from './schema/settings.js';
export * from './schema/customers.js';
export * from './schema/pricing.js';
export * from './schema/shipments.js';
export * from './schema/deliveries.js';
export * from './schema/fleet.js';
export * from './schema/trips.js';
export * from './schema/incidents.js';
export * from './schema/billing.js';
export * from './schema/payments.js';
export * from './schema/public-tracking.js';
export * from './schema/notifications.js';
export * from './schema/tariffs.js';
export * from './schema/company.js';
export * from './schema/who-pays.js';
export * from './schema/credit.js';
export * from './schema/guides.js';
