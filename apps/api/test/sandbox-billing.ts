import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BillingProviderError,
  DEMO_ISSUER,
  memorySandboxStore,
  sandboxBillingProvider,
  type BillingProvider,
  type SandboxFailures,
} from '../src/providers/billing/index.ts';
import type { Config } from '../src/config.ts';
import { seedLimaPrices } from './fixtures.ts';
import { startTestApp, type Engine, type TestContext } from './harness.ts';

/**
 * The sandbox billing provider as the API tests run it: a certificate directory of its own, no
 * delays (guides and boletas may ask for one), failures to inject per call, and a void SUNAT refuses outright
 * when `refuseVoid` says so (the sandbox's own void failures all leave the outcome uncertain). Its
 * clock is the test app's once `followClock(t.clock.now)` links them.
 */
export async function sandboxBilling(name: string, options: { guideDelayMs?: number; boletaDelayMs?: number } = {}) {
  const certificateDir = await mkdtemp(path.join(tmpdir(), `tramo-${name}-`));
  const clock = { now: () => new Date() };
  const failures: Required<Pick<SandboxFailures, 'emit' | 'consult' | 'void'>> = { emit: [], consult: [], void: [] };
  const refuseVoid: boolean[] = [];
  const sandbox = sandboxBillingProvider({
    issuer: DEMO_ISSUER,
    store: memorySandboxStore(),
    certificateDir,
    clock: () => clock.now(),
    boletaDelayMs: 0,
    voidDelayMs: 0,
    failures,
    ...options,
  });
  const provider: BillingProvider = {
    ...sandbox,
    void: async (ref, reason) => {
      if (refuseVoid.shift()) throw new BillingProviderError('rejected', 'SUNAT rechazó la comunicación de baja.', 422);
      return sandbox.void(ref, reason);
    },
  };
  return {
    provider,
    failures,
    refuseVoid,
    followClock: (now: () => Date) => {
      clock.now = now;
    },
    cleanup: () => rm(certificateDir, { recursive: true, force: true }),
  };
}

export type SandboxBilling = Awaited<ReturnType<typeof sandboxBilling>>;

/**
 * The billing tests' app: the sandbox provider (its clock following the app's) and Lima's liviano
 * prices to `destinations` at `factor` per kg (1 to 1000 kg). `close` stops both.
 */
export async function startWithSandboxBilling(
  engine: Engine,
  name: string,
  options: {
    factor?: string;
    destinations?: string[];
    config?: Partial<Config>;
    sandbox?: Parameters<typeof sandboxBilling>[1];
  } = {},
): Promise<{ t: TestContext; billing: SandboxBilling; close: () => Promise<void> }> {
  const billing = await sandboxBilling(name, options.sandbox);
  let t: TestContext;
  try {
    t = await startTestApp(engine, {
      seed: (db, ids) => seedLimaPrices(db, ids, options.destinations ?? ['Arequipa'], { liviano: [[1, 1000, options.factor ?? '12.34']] }),
      providers: { billing: billing.provider },
      ...(options.config ? { config: options.config } : {}),
    });
  } catch (err) {
    await billing.cleanup();
    throw err;
  }
  billing.followClock(t.clock.now);
  return {
    t,
    billing,
    close: async () => {
      await t.close();
      await billing.cleanup();
    },
  };
}
