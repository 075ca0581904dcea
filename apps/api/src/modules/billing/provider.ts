import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sandboxDocuments } from '../../db/schema.ts';
import {
  createBillingProvider,
  loadBillingConfig,
  type BillingIssuer,
  type BillingProvider,
  type SandboxRecord,
  type SandboxStore,
} from '../../providers/billing/index.ts';
import type { App } from '../../types.ts';

/** The sandbox keeps what SUNAT would keep in a table, so it survives restarts and is shared by every process. */
export function databaseSandboxStore(db: Db): SandboxStore {
  return {
    async get(key) {
      const [row] = await db.select().from(sandboxDocuments).where(eq(sandboxDocuments.key, key));
      return row ? (row.record as SandboxRecord) : null;
    },
    async put(record) {
      await db.insert(sandboxDocuments).values({ key: record.key, record }).onConflictDoUpdate({ target: sandboxDocuments.key, set: { record } });
    },
  };
}

export interface Billing {
  provider: BillingProvider;
  issuer: BillingIssuer;
}

const cache = new WeakMap<App, Billing>();

/** The provider of this app: the one the app was built with (tests), else the configured one. */
export function billingOf(app: App): Billing {
  let billing = cache.get(app);
  if (!billing) {
    const config = loadBillingConfig(process.env);
    billing = {
      issuer: config.issuer,
      provider:
        app.providers.billing ??
        createBillingProvider(config, {
          sandboxStore: databaseSandboxStore(app.db),
          certificateDir: path.join(app.config.dataDir, 'billing'),
          clock: app.now,
        }),
    };
    cache.set(app, billing);
  }
  return billing;
}
