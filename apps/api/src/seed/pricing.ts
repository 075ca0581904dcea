import { centsToString, PRODUCT_TYPES, type ProductType } from '@tramo/domain';
import type { Db } from '../db/client.ts';
import { routeReferenceValues, weightFactorTables, weightFactorTiers } from '../db/schema.ts';

/** Approximate road distances (km) between the demo branches; longer routes cost more per kg. */
const ROAD_KM: Record<string, number> = {
  'Lima|Arequipa': 1010,
  'Lima|Trujillo': 560,
  'Lima|Cusco': 1100,
  'Lima|Piura': 980,
  'Lima|Chiclayo': 770,
  'Arequipa|Trujillo': 1570,
  'Arequipa|Cusco': 510,
  'Arequipa|Piura': 1990,
  'Arequipa|Chiclayo': 1780,
  'Trujillo|Cusco': 1650,
  'Trujillo|Piura': 420,
  'Trujillo|Chiclayo': 210,
  'Cusco|Piura': 2080,
  'Cusco|Chiclayo': 1870,
  'Piura|Chiclayo': 210,
};

/** Per-kg surcharge of each class over liviano, in percent. */
const CLASS_PERCENT: Record<ProductType, number> = { liviano: 100, medio: 122, alto: 148 };

/** Bulk discounts per tier, in percent of the first tier's factor. */
const SHORT_ROUTE = [
  { from: 1, to: 5, percent: 100 },
  { from: 6, to: 20, percent: 84 },
  { from: 21, to: 1000, percent: 72 },
];
const LONG_ROUTE = [
  { from: 1, to: 5, percent: 100 },
  { from: 6, to: 20, percent: 86 },
  { from: 21, to: 100, percent: 74 },
  { from: 101, to: 1000, percent: 63 },
];

/** Factors in céntimos per kg (integers), so the seed never prints a float like 2.3400000001. */
function tiersFor(km: number, productType: ProductType, directionPercent: number) {
  const baseCents = 200 + Math.round(km * 0.06); // Lima–Trujillo: S/ 2.34 per kg for the first kilos.
  const shape = km < 900 ? SHORT_ROUTE : LONG_ROUTE;
  return shape.map((t, i) => {
    const cents = Math.round((baseCents * t.percent * CLASS_PERCENT[productType] * directionPercent) / 1_000_000);
    return { fromKg: t.from.toFixed(2), toKg: t.to.toFixed(2), factorPerKg: (cents / 100).toFixed(4), sortOrder: i + 1 };
  });
}

/**
 * Demo price tables: every pair of demo branches in at least one direction and all three classes,
 * covering 1–1000 kg without overlaps (so any demo shipment up to 1000 kg can be priced). Lima, the
 * hub, has both directions; the way back to Lima is 8% cheaper (return freight).
 */
export async function seedPricing(db: Db, branchIds: Map<string, number>): Promise<void> {
  const routes: { origin: string; destination: string; km: number; directionPercent: number }[] = [];
  for (const [pair, km] of Object.entries(ROAD_KM)) {
    const [origin, destination] = pair.split('|') as [string, string];
    if (!branchIds.has(origin) || !branchIds.has(destination)) continue;
    routes.push({ origin, destination, km, directionPercent: 100 });
    if (origin === 'Lima') routes.push({ origin: destination, destination: origin, km, directionPercent: 92 });
  }
  const plan = routes.flatMap((r) => PRODUCT_TYPES.map((productType) => ({ ...r, productType })));
  if (plan.length === 0) return;
  const tables = await db
    .insert(weightFactorTables)
    .values(
      plan.map((p) => ({
        originBranchId: branchIds.get(p.origin)!,
        destinationBranchId: branchIds.get(p.destination)!,
        productType: p.productType,
        name: `${p.origin} → ${p.destination} (${p.productType})`,
        currency: 'PEN',
      })),
    )
    .returning({ id: weightFactorTables.id });
  await db
    .insert(weightFactorTiers)
    .values(plan.flatMap((p, i) => tiersFor(p.km, p.productType, p.directionPercent).map((t) => ({ ...t, tableId: tables[i]!.id }))));
  // Both directions of every road get reference values for the freight detracción: S/ 0.11 per
  // TM-km, and the two-axle truck (C2) that runs a parcel route, 8 TM of nominal payload, 5 TM
  // carried on average.
  const roads = Object.entries(ROAD_KM).flatMap(([pair, km]) => {
    const [a, b] = pair.split('|') as [string, string];
    return branchIds.has(a) && branchIds.has(b)
      ? [
          { origin: a, destination: b, km },
          { origin: b, destination: a, km },
        ]
      : [];
  });
  if (roads.length === 0) return;
  await db.insert(routeReferenceValues).values(
    roads.map((r) => ({
      originBranchId: branchIds.get(r.origin)!,
      destinationBranchId: branchIds.get(r.destination)!,
      servicePerTm: centsToString(Math.round(r.km * 11)),
      effectiveLoadTm: '5.00',
      nominalLoadTm: '8.00',
    })),
  );
}
