import type { Config } from '../config.ts';
import type { BillingProvider } from './billing/index.ts';
import { httpLookup, localLookup, type LookupProvider } from './lookup/index.ts';
import { createNotifier, type NotifyProvider } from './notify/index.ts';

/**
 * External services behind small interfaces, each with an offline default (DESIGN.md section 1).
 * Modules add their provider here (lookup, billing) as they arrive.
 */
export interface Providers {
  lookup: LookupProvider;
  /** Absent: the billing module builds the configured one (sandbox or Nubefact) on the app's database. */
  billing?: BillingProvider;
  /** Notifications (issue 18): e-mail, WhatsApp, or outbox-only. */
  notify: NotifyProvider;
}

export function createProviders(config: Config): Providers {
  return {
    lookup:
      config.lookupUrl && config.lookupToken ? httpLookup({ url: config.lookupUrl, token: config.lookupToken }) : localLookup({ demo: config.demo }),
    notify: createNotifier(config),
  };
}
