import { count } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { hashPassword, temporaryPassword } from '../lib/passwords.ts';
import { seedBase } from './base.ts';
import { seedCustomers } from './customers.ts';
import { seedPricing } from './pricing.ts';
import { seedShipments } from './shipments.ts';
import { seedFleet } from './fleet.ts';

/**
 * Runs once, on an empty database (no users). Demo mode fills every area with believable data;
 * otherwise only an ADMIN exists, flagged to change the password at first login.
 */
export async function seedIfEmpty(db: Db, config: Config, log: (msg: string) => void): Promise<void> {
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return;
  if (config.demo) {
    await seedDemo(db);
    log('Datos de demostración cargados (ADMIN / admin123).');
    return;
  }
  const password = config.adminPassword ?? temporaryPassword(14);
  await db.insert(users).values({
    username: 'ADMIN',
    passwordHash: await hashPassword(password),
    role: 'admin',
    firstName: 'Administrador',
    mustChangePassword: true,
  });
  log(
    config.adminPassword
      ? 'Usuario ADMIN creado con ADMIN_PASSWORD; deberá cambiarla al ingresar.'
      : `Usuario ADMIN creado. Contraseña temporal (se muestra una sola vez): ${password}`,
  );
}

export async function seedDemo(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const branchIds = await seedBase(tx as unknown as Db);
    await seedCustomers(tx as unknown as Db);
    await seedPricing(tx as unknown as Db, branchIds);
    await seedShipments(tx as unknown as Db, branchIds);
    await seedFleet(tx as unknown as Db, branchIds);
  });
}
