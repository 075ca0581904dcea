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
