import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createBillingProvider, databaseSandboxStore, memorySandboxStore, type BillingProvider } from './billing/index.ts';
import { httpLookup, localLookup, type LookupProvider } from './lookup/index.ts';
import { createNotifier, type NotifyProvider } from './notify/index.ts';

/**
 * External services behind small interfaces, each with an offline default (DESIGN.md section 1).
 * Modules add their provider here (lookup, billing) as they arrive.
 */
export interface Providers {
  lookup: LookupProvider;
  /** SUNAT documents: Nubefact when NUBEFACT_URL + NUBEFACT_TOKEN are set, else the sandbox. */
  billing: BillingProvider;
  /** Notifications (issue 18): e-mail, WhatsApp, or outbox-only. */
  notify: NotifyProvider;
}

/** What the sandbox needs of the app: its database (where it keeps what SUNAT would) and clock. */
export interface ProviderDeps {
  /** Absent (a provider built outside an app): the sandbox keeps its memory in this process. */
  db?: Db;
  now?: () => Date;
}

export function createProviders(config: Config, deps: ProviderDeps = {}): Providers {
  return {
    billing: createBillingProvider(config.billing, {
      sandboxStore: deps.db ? databaseSandboxStore(deps.db) : memorySandboxStore(),
      certificateDir: path.join(config.dataDir, 'billing'),
      clock: deps.now,
    }),
    lookup:
      config.lookupUrl && config.lookupToken ? httpLookup({ url: config.lookupUrl, token: config.lookupToken }) : localLookup({ demo: config.demo }),
    notify: createNotifier(config),
  };
}
