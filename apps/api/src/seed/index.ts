import path from 'node:path';
import { count, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { STARTUP_LOCK, type Db } from '../db/client.ts';
import { company, users } from '../db/schema.ts';
import { hashPassword, temporaryPassword } from '../lib/passwords.ts';
import { seedBase } from './base.ts';
import { seedCustomers } from './customers.ts';
import { seedPricing } from './pricing.ts';
import { seedShipments } from './shipments.ts';
import { seedFleet } from './fleet.ts';
import { seedPayments } from './payments.ts';
import type { DemoReceiptOptions } from './receipts.ts';

/**
 * Runs once, on an empty database (no users). Demo mode fills every area with believable data;
 * otherwise only an ADMIN exists, flagged to change the password at first login. One transaction
 * under the start-up lock: processes started together on one database seed it once.
 */
export async function seedIfEmpty(db: Db, config: Config, log: (msg: string) => void): Promise<void> {
  const message = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${STARTUP_LOCK})`);
    const [row] = await tx.select({ n: count() }).from(users);
    if ((row?.n ?? 0) > 0) return null;
    if (config.demo) {
      await seedDemo(tx as unknown as Db, demoReceiptOptions(config));
      return 'Datos de demostración cargados (ADMIN / admin123).';
    }
    const password = config.adminPassword ?? temporaryPassword(14);
    await tx.insert(users).values({
      username: 'ADMIN',
      passwordHash: await hashPassword(password),
      role: 'admin',
      firstName: 'Administrador',
      mustChangePassword: true,
    });
    return config.adminPassword
      ? 'Usuario ADMIN creado con ADMIN_PASSWORD; deberá cambiarla al ingresar.'
      : `Usuario ADMIN creado. Contraseña temporal (se muestra una sola vez): ${password}`;
  });
  if (message) log(message);
}

/** How the demo's receipts are signed and remembered: as the app's own billing provider would (providers/index.ts). */
export function demoReceiptOptions(config: Config): DemoReceiptOptions {
  return {
    issuer: config.billing.issuer,
    certificateDir: path.join(config.dataDir, 'billing'),
    boletaDelayMs: config.billing.sandbox.boletaDelayMs,
    voidDelayMs: config.billing.sandbox.voidDelayMs,
    keepSandboxRecords: config.billing.provider === 'sandbox',
  };
}

/** The demo data, inside the caller's transaction. */
export async function seedDemo(tx: Db, receipts: DemoReceiptOptions): Promise<void> {
  const branchIds = await seedBase(tx);
  await seedCustomers(tx);
  await seedPricing(tx, branchIds);
  await seedShipments(tx, branchIds);
  await seedFleet(tx, branchIds);
  await seedPayments(tx, receipts);
  // The demo company has its MTC registration, so its GRE transportista carry it (issue 36).
  const issuer = receipts.issuer;
  await tx
    .insert(company)
    .values({
      id: 1,
      ruc: issuer.ruc,
      name: issuer.name,
      tradeName: issuer.tradeName || null,
      address: issuer.address,
      mtcRegistration: DEMO_MTC_REGISTRATION,
      updatedAt: new Date(),
      updatedByName: 'Datos de demostración',
    })
    .onConflictDoNothing();
}

/** A fictional MTC registration of the demo's transport company. */
export const DEMO_MTC_REGISTRATION = '1512345CNG';
