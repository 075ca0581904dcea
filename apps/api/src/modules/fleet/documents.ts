import { and, asc, eq, isNotNull, lte, type SQL } from 'drizzle-orm';
import {
  addDays,
  daysUntilExpiry,
  DRIVER_DOCUMENT_TYPES,
  expiryState,
  FLEET_DOCUMENT_MESSAGES,
  FLEET_MESSAGES,
  limaDay,
  parseFleetFileDataUrl,
  VEHICLE_DOCUMENT_TYPES,
  type FleetDocument,
  type FleetDocumentData,
  type FleetDocumentType,
  type FleetFileType,
} from '@tramo/domain';
import type { Db, Tx } from '../../db/client.ts';
import { drivers, fleetDocuments, transports } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { reencodeImage } from '../../lib/images.ts';
import type { ServiceContext, SessionUser } from '../../types.ts';

/** Vehicle and driver documents with expiry (issue 36): list, add, delete, and what expires soon. */

export type Holder = { kind: 'transport' | 'driver'; id: number };

const columns = {
  id: fleetDocuments.id,
  transportId: fleetDocuments.transportId,
  driverId: fleetDocuments.driverId,
  plate: transports.platePrimary,
  driverName: drivers.fullName,
  type: fleetDocuments.type,
  number: fleetDocuments.number,
  issuedOn: fleetDocuments.issuedOn,
  expiresOn: fleetDocuments.expiresOn,
  fileType: fleetDocuments.fileType,
};

function selectDocuments(db: Db | Tx) {
  return db
    .select(columns)
    .from(fleetDocuments)
    .leftJoin(transports, eq(transports.id, fleetDocuments.transportId))
    .leftJoin(drivers, eq(drivers.id, fleetDocuments.driverId));
}

type Row = Awaited<ReturnType<typeof selectDocuments>>[number];

function toDto(row: Omit<Row, 'id'> & { id: number | null }, now: Date): FleetDocument {
  return {
    id: row.id,
    transportId: row.transportId,
    driverId: row.driverId,
    holder: row.plate ?? row.driverName ?? '',
    type: row.type as FleetDocumentType,
    number: row.number,
    issuedOn: row.issuedOn,
    expiresOn: row.expiresOn,
    fileType: row.fileType as FleetFileType | null,
    daysLeft: daysUntilExpiry(row.expiresOn, now),
    state: expiryState(row.expiresOn, now),
  };
}

/**
 * The licence expiry kept on the driver's record (Conductores form) as a document row without id:
 * the gate counts it (compliance.ts), so the lists show it too; it is edited in the driver's form.
 */
const recordLicenceRow = (d: { id: number; fullName: string; licenseNumber: string; licenseExpiresOn: string }) => ({
  id: null,
  transportId: null,
  driverId: d.id,
  plate: null,
  driverName: d.fullName,
  type: 'licencia',
  number: d.licenseNumber,
  issuedOn: null,
  expiresOn: d.licenseExpiresOn,
  fileType: null,
});

const byExpiry = (a: FleetDocument, b: FleetDocument) => a.expiresOn.localeCompare(b.expiresOn) || a.holder.localeCompare(b.holder);

async function assertHolder(db: Db | Tx, holder: Holder) {
  const table = holder.kind === 'transport' ? transports : drivers;
  const [row] = await db.select({ id: table.id }).from(table).where(eq(table.id, holder.id));
  if (!row) throw notFound(holder.kind === 'transport' ? FLEET_MESSAGES.transportNotFound : FLEET_MESSAGES.driverMissing);
}

const holderCondition = (holder: Holder) =>
  holder.kind === 'transport' ? eq(fleetDocuments.transportId, holder.id) : eq(fleetDocuments.driverId, holder.id);

export async function listHolderDocuments(ctx: ServiceContext, holder: Holder): Promise<FleetDocument[]> {
  await assertHolder(ctx.db, holder);
  const now = ctx.now();
  const rows = await selectDocuments(ctx.db).where(holderCondition(holder));
  const docs = rows.map((r) => toDto(r, now));
  if (holder.kind === 'driver') {
    const [driver] = await ctx.db
      .select({ id: drivers.id, fullName: drivers.fullName, licenseNumber: drivers.licenseNumber, licenseExpiresOn: drivers.licenseExpiresOn })
      .from(drivers)
      .where(and(eq(drivers.id, holder.id), isNotNull(drivers.licenseExpiresOn)));
    if (driver) docs.push(toDto(recordLicenceRow({ ...driver, licenseExpiresOn: driver.licenseExpiresOn! }), now));
  }
  return docs.sort(byExpiry);
}

/** The Documentos tab and the Panel: every document expiring within `within` days (or expired), soonest first. */
export async function expiringDocuments(ctx: ServiceContext, within: number | undefined): Promise<FleetDocument[]> {
  const now = ctx.now();
  const until = within === undefined ? undefined : addDays(limaDay(now), within);
  const docWhere: SQL | undefined = until ? lte(fleetDocuments.expiresOn, until) : undefined;
  const licenceWhere = until ? and(isNotNull(drivers.licenseExpiresOn), lte(drivers.licenseExpiresOn, until)) : isNotNull(drivers.licenseExpiresOn);
  const [rows, licences] = await Promise.all([
    selectDocuments(ctx.db).where(docWhere),
    ctx.db
      .select({ id: drivers.id, fullName: drivers.fullName, licenseNumber: drivers.licenseNumber, licenseExpiresOn: drivers.licenseExpiresOn })
      .from(drivers)
      .where(licenceWhere)
      .orderBy(asc(drivers.licenseExpiresOn)),
  ]);
  return [
    ...rows.map((r) => toDto(r, now)),
    ...licences.map((d) => toDto(recordLicenceRow({ ...d, licenseExpiresOn: d.licenseExpiresOn! }), now)),
  ].sort(byExpiry);
}

/**
 * A photo is decoded and encoded again like the delivery photos; a PDF is kept as sent, so it must
 * at least be one (the %PDF- header) within the size the schema allowed.
 */
async function decodeFile(dataUrl: string | null): Promise<{ bytes: Buffer; type: FleetFileType } | null> {
  if (dataUrl === null) return null;
  const parsed = parseFleetFileDataUrl(dataUrl);
  const refuse = () => badRequest(FLEET_DOCUMENT_MESSAGES.fileType, { file: FLEET_DOCUMENT_MESSAGES.fileType });
  if (!parsed) throw refuse();
  const raw = Buffer.from(parsed.base64, 'base64');
  if (parsed.type === 'application/pdf') {
    if (!raw.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw refuse();
    return { bytes: raw, type: parsed.type };
  }
  const bytes = await reencodeImage(raw, parsed.type);
  if (!bytes) throw refuse();
  return { bytes, type: parsed.type };
}

export async function addDocument(ctx: ServiceContext, actor: SessionUser, holder: Holder, data: FleetDocumentData): Promise<FleetDocument> {
  const allowed: readonly string[] = holder.kind === 'transport' ? VEHICLE_DOCUMENT_TYPES : DRIVER_DOCUMENT_TYPES;
  if (!allowed.includes(data.type)) {
    const message = holder.kind === 'transport' ? FLEET_DOCUMENT_MESSAGES.vehicleType : FLEET_DOCUMENT_MESSAGES.driverType;
    throw badRequest(message, { type: message });
  }
  const file = await decodeFile(data.file);
  return ctx.db.transaction(async (tx) => {
    await assertHolder(tx, holder);
    const [created] = await tx
      .insert(fleetDocuments)
      .values({
        transportId: holder.kind === 'transport' ? holder.id : null,
        driverId: holder.kind === 'driver' ? holder.id : null,
        type: data.type,
        number: data.number,
        issuedOn: data.issuedOn,
        expiresOn: data.expiresOn,
        file: file?.bytes ?? null,
        fileType: file?.type ?? null,
        createdBy: actor.id,
        createdAt: ctx.now(),
      })
      .returning({ id: fleetDocuments.id });
    const [row] = await selectDocuments(tx).where(eq(fleetDocuments.id, created!.id));
    const after = toDto(row!, ctx.now());
    await audit(tx, { userId: actor.id, entity: 'fleet_document', entityId: after.id!, action: 'create', after });
    return after;
  });
}

export async function deleteDocument(ctx: ServiceContext, actor: SessionUser, holder: Holder, documentId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [row] = await selectDocuments(tx)
      .where(and(eq(fleetDocuments.id, documentId), holderCondition(holder)))
      .for('update', { of: fleetDocuments });
    if (!row) throw notFound(FLEET_DOCUMENT_MESSAGES.documentNotFound);
    await tx.delete(fleetDocuments).where(eq(fleetDocuments.id, documentId));
    await audit(tx, { userId: actor.id, entity: 'fleet_document', entityId: documentId, action: 'delete', before: toDto(row, ctx.now()) });
  });
}

/** The stored file (staff only, through the API); served as an attachment, never rendered inline. */
export async function documentFile(ctx: ServiceContext, holder: Holder, documentId: number) {
  const [row] = await ctx.db
    .select({ file: fleetDocuments.file, fileType: fleetDocuments.fileType, type: fleetDocuments.type })
    .from(fleetDocuments)
    .where(and(eq(fleetDocuments.id, documentId), holderCondition(holder)));
  if (!row) throw notFound(FLEET_DOCUMENT_MESSAGES.documentNotFound);
  if (!row.file || !row.fileType) throw notFound(FLEET_DOCUMENT_MESSAGES.noFile);
  const extension = row.fileType === 'application/pdf' ? 'pdf' : row.fileType === 'image/png' ? 'png' : 'jpg';
  return { bytes: Buffer.from(row.file), type: row.fileType, filename: `${row.type}-${documentId}.${extension}` };
}
