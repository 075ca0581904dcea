import type { FastifyInstance } from 'fastify';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { addDays, limaDay, loadedEventName, routeText, type TransportStatus } from '@tramo/domain';
import type { Db } from '../db/client.ts';
import { drivers, fleetDocuments, shipmentEvents, shipments, transportAssignments, transports, users } from '../db/schema.ts';
import { depart } from '../modules/trips/index.ts';
import type { SessionUser } from '../types.ts';

const DEMO_DRIVERS = [
  {
    fullName: 'Juan Carlos Quispe Mamani',
    dni: '41235678',
    licenseNumber: 'Q41235678',
    phone: '987 654 321',
    note: 'Ruta sur, 12 años de experiencia',
  },
  { fullName: 'Pedro Huamán Condori', dni: '42871564', licenseNumber: 'Q42871564', phone: '986 112 457', note: null },
  { fullName: 'Miguel Ángel Flores Ccahuana', dni: '43987120', licenseNumber: 'Q43987120', phone: '945 778 210', note: 'Licencia A-IIIc' },
  { fullName: 'José Luis Rojas Vilca', dni: '44561239', licenseNumber: 'Q44561239', phone: '951 336 874', note: null },
  { fullName: 'Carlos Alberto Chávez Ticona', dni: '45129873', licenseNumber: 'Q45129873', phone: '962 541 008', note: 'Turno noche' },
  { fullName: 'Víctor Raúl Mendoza Apaza', dni: '40987612', licenseNumber: 'Q40987612', phone: '974 220 193', note: null },
  { fullName: 'Luis Fernando Torres Salazar', dni: '46230981', licenseNumber: 'Q46230981', phone: '988 903 117', note: null },
  { fullName: 'Ricardo Paredes Limachi', dni: '47315602', licenseNumber: 'Q47315602', phone: '955 684 702', note: 'Ruta norte' },
  { fullName: 'Walter Cárdenas Ayala', dni: '42013547', licenseNumber: 'Q42013547', phone: '940 118 665', note: null },
  { fullName: 'Edwin Gutiérrez Layme', dni: '43650218', licenseNumber: 'Q43650218', phone: '993 457 381', note: 'Apoyo en descarga' },
  { fullName: 'Hugo Ccori Sánchez', dni: '48120945', licenseNumber: 'Q48120945', phone: null, note: null },
] as const;

interface DemoTransport {
  plate: string;
  trailer: string | null;
  make: string;
  model: string;
  capacityKg: string;
  netWeightKg: string;
  status: TransportStatus;
  origin: string;
  destination: string;
  drivers: [number, number | null];
}

/** Indexes into DEMO_DRIVERS; the last two drivers are left free so they can be deleted in a demo. */
const DEMO_TRANSPORTS: DemoTransport[] = [
  {
    plate: 'ABC-123',
    trailer: 'T1A-456',
    make: 'Volvo',
    model: 'FH 460',
    capacityKg: '28000.00',
    netWeightKg: '9200.00',
    status: 'disponible',
    origin: 'Lima',
    destination: 'Arequipa',
    drivers: [0, 1],
  },
  {
    plate: 'BCD-234',
    trailer: null,
    make: 'Hino',
    model: '500 FC',
    capacityKg: '8000.00',
    netWeightKg: '4300.00',
    status: 'en_ruta',
    origin: 'Lima',
    destination: 'Trujillo',
    drivers: [2, null],
  },
  {
    plate: 'CDE-345',
    trailer: null,
    make: 'Isuzu',
    model: 'NPR 816',
    capacityKg: '4500.00',
    netWeightKg: '2900.00',
    status: 'disponible',
    origin: 'Arequipa',
    destination: 'Cusco',
    drivers: [3, null],
  },
  {
    plate: 'DEF-456',
    trailer: 'T2B-789',
    make: 'Scania',
    model: 'R 450',
    capacityKg: '30000.00',
    netWeightKg: '9800.00',
    status: 'mantenimiento',
    origin: 'Lima',
    destination: 'Piura',
    drivers: [4, 5],
  },
  {
    plate: 'EFG-567',
    trailer: null,
    make: 'Mercedes-Benz',
    model: 'Atego 1726',
    capacityKg: '12000.00',
    netWeightKg: '6100.00',
    status: 'disponible',
    origin: 'Trujillo',
    destination: 'Chiclayo',
    drivers: [6, null],
  },
  {
    plate: 'FGH-678',
    trailer: null,
    make: 'Hino',
    model: 'Dutro 716',
    capacityKg: '3500.00',
    netWeightKg: '2500.00',
    status: 'en_ruta',
    origin: 'Lima',
    destination: 'Cusco',
    drivers: [7, null],
  },
  {
    plate: 'GHI-789',
    trailer: 'T3C-012',
    make: 'Volvo',
    model: 'FM 380',
    capacityKg: '25000.00',
    netWeightKg: '8700.00',
    status: 'disponible',
    origin: 'Piura',
    destination: 'Lima',
    drivers: [8, 1],
  },
  {
    plate: 'HIJ-890',
    trailer: null,
    make: 'Isuzu',
    model: 'FVR 34',
    capacityKg: '10000.00',
    netWeightKg: '5200.00',
    status: 'mantenimiento',
    origin: 'Arequipa',
    destination: 'Lima',
    drivers: [5, null],
  },
  {
    plate: 'IJK-901',
    trailer: null,
    make: 'JAC',
    model: 'N75',
    capacityKg: '5000.00',
    netWeightKg: '3100.00',
    status: 'disponible',
    origin: 'Chiclayo',
    destination: 'Lima',
    drivers: [3, 6],
  },
];

/** The Transportistas' 'Documentos' tab and the Panel have something to warn about, away from the trucks on the road. */
const SOAT_ABOUT_TO_EXPIRE = { plate: 'CDE-345', inDays: 12 };
/** Free (on no transport), so the demo's trucks still leave; the gate refuses them if assigned. */
const EXPIRED_LICENCE_DRIVER = 10;

/** How many Creado shipments the demo puts on each of the first transports. */
const DEMO_LOADS: Record<string, number> = { 'ABC-123': 3, 'BCD-234': 2, 'EFG-567': 1, 'FGH-678': 2 };

/**
 * Drivers, transports between the demo branches, and a few Creado shipments already loaded (with
 * their 'Cargado en …' history entry). Runs after the shipments seed; with no shipments it loads none.
 */
export async function seedFleet(db: Db, branchIds: Map<string, number>): Promise<void> {
  const today = limaDay(new Date());
  const driverRows = await db
    .insert(drivers)
    .values(
      DEMO_DRIVERS.map((d, i) => ({
        ...d,
        licenseClass: 'A-IIIc',
        licenseExpiresOn: i === EXPIRED_LICENCE_DRIVER ? addDays(today, -20) : addDays(today, 400 + i * 37),
      })),
    )
    .returning({ id: drivers.id, licenseNumber: drivers.licenseNumber });
  const driverIds = driverRows.map((d) => d.id);
  const branchNames = new Map([...branchIds].map(([name, id]) => [id, name]));
  const transportRows = await db
    .insert(transports)
    .values(
      DEMO_TRANSPORTS.filter((t) => branchIds.has(t.origin) && branchIds.has(t.destination)).map((t) => {
        const originId = branchIds.get(t.origin)!;
        const destinationId = branchIds.get(t.destination)!;
        return {
          platePrimary: t.plate,
          plateSecondary: t.trailer,
          make: t.make,
          model: t.model,
          capacityKg: t.capacityKg,
          netWeightKg: t.netWeightKg,
          // A truck on the road is on a trip: it leaves the yard 'disponible' and departs below.
          status: t.status === 'en_ruta' ? 'disponible' : t.status,
          originBranchId: originId,
          destinationBranchId: destinationId,
          route: routeText(branchNames.get(originId), branchNames.get(destinationId)),
          driverId1: driverIds[t.drivers[0]]!,
          driverId2: t.drivers[1] === null ? null : driverIds[t.drivers[1]]!,
          vehicleType: t.trailer ? ('tracto' as const) : ('camion' as const),
          tucNumber: `1500${t.plate.replace('-', '')}`,
          configuration: t.trailer ? 'T3S3' : 'C2',
          payloadKg: t.capacityKg,
          axles: t.trailer ? 3 : 2,
        };
      }),
    )
    .returning({
      id: transports.id,
      plate: transports.platePrimary,
      originId: transports.originBranchId,
      destinationId: transports.destinationBranchId,
    });

  await seedDocuments(db, today, transportRows, driverRows);

  for (const transport of transportRows) {
    const load = DEMO_LOADS[transport.plate] ?? 0;
    if (load === 0) continue;
    // The newest free Creado shipments of the truck's own route, like a real loading dock; most
    // stay free so the Asignaciones tab has something to load.
    const candidates = await db
      .select({ id: shipments.id, createdAt: shipments.createdAt })
      .from(shipments)
      .leftJoin(transportAssignments, eq(transportAssignments.shipmentId, shipments.id))
      .where(
        and(
          eq(shipments.status, 'Creado'),
          eq(shipments.originBranchId, transport.originId!),
          eq(shipments.destinationBranchId, transport.destinationId!),
          isNull(transportAssignments.id),
        ),
      )
      .orderBy(desc(shipments.createdAt), desc(shipments.id))
      .limit(load);
    for (const shipment of candidates) {
      // An hour after registration, never in the future of the demo's clock.
      const loadedAt = new Date(Math.min(shipment.createdAt.getTime() + 3_600_000, Date.now()));
      await db.insert(transportAssignments).values({ transportId: transport.id, shipmentId: shipment.id, loadedAt });
      await db.insert(shipmentEvents).values({
        shipmentId: shipment.id,
        kind: 'transport',
        name: loadedEventName(transport.plate),
        at: loadedAt,
        userName: 'Sistema (demo)',
      });
    }
  }

  // The trucks the demo shows on the road depart through the real 'Registrar salida' (their load
  // goes En tránsito with its history, the trip opens), so 'Registrar llegada' works on them.
  const onTheRoad = new Set(DEMO_TRANSPORTS.filter((t) => t.status === 'en_ruta').map((t) => t.plate));
  const actor = await demoAdmin(db);
  for (const transport of transportRows.filter((t) => onTheRoad.has(t.plate))) {
    await depart({ db, now: () => new Date() } as FastifyInstance, actor, transport.id, true);
  }
}

/**
 * Every truck a current SOAT, CITV and TUC and every driver a medical exam (their licence expiry is
 * on their record), except the two cases the demo shows the gate with.
 */
async function seedDocuments(
  db: Db,
  today: string,
  transportRows: { id: number; plate: string }[],
  driverRows: { id: number; licenseNumber: string }[],
) {
  const vehicleDocs = transportRows.flatMap((t, i) => {
    const soatExpiry = t.plate === SOAT_ABOUT_TO_EXPIRE.plate ? addDays(today, SOAT_ABOUT_TO_EXPIRE.inDays) : addDays(today, 90 + i * 23);
    const plate = t.plate.replace('-', '');
    return [
      { transportId: t.id, type: 'soat', number: `SOAT-${plate}`, issuedOn: addDays(soatExpiry, -365), expiresOn: soatExpiry },
      { transportId: t.id, type: 'citv', number: `CITV-${plate}`, issuedOn: addDays(today, -60 - i), expiresOn: addDays(today, 305 - i) },
      { transportId: t.id, type: 'tuc', number: `1500${plate}`, issuedOn: addDays(today, -400), expiresOn: addDays(today, 1425) },
    ];
  });
  // The licence is the driver record's own number and expiry (the gate reads it); no second copy.
  const driverDocs = driverRows.map((d, i) => ({
    driverId: d.id,
    type: 'examen_medico',
    number: `EM-${d.licenseNumber}`,
    issuedOn: addDays(today, -100 - i),
    expiresOn: addDays(today, 265 - i),
  }));
  await db.insert(fleetDocuments).values([...vehicleDocs, ...driverDocs]);
}

async function demoAdmin(db: Db): Promise<SessionUser> {
  const [admin] = await db.select().from(users).where(eq(users.username, 'ADMIN'));
  if (!admin) throw new Error('the demo seed needs its ADMIN user before the fleet');
  return { ...admin, role: 'admin', branchName: null };
}
