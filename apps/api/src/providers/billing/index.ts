import { nubefactBillingProvider, NUBEFACT_DEFAULT_TIMEOUT_MS } from './nubefact.ts';
import { SANDBOX_DEFAULTS, sandboxBillingProvider, type SandboxStore } from './sandbox.ts';
import type { BillingIssuer, BillingProvider } from './types.ts';

export * from './types.ts';
export {
  sandboxBillingProvider,
  memorySandboxStore,
  SANDBOX_DEFAULTS,
  type SandboxOptions,
  type SandboxRecord,
  type SandboxStore,
  type SandboxFailure,
  type SandboxFailures,
} from './sandbox.ts';
export { nubefactBillingProvider, GUIDE_VOID_REFUSAL, NUBEFACT_ERRORS, type NubefactOptions } from './nubefact.ts';
export { databaseSandboxStore } from './sandbox-store.ts';
export { renderDocumentPdf, qrPng, type PdfFormat, type PrintableDocument } from './pdf.ts';
export { GRE_QR_BASE } from './sandbox.ts';
export { buildDespatchAdvice, buildVoucherUbl, GUIDE_UNIT_UNECE, PERCEPTION_REGIMES, RETENTION_REGIMES } from './ubl-guides.ts';
export { guideRequest, voucherRequest, NUBEFACT_GUIDE_TYPE } from './nubefact-guides.ts';
export { renderGuidePdf, renderVoucherPdf, type PrintableGuide, type PrintableVoucher } from './pdf-guides.ts';

/**
 * The issuer printed on documents when none is configured: a fictional company (its RUC passes the
 * check digit) so the offline demo prints a complete comprobante.
 */
export const DEMO_ISSUER: BillingIssuer = {
  ruc: '20605200983',
  name: 'TRANSPORTES TRAMO S.A.C.',
  tradeName: 'TRAMO',
  address: 'Av. Nicolás Arriola 2280, Urb. Santa Catalina',
  ubigeo: '150115',
  district: 'La Victoria',
  province: 'Lima',
  department: 'Lima',
  establishmentCode: '0000',
  phone: '(01) 472-5590',
  email: 'facturacion@tramo.pe',
};

/** What the billing provider reads from the environment: `Config.billing` (config.ts), documented in `.env.example`. */
export interface BillingConfig {
  provider: 'sandbox' | 'nubefact';
  nubefact: { url: string; token: string; timeoutMs: number } | null;
  sandbox: { boletaDelayMs: number; voidDelayMs: number; guideDelayMs: number };
  issuer: BillingIssuer;
}

const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return value && Number.isFinite(n) && n >= 0 ? n : fallback;
};

/**
 * NUBEFACT_URL + NUBEFACT_TOKEN select Nubefact (NUBEFACT_TIMEOUT_MS, default 15 s); without them
 * the sandbox answers (BILLING_SANDBOX_BOLETA_DELAY_MS, BILLING_SANDBOX_VOID_DELAY_MS,
 * BILLING_SANDBOX_GUIDE_DELAY_MS: how long a dispatch guide waits for SUNAT, default 5 s). The issuer
 * printed on documents comes from BILLING_ISSUER_* (RUC, NAME, TRADE_NAME, ADDRESS, UBIGEO,
 * DISTRICT, PROVINCE, DEPARTMENT, ESTABLISHMENT_CODE, PHONE, EMAIL), each defaulting to DEMO_ISSUER's.
 */
export function loadBillingConfig(env: NodeJS.ProcessEnv = process.env): BillingConfig {
  const url = env.NUBEFACT_URL || null;
  const token = env.NUBEFACT_TOKEN || null;
  // Half a Nubefact configuration would silently issue through the sandbox: refuse to start instead.
  if (url && !token)
    throw new Error('NUBEFACT_URL está definido pero falta NUBEFACT_TOKEN: define ambos para usar Nubefact, o ninguno para el sandbox.');
  if (token && !url)
    throw new Error('NUBEFACT_TOKEN está definido pero falta NUBEFACT_URL: define ambos para usar Nubefact, o ninguno para el sandbox.');
  if (url && !/^https?:\/\//.test(url)) throw new Error('NUBEFACT_URL debe empezar con http:// o https://');
  const pick = (name: string, fallback: string) => env[`BILLING_ISSUER_${name}`] || fallback;
  return {
    provider: url && token ? 'nubefact' : 'sandbox',
    nubefact: url && token ? { url, token, timeoutMs: positive(env.NUBEFACT_TIMEOUT_MS, NUBEFACT_DEFAULT_TIMEOUT_MS) } : null,
    sandbox: {
      boletaDelayMs: positive(env.BILLING_SANDBOX_BOLETA_DELAY_MS, SANDBOX_DEFAULTS.boletaDelayMs),
      voidDelayMs: positive(env.BILLING_SANDBOX_VOID_DELAY_MS, SANDBOX_DEFAULTS.voidDelayMs),
      guideDelayMs: positive(env.BILLING_SANDBOX_GUIDE_DELAY_MS, SANDBOX_DEFAULTS.guideDelayMs),
    },
    issuer: {
      ruc: pick('RUC', DEMO_ISSUER.ruc),
      name: pick('NAME', DEMO_ISSUER.name),
      tradeName: pick('TRADE_NAME', DEMO_ISSUER.tradeName ?? ''),
      address: pick('ADDRESS', DEMO_ISSUER.address),
      ubigeo: pick('UBIGEO', DEMO_ISSUER.ubigeo),
      district: pick('DISTRICT', DEMO_ISSUER.district),
      province: pick('PROVINCE', DEMO_ISSUER.province),
      department: pick('DEPARTMENT', DEMO_ISSUER.department),
      establishmentCode: pick('ESTABLISHMENT_CODE', DEMO_ISSUER.establishmentCode),
      phone: pick('PHONE', DEMO_ISSUER.phone ?? ''),
      email: pick('EMAIL', DEMO_ISSUER.email ?? ''),
    },
  };
}

export interface BillingProviderDeps {
  /** Where the sandbox keeps what SUNAT would keep (a table in the app, see `databaseSandboxStore`). */
  sandboxStore: SandboxStore;
  /** Where the sandbox's demo certificate lives (the data dir). */
  certificateDir: string;
  clock?: () => Date;
}

export function createBillingProvider(config: BillingConfig, deps: BillingProviderDeps): BillingProvider {
  if (config.nubefact) return nubefactBillingProvider(config.nubefact);
  return sandboxBillingProvider({
    issuer: config.issuer,
    store: deps.sandboxStore,
    certificateDir: deps.certificateDir,
    clock: deps.clock,
    ...config.sandbox,
  });
}
