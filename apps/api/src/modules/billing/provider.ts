import type { BillingIssuer, BillingProvider } from '../../providers/billing/index.ts';
import type { ServiceContext } from '../../types.ts';

export interface Billing {
  provider: BillingProvider;
  issuer: BillingIssuer;
}

/** The app's billing provider (built at start from config.ts, or the one a test gave) and the issuer printed on documents. */
export function billingOf(ctx: ServiceContext): Billing {
  return { provider: ctx.providers.billing, issuer: ctx.config.billing.issuer };
}
