import type { BillingIssuer, BillingProvider } from '../../providers/billing/index.ts';
import type { App } from '../../types.ts';

export interface Billing {
  provider: BillingProvider;
  issuer: BillingIssuer;
}

/** The app's billing provider (built at start from config.ts, or the one a test gave) and the issuer printed on documents. */
export function billingOf(app: App): Billing {
  return { provider: app.providers.billing, issuer: app.config.billing.issuer };
}
