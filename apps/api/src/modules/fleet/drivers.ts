import { asc, eq, or } from 'drizzle-orm';
import { driverInUse, FLEET_MESSAGES, type Driver, type DriverData } from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { drivers, transports } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, isForeignKeyViolation, isUniqueViolation, notFound } from '../../lib/errors.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';

const columns = {
  id: drivers.id,
  full_name: drivers.fullName,
  dni: drivers.dni,
  license_number: drivers.licenseNumber,
  license_class: drivers.licenseClass,
  license_expires_on: drivers.licenseExpiresOn,
  phone: drivers.phone,
  note: drivers.note,
};

const toRow = (data: DriverData) => ({
  fullName: data.full_name,
  dni: data.dni,
  licenseNumber: data.license_number,
  licenseClass: data.license_class,
  licenseExpiresOn: data.license_expires_on,
  phone: data.phone,
  note: data.note,
});

export function listDrivers(ctx: ServiceContext): Promise<Driver[]> {
  return ctx.db.select(columns).from(drivers).orderBy(asc(drivers.fullName), asc(drivers.id));
}

async function lockDriver(tx: Tx | Db, id: number): Promise<Driver> {
  const [row] = await tx.select(columns).from(drivers).where(eq(drivers.id, id)).for('update');
  if (!row) throw notFound(FLEET_MESSAGES.driverMissing);
  return row;
}

function duplicateDni(err: unknown): never {
  if (isUniqueViolation(err)) throw conflict(FLEET_MESSAGES.duplicateDni, { dni: FLEET_MESSAGES.duplicateDni }, 'DUPLICATE');
  throw err;
}

export function createDriver(ctx: ServiceContext, actor: SessionUser, data: DriverData) {
  return ctx.db
    .transaction(async (tx) => {
      const [created] = await tx.insert(drivers).values(toRow(data)).returning(columns);
      await audit(tx, { userId: actor.id, entity: 'driver', entityId: created!.id, action: 'create', after: created });
      return created!;
    })
    .catch(duplicateDni);
}

export function updateDriver(ctx: ServiceContext, actor: SessionUser, id: number, data: DriverData) {
  return ctx.db
    .transaction(async (tx) => {
      const before = await lockDriver(tx, id);
      const [after] = await tx
        .update(drivers)
        .set({ ...toRow(data), updatedAt: ctx.now() })
        .where(eq(drivers.id, id))
        .returning(columns);
      await audit(tx, { userId: actor.id, entity: 'driver', entityId: id, action: 'update', before, after });
      return after!;
    })
    .catch(duplicateDni);
}

/**
 * Refused while a transport names the driver (the message lists its plates). The foreign key is
 * the backstop when a transport takes the driver between the check and the delete.
 */
export async function deleteDriver(ctx: ServiceContext, actor: SessionUser, id: number) {
  await ctx.db
    .transaction(async (tx) => {
      const before = await lockDriver(tx, id);
      const using = await tx
        .select({ plate: transports.platePrimary })
        .from(transports)
        .where(or(eq(transports.driverId1, id), eq(transports.driverId2, id)))
        .orderBy(asc(transports.platePrimary));
      if (using.length > 0) throw conflict(driverInUse(using.map((t) => t.plate)), undefined, 'IN_USE');
      await tx.delete(drivers).where(eq(drivers.id, id));
      await audit(tx, { userId: actor.id, entity: 'driver', entityId: id, action: 'delete', before });
    })
    .catch((err: unknown) => {
      if (isForeignKeyViolation(err)) throw conflict(FLEET_MESSAGES.driverInUse, undefined, 'IN_USE');
      throw err;
    });
}
