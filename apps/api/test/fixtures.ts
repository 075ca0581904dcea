import { sql } from 'drizzle-orm';
import type { ProductType } from '@tramo/domain';
import type { Db } from '../src/db/client.ts';
import { weightFactorTables, weightFactorTiers } from '../src/db/schema.ts';

/** [from kg, to kg, factor per kg] */
export type TierRow = readonly [number, number, string];

/** The light parcels' tiers most tests price with: 1.4 per kg up to 10 kg, 1.3 beyond. */
export const LIVIANO_TIERS: readonly TierRow[] = [
  [1, 10, '1.4'],
  [11, 1000, '1.3'],
];

/**
 * Price tables from Lima to each destination, one per class given: the tests that create
 * shipments price them against these instead of the demo tables.
 */
export async function seedLimaPrices(
  db: Db,
  branchIds: Map<string, number>,
  destinations: readonly string[],
  tiersByClass: Partial<Record<ProductType, readonly TierRow[]>>,
) {
  const lima = branchIds.get('Lima')!;
  for (const destination of destinations) {
    for (const [productType, tiers] of Object.entries(tiersByClass)) {
      const [table] = await db
        .insert(weightFactorTables)
        .values({ originBranchId: lima, destinationBranchId: branchIds.get(destination)!, productType, name: `Lima-${destination} ${productType}` })
        .returning({ id: weightFactorTables.id });
      await db.insert(weightFactorTiers).values(
        tiers.map(([fromKg, toKg, factorPerKg], i) => ({
          tableId: table!.id,
          fromKg: String(fromKg),
          toKg: String(toKg),
          factorPerKg,
          sortOrder: i + 1,
        })),
      );
    }
  }
}

/**
 * The body of a one-line shipment (2.5 kg, liviano) for María Flores Ccori, secret code `clave-7`;
 * `over` replaces any field.
 */
export const shipmentBody = (route: { originBranchId: number; destinationBranchId: number }, over: Record<string, unknown> = {}) => ({
  senderName: 'Comercial Andina SAC',
  recipientDoc: '45879612',
  recipientFirstName: 'María',
  recipientLastName: 'Flores Ccori',
  ...route,
  lines: [{ productType: 'liviano', weightKg: 2.5 }],
  secretCode: 'clave-7',
  ...over,
});

/** A freight detracción factura's trip (operation 1004): Lima (Cercado) to Arequipa with the three reference values. */
export const FREIGHT_TRIP = {
  ubigeo_origen: '150101',
  direccion_origen: 'Av. Nicolás de Piérola 1020, Cercado de Lima',
  ubigeo_destino: '040101',
  direccion_destino: 'Calle Mercaderes 214, Arequipa',
  detalle_viaje: 'Carga consolidada Lima - Arequipa',
  val_ref_serv_trans: '950.00',
  val_ref_carga_efec: '820.50',
  val_ref_carga_util: '1200.00',
};

/** Far beyond any test clock: the documents the fixtures give never expire during a test. */
export const FIXTURE_DOCUMENTS_EXPIRE_ON = '2099-12-31';

/**
 * The document gate (issue 36) refuses to load or dispatch a vehicle without a current SOAT and
 * CITV, or with a driver without a current licence. Tests that create their transports and drivers
 * through the API and then load them are about something else: in their database every new
 * transport gets a valid SOAT and CITV and every new driver a valid licence, as a real fleet has.
 * The gate's own tests start without this (startTestApp's `fleetDocuments: 'none'`).
 */
export async function giveNewFleetValidDocuments(db: Db) {
  const statements = [
    `create function test_fixture_vehicle_documents() returns trigger language plpgsql as $$
     begin
       insert into fleet_documents (transport_id, type, number, expires_on)
       values (new.id, 'soat', 'FIXTURE-SOAT', '${FIXTURE_DOCUMENTS_EXPIRE_ON}'), (new.id, 'citv', 'FIXTURE-CITV', '${FIXTURE_DOCUMENTS_EXPIRE_ON}');
       return new;
     end $$`,
    `create trigger test_fixture_vehicle_documents after insert on transports
     for each row execute function test_fixture_vehicle_documents()`,
    `create function test_fixture_driver_documents() returns trigger language plpgsql as $$
     begin
       insert into fleet_documents (driver_id, type, number, expires_on) values (new.id, 'licencia', new.license_number, '${FIXTURE_DOCUMENTS_EXPIRE_ON}');
       return new;
     end $$`,
    `create trigger test_fixture_driver_documents after insert on drivers
     for each row execute function test_fixture_driver_documents()`,
  ];
  for (const statement of statements) await db.execute(sql.raw(statement));
}
