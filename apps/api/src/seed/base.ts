import type { Db } from '../db/client.ts';
import { branches, users } from '../db/schema.ts';
import { hashPassword } from '../lib/passwords.ts';

/** The demo branches; ubigeo (INEI, the district) and SUNAT establishment code feed the dispatch guides. */
export const DEMO_BRANCHES = [
  { name: 'Lima', city: 'Lima', address: 'Av. Javier Prado Este 1450, San Isidro', ubigeo: '150101', establishmentCode: '0000' },
  { name: 'Arequipa', city: 'Arequipa', address: 'Av. Ejército 710, Cayma', ubigeo: '040101', establishmentCode: '0000' },
  { name: 'Trujillo', city: 'Trujillo', address: 'Av. España 1820, Centro', ubigeo: '130101', establishmentCode: '0000' },
  { name: 'Cusco', city: 'Cusco', address: 'Av. de la Cultura 1020, Wanchaq', ubigeo: '080101', establishmentCode: '0000' },
  { name: 'Piura', city: 'Piura', address: 'Av. Grau 455, Piura', ubigeo: '200101', establishmentCode: '0000' },
  { name: 'Chiclayo', city: 'Chiclayo', address: 'Av. Balta 980, Chiclayo', ubigeo: '140101', establishmentCode: '0000' },
] as const;

export const DEMO_USERS = [
  { username: 'ADMIN', password: 'admin123', role: 'admin', branch: 'Lima', firstName: 'Ana', lastName: 'Quispe' },
  { username: 'AGENTE1', password: 'agente123', role: 'agent', branch: 'Lima', firstName: 'Luis', lastName: 'Ramírez' },
  { username: 'AGENTE2', password: 'agente123', role: 'agent', branch: 'Arequipa', firstName: 'Rosa', lastName: 'Huamán' },
  { username: 'REPARTIDOR1', password: 'reparto123', role: 'courier', branch: 'Arequipa', firstName: 'Jorge', lastName: 'Mamani' },
] as const;

/** Branches and the demo staff; returns the branch ids by name for the seeds that follow. */
export async function seedBase(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .insert(branches)
    .values([...DEMO_BRANCHES])
    .returning({ id: branches.id, name: branches.name });
  const branchIds = new Map(rows.map((r) => [r.name, r.id]));
  const hashes = await Promise.all(DEMO_USERS.map((u) => hashPassword(u.password)));
  await db.insert(users).values(
    DEMO_USERS.map((u, i) => ({
      username: u.username,
      passwordHash: hashes[i]!,
      role: u.role,
      branchId: branchIds.get(u.branch)!,
      firstName: u.firstName,
      lastName: u.lastName,
      email: `${u.username.toLowerCase()}@tramo.pe`,
      mustChangePassword: false,
    })),
  );
  return branchIds;
}
