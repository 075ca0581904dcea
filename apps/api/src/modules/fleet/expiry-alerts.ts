import { and, eq, gte, isNotNull, lte } from 'drizzle-orm';
import {
  addDays,
  alertWindow,
  dayText,
  daysUntilExpiry,
  FLEET_DOCUMENT_LABELS,
  limaDay,
  type ExpiryAlertWindow,
  type FleetDocumentType,
} from '@tramo/domain';
import { drivers, fleetDocuments, fleetExpiryAlerts, notificationOutbox, transports } from '../../db/schema.ts';
import { loggableError } from '../../plugins/logging.ts';
import type { App, ServiceContext } from '../../types.ts';

/*
 * Fleet document alerts (issue 36): 30, 15 and 7 days before a vehicle's or a driver's document
 * expires, the fleet contact (FLEET_ALERT_EMAIL / FLEET_ALERT_WHATSAPP) gets one message per
 * window through the notifications outbox. The window's row in fleet_expiry_alerts (unique key:
 * document, expiry, window) and the messages are written in one transaction, so a window is sent
 * once whichever process or tick finds it due, and a renewed document starts its windows again.
 */

interface Expiring {
  documentId: number | null;
  transportId: number | null;
  driverId: number | null;
  type: FleetDocumentType;
  number: string | null;
  expiresOn: string;
  holder: string;
}

/** Every document expiring within the widest window from today (Lima), with its holder's plate or name. */
async function expiringWithin(ctx: ServiceContext, today: string): Promise<Expiring[]> {
  const until = addDays(today, 30);
  const window = and(gte(fleetDocuments.expiresOn, today), lte(fleetDocuments.expiresOn, until));
  const [vehicleDocs, driverDocs, licences] = await Promise.all([
    ctx.db
      .select({
        id: fleetDocuments.id,
        holderId: transports.id,
        type: fleetDocuments.type,
        number: fleetDocuments.number,
        expiresOn: fleetDocuments.expiresOn,
        holder: transports.platePrimary,
      })
      .from(fleetDocuments)
      .innerJoin(transports, eq(transports.id, fleetDocuments.transportId))
      .where(window),
    ctx.db
      .select({
        id: fleetDocuments.id,
        holderId: drivers.id,
        type: fleetDocuments.type,
        number: fleetDocuments.number,
        expiresOn: fleetDocuments.expiresOn,
        holder: drivers.fullName,
      })
      .from(fleetDocuments)
      .innerJoin(drivers, eq(drivers.id, fleetDocuments.driverId))
      .where(window),
    // The licence kept on the driver's record (the Conductores form) is a document too.
    ctx.db
      .select({ holderId: drivers.id, number: drivers.licenseNumber, expiresOn: drivers.licenseExpiresOn, holder: drivers.fullName })
      .from(drivers)
      .where(and(isNotNull(drivers.licenseExpiresOn), gte(drivers.licenseExpiresOn, today), lte(drivers.licenseExpiresOn, until))),
  ]);
  return [
    ...vehicleDocs.map((d) => ({ ...d, documentId: d.id, transportId: d.holderId, driverId: null, type: d.type as FleetDocumentType })),
    ...driverDocs.map((d) => ({ ...d, documentId: d.id, transportId: null, driverId: d.holderId, type: d.type as FleetDocumentType })),
    ...licences.map((d) => ({ ...d, expiresOn: d.expiresOn!, documentId: null, transportId: null, driverId: d.holderId, type: 'licencia' as const })),
  ];
}

/** 'SOAT de ABC-123 (N.° SOAT-1) vence el 20/12/2026: en 15 días.' */
export function expiryAlertText(doc: Pick<Expiring, 'type' | 'number' | 'expiresOn' | 'holder'>, days: number) {
  const label = FLEET_DOCUMENT_LABELS[doc.type];
  const when = days === 0 ? 'hoy' : days === 1 ? 'mañana' : `en ${days} días`;
  return {
    subject: `Tramo: ${label} de ${doc.holder} vence ${when}`,
    body: `Tramo: ${label} de ${doc.holder}${doc.number ? ` (N.° ${doc.number})` : ''} vence el ${dayText(doc.expiresOn)}, ${when}. Renuévalo y regístralo en Transportistas › Documentos: vencido, el vehículo o el conductor no sale.`,
  };
}

const keyOf = (d: Expiring, window: ExpiryAlertWindow) =>
  `${d.documentId !== null ? `doc:${d.documentId}` : `licencia:${d.driverId}`}:${d.expiresOn}:${window}`;

/**
 * Writes the alerts due today (each document's current window, if not sent yet) to the outbox.
 * Answers how many windows it recorded; with no fleet contact configured it records nothing.
 */
export async function enqueueFleetExpiryAlerts(ctx: ServiceContext): Promise<number> {
  const { fleetAlertEmail, fleetAlertWhatsapp } = ctx.config.notify;
  const targets = [
    { channel: 'email' as const, address: fleetAlertEmail },
    { channel: 'whatsapp' as const, address: fleetAlertWhatsapp },
  ].filter((t): t is { channel: 'email' | 'whatsapp'; address: string } => !!t.address);
  if (targets.length === 0) return 0;
  const now = ctx.now();
  const today = limaDay(now);
  let recorded = 0;
  for (const doc of await expiringWithin(ctx, today)) {
    const window = alertWindow(doc.expiresOn, now);
    if (window === null) continue;
    const alertKey = keyOf(doc, window);
    const sent = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(fleetExpiryAlerts)
        .values({
          alertKey,
          documentId: doc.documentId,
          transportId: doc.transportId,
          driverId: doc.driverId,
          type: doc.type,
          expiresOn: doc.expiresOn,
          alertWindow: window,
          sentAt: now,
        })
        .onConflictDoNothing({ target: fleetExpiryAlerts.alertKey })
        .returning({ id: fleetExpiryAlerts.id });
      if (!row) return false;
      // The days left today, not as of the window's first day (a tick may come late).
      const text = expiryAlertText(doc, daysUntilExpiry(doc.expiresOn, now));
      await tx
        .insert(notificationOutbox)
        .values(
          targets.map((t) => ({
            shipmentId: null,
            eventId: null,
            topic: 'fleet_expiry',
            channel: t.channel,
            party: 'company',
            address: t.address,
            subject: text.subject,
            body: text.body,
            link: '',
            idempotencyKey: `fleet:${alertKey}:${t.channel}`,
            nextAttemptAt: now,
            createdAt: now,
          })),
        )
        .onConflictDoNothing({ target: notificationOutbox.idempotencyKey });
      return true;
    });
    if (sent) recorded++;
  }
  return recorded;
}

/** How often a server process looks for windows that opened (a window is a day long; the key keeps it once). */
const ALERT_SCAN_MS = 10 * 60_000;

/** The server's fleet alert tick, beside the notifications worker that sends what it writes; stops with the app. */
export function startFleetExpiryAlerts(app: App, pollMs: number): void {
  if (pollMs <= 0) return;
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    enqueueFleetExpiryAlerts(app)
      .catch((err: unknown) => app.log.error({ err: loggableError(err) }, 'alertas de documentos de la flota'))
      .finally(() => (running = false));
  };
  const timer = setInterval(tick, Math.max(pollMs, ALERT_SCAN_MS));
  const first = setTimeout(tick, pollMs);
  timer.unref();
  first.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    clearTimeout(first);
  });
}
