import { sql } from 'drizzle-orm';
import {
  centsToNumber,
  centsToString,
  dominantProductType,
  formatShipmentCode,
  PRODUCT_TYPES,
  quoteWithTiers,
  sumCents,
  totalLines,
  type ProductType,
  type ShipmentLine,
  type ShipmentStatus,
} from '@tramo/domain';
import type { Db } from '../db/client.ts';
import { customers, shipmentEvents, shipments, users } from '../db/schema.ts';
import { hashPassword } from '../lib/passwords.ts';
import { findRouteTable, type RouteTable } from '../modules/pricing/quote.ts';

/** Every demo shipment's secret code, so deliveries can be tried from the demo data. */
export const DEMO_SECRET_CODE = '1234';
const DEMO_SHIPMENTS = 320;
const DAYS = 60;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const FIRST_NAMES = [
  'María',
  'José',
  'Rosa',
  'Juan',
  'Carmen',
  'Luis',
  'Ana',
  'Carlos',
  'Julia',
  'Pedro',
  'Elena',
  'Miguel',
  'Lucía',
  'Jorge',
  'Sofía',
  'Víctor',
];
const LAST_NAMES = [
  'Quispe',
  'Flores',
  'Huamán',
  'Mamani',
  'Rojas',
  'Sánchez',
  'García',
  'Vargas',
  'Chávez',
  'Ramos',
  'Torres',
  'Mendoza',
  'Castillo',
  'Díaz',
  'Condori',
  'Paredes',
];
const MANUAL_SENDERS = ['Bodega Santa Rosa', 'Ferretería El Constructor', 'Textiles Gamarra Express', 'Librería San Marcos'];
const DESCRIPTIONS = [
  'Caja de repuestos',
  'Documentos',
  'Prendas de vestir',
  'Artículos de ferretería',
  'Medicamentos (sellado)',
  'Electrodomésticos',
  null,
];
const CHECKPOINTS = ['Llegó al almacén de destino', 'Cliente llamó para consultar', 'Embalaje reforzado', 'Reprogramado por lluvias'];

/** A small seeded generator: the demo data is the same on every fresh start. */
export function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, int, pick };
}

/** Older shipments have mostly arrived; recent ones are mostly still at the counter or on the road. */
function statusFor(ageDays: number, r: number): ShipmentStatus {
  if (ageDays > 7) return r < 0.6 ? 'Entregado' : r < 0.75 ? 'En tránsito' : r < 0.88 ? 'Creado' : 'Anulado';
  return r < 0.5 ? 'Creado' : r < 0.82 ? 'En tránsito' : r < 0.92 ? 'Entregado' : 'Anulado';
}

/** Pago en destino at most this freight (the rules' default maximum, S/ 500). */
const DESTINATION_MAX_CENTS = 50_000;

/**
 * Whether a demo shipment is pago en destino (issue 33): about half of those to a branch with its
 * own counter agent (who collects it), within the default maximum, to a recipient with a DNI (the
 * boleta the destination issues); most of the few cancelled ones, so that every state has some.
 */
function destinationCollects(
  who: ReturnType<typeof random>,
  destination: number,
  priceCents: number,
  recipientDoc: string,
  staff: readonly { role: string; branchId: number | null }[],
  status: ShipmentStatus,
): boolean {
  const roll = who.next();
  const counter = staff.some((u) => u.role === 'agent' && u.branchId === destination);
  return counter && priceCents <= DESTINATION_MAX_CENTS && recipientDoc.length === 8 && roll < (status === 'Anulado' ? 0.9 : 0.5);
}

/**
 * ≥ 300 demo shipments over the last 60 days between every priced branch pair, in every status,
 * with their history. Prices come from the demo price tables through the same pricing function as
 * quoteRoute (findRouteTable + quoteWithTiers), each route's table read once instead of per line.
 * Rows and events go in a few multi-row inserts, so the first start stays fast.
 */
export async function seedShipments(db: Db, branchIds: Map<string, number>): Promise<void> {
  const rnd = random(20240501);
  const ids = [...branchIds.values()];
  const tables = new Map<string, RouteTable | null>();
  const tableFor = async (origin: number, destination: number, productType: ProductType) => {
    const key = `${origin}|${destination}|${productType}`;
    if (!tables.has(key)) tables.set(key, await findRouteTable(db, origin, destination, productType));
    return tables.get(key)!;
  };
  const pairs: [number, number][] = [];
  for (const o of ids) for (const d of ids) if (o !== d && (await tableFor(o, d, 'liviano'))) pairs.push([o, d]);
  if (pairs.length === 0) return;

  const senders = await db.select({ id: customers.id, firstName: customers.firstName, lastName: customers.lastName }).from(customers);
  const staff = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, branchId: users.branchId, role: users.role })
    .from(users);
  const admin = staff.find((u) => u.role === 'admin');
  const nameOf = (u: (typeof staff)[number]) => [u.firstName, u.lastName].filter(Boolean).join(' ');
  const secretCodeHash = await hashPassword(DEMO_SECRET_CODE);
  const now = Date.now();

  type Planned = { row: typeof shipments.$inferInsert; events: Omit<typeof shipmentEvents.$inferInsert, 'shipmentId'>[] };
  const planned: Planned[] = [];
  // Pago en destino (issue 33) draws from its own generator: the rest of the demo stays as it was.
  const who = random(20241133);
  while (planned.length < DEMO_SHIPMENTS) {
    const [origin, destination] = rnd.pick(pairs);
    const createdAt = new Date(now - rnd.next() * DAYS * DAY);
    const lines: ShipmentLine[] = [];
    const cents: number[] = [];
    for (let i = rnd.int(1, 3); i > 0; i--) {
      const productType = rnd.pick(PRODUCT_TYPES);
      const weightKg = rnd.next() < 0.85 ? rnd.int(20, 3000) / 100 : rnd.int(3000, 40000) / 100;
      const table = await tableFor(origin, destination, productType);
      const quote = table ? quoteWithTiers(table.tiers, weightKg) : null;
      if (!table || !quote?.ok) continue;
      cents.push(quote.priceCents);
      lines.push({
        productType,
        weightKg,
        billableWeightKg: quote.billableWeightKg,
        factorPerKg: quote.factorPerKg,
        price: centsToNumber(quote.priceCents),
        currency: table.currency,
        tier: { from_kg: quote.tier.from_kg, to_kg: quote.tier.to_kg, factor_per_kg: quote.tier.factor_per_kg },
        usingReverse: table.usingReverse,
      });
    }
    if (lines.length === 0) continue;

    const ageDays = (now - createdAt.getTime()) / DAY;
    const status = statusFor(ageDays, rnd.next());
    const creator = rnd.pick(staff.filter((u) => u.role !== 'courier' && (u.role === 'admin' || u.branchId === origin))) ?? admin!;
    const handler = staff.find((u) => u.branchId === destination) ?? admin!;
    const sender = rnd.next() < 0.75 && senders.length > 0 ? rnd.pick(senders) : null;
    const firstName = rnd.pick(FIRST_NAMES);
    const lastName = `${rnd.pick(LAST_NAMES)} ${rnd.pick(LAST_NAMES)}`;
    const recipientDoc = rnd.next() < 0.85 ? String(rnd.int(10_000_000, 79_999_999)) : `20${rnd.int(100_000_000, 699_999_999)}`;
    const totals = totalLines(lines);
    const productType = dominantProductType(lines.map((l) => l.productType));
    const lead = lines.find((l) => l.productType === productType)!;
    const at = (ms: number) => new Date(Math.min(createdAt.getTime() + ms, now));
    const by = (u: (typeof staff)[number]) => ({ userId: u.id, userName: nameOf(u) });

    const events: Planned['events'] = [{ kind: 'status', name: 'Creado', statusTo: 'Creado', at: createdAt, ...by(creator) }];
    let deliveredInfo: Record<string, string> | null = null;
    if (status === 'Anulado') {
      events.push({ kind: 'cancel', name: 'Anulado', statusFrom: 'Creado', statusTo: 'Anulado', at: at(2 * HOUR), ...by(creator) });
    }
    if (status === 'En tránsito' || status === 'Entregado') {
      events.push({ kind: 'status', name: 'En tránsito', statusFrom: 'Creado', statusTo: 'En tránsito', at: at(6 * HOUR), ...by(creator) });
      if (rnd.next() < 0.3) events.push({ kind: 'event', name: rnd.pick(CHECKPOINTS), at: at(20 * HOUR), ...by(handler) });
    }
    if (status === 'Entregado') {
      const deliveredAt = at(rnd.int(30, 96) * HOUR);
      events.push({ kind: 'status', name: 'Entregado', statusFrom: 'En tránsito', statusTo: 'Entregado', at: deliveredAt, ...by(handler) });
      deliveredInfo = {
        receiverName: `${firstName} ${lastName}`,
        receiverDoc: recipientDoc,
        deliveredByName: nameOf(handler),
        deliveredAt: deliveredAt.toISOString(),
        notes: '',
      };
    }
    const destino = destinationCollects(who, destination, sumCents(cents), recipientDoc, staff, status);
    let finalStatus = status;
    if (destino && status === 'En tránsito' && who.next() < 0.5) {
      finalStatus = 'En agencia';
      // Arrived and waiting at the destination's counter for the recipient and the freight.
      const arrivedAt = at(who.int(20, 40) * HOUR);
      events.push({ kind: 'status', name: 'En agencia', statusFrom: 'En tránsito', statusTo: 'En agencia', at: arrivedAt, ...by(handler) });
    }
    planned.push({
      row: {
        ...(destino ? { payer: 'destinatario', paymentMoment: 'destino' } : {}),
        code: '',
        status: finalStatus,
        createdAt,
        updatedAt: events.at(-1)!.at!,
        createdBy: creator.id,
        createdByName: nameOf(creator),
        originBranchId: origin,
        destinationBranchId: destination,
        senderCustomerId: sender?.id ?? null,
        senderName: sender ? [sender.firstName, sender.lastName].filter(Boolean).join(' ') : rnd.pick(MANUAL_SENDERS),
        recipientFirstName: firstName,
        recipientLastName: lastName,
        recipientName: `${firstName} ${lastName}`,
        recipientDoc,
        productType,
        weightKg: totals.weightKg.toFixed(2),
        billableWeightKg: totals.billableWeightKg,
        description: rnd.pick(DESCRIPTIONS),
        quotedPrice: centsToString(sumCents(cents)),
        quotedCurrency: lead.currency,
        quotedFactorPerKg: String(lead.factorPerKg),
        usingReverse: lines.some((l) => l.usingReverse),
        multiLineDetail: lines,
        secretCodeHash,
        deliveredInfo,
      },
      events,
    });
  }

  // Codes follow creation time, as they would have been handed out.
  planned.sort((a, b) => a.row.createdAt!.getTime() - b.row.createdAt!.getTime());
  planned.forEach((p, i) => (p.row.code = formatShipmentCode(i + 1)));
  const inserted: { id: number }[] = [];
  for (let i = 0; i < planned.length; i += 100) {
    const chunk = planned.slice(i, i + 100);
    inserted.push(
      ...(await db
        .insert(shipments)
        .values(chunk.map((p) => p.row))
        .returning({ id: shipments.id })),
    );
  }
  const events = planned.flatMap((p, i) => p.events.map((e) => ({ ...e, shipmentId: inserted[i]!.id })));
  for (let i = 0; i < events.length; i += 500) await db.insert(shipmentEvents).values(events.slice(i, i + 500));
  await db.execute(sql`select setval('shipment_code_seq', ${planned.length})`);
}
