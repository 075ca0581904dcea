import { z } from 'zod';

// Every default zod message (wrong type, missing field) reads in Spanish, on both sides.
z.config(z.locales.es());

export * from './primitives.ts';
export * from './roles.ts';
export * from './permissions.ts';
export * from './scope.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './branches.ts';
export * from './dates.ts';
export * from './calendar.ts';
export * from './pagination.ts';
export * from './money.ts';
export * from './pricing.ts';
export * from './tariffs.ts';
export * from './tariff-fields.ts';
export * from './who-pays.ts';
export * from './who-pays-rules.ts';
export * from './who-pays-money.ts';
export * from './fleet-documents.ts';
export * from './company.ts';
export * from './customers.ts';
export * from './shipments.ts';
export * from './returns.ts';
export * from './deliveries.ts';
export * from './fleet.ts';
export * from './trips.ts';
export * from './billing/index.ts';
export * from './payments/index.ts';
export * from './answers.ts';
export * from './public-tracking.ts';
export * from './notifications.ts';
export * from './reconciliation.ts';
export * from './credit/index.ts';
