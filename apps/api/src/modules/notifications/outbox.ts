import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { notificationText, notificationTopic, publicTrackingPath, type NotificationChannel } from '@tramo/domain';
import type { Tx } from '../../db/client.ts';
import { branches, customers, notificationOutbox, shipments } from '../../db/schema.ts';

const origin = alias(branches, 'notify_origin');
const destination = alias(branches, 'notify_destination');

export interface AnnouncedEvent {
  id: number;
  kind: string;
  statusFrom?: string | null;
  statusTo?: string | null;
}

/**
 * Writes the messages a shipment event announces, in the event's own transaction: a failed event
 * writes none, a committed one always has them. One message per party and address (the sender's
 * customer record, the recipient's contact on the shipment); an e-mail address goes by e-mail, a
 * phone by WhatsApp. The idempotency key (event, party, channel) makes a repeat a no-op.
 */
export async function enqueueNotifications(tx: Tx, shipmentId: number, event: AnnouncedEvent, at: Date, known?: KnownShipment): Promise<void> {
  const topic = notificationTopic(event);
  if (!topic || (known && !mayHaveAddressees(known))) return;
  const s = known ? await fromKnown(tx, known) : await readShipment(tx, shipmentId);
  if (!s) return;
  const text = notificationText(topic, s);
  const targets: { party: 'sender' | 'recipient'; channel: NotificationChannel; address: string | null }[] = [
    { party: 'sender', channel: 'email', address: s.senderEmail },
    { party: 'sender', channel: 'whatsapp', address: s.senderPhone },
    { party: 'recipient', channel: 'email', address: s.recipientEmail },
    { party: 'recipient', channel: 'whatsapp', address: s.recipientPhone },
  ];
  const rows = targets
    .filter((t): t is typeof t & { address: string } => !!t.address?.trim())
    .map((t) => ({
      shipmentId,
      eventId: event.id,
      topic,
      channel: t.channel,
      party: t.party,
      address: t.address.trim(),
      subject: text.subject,
      body: text.body,
      link: publicTrackingPath(s.code),
      idempotencyKey: `${event.id}:${t.party}:${t.channel}`,
      nextAttemptAt: at,
      createdAt: at,
    }));
  if (rows.length) await tx.insert(notificationOutbox).values(rows).onConflictDoNothing({ target: notificationOutbox.idempotencyKey });
}

/**
 * What the caller already holds of the shipment (a creation has just inserted it): the outbox
 * then reads only the sender's customer contact, and only when there is a sender customer.
 */
export interface KnownShipment {
  code: string;
  recipientPhone: string | null;
  recipientEmail: string | null;
  senderCustomerId: number | null;
  origin: string;
  destination: string;
}

/**
 * Whether a shipment may have anyone to announce its events to: a sender customer (whose record may
 * hold a contact) or a recipient's phone or e-mail. Without one, an event writes no message.
 */
export function mayHaveAddressees(s: Pick<KnownShipment, 'senderCustomerId' | 'recipientPhone' | 'recipientEmail'>): boolean {
  return s.senderCustomerId !== null || !!s.recipientPhone?.trim() || !!s.recipientEmail?.trim();
}

async function fromKnown(tx: Tx, known: KnownShipment) {
  const { senderCustomerId, ...rest } = known;
  if (senderCustomerId === null) return { ...rest, senderPhone: null, senderEmail: null };
  const [c] = await tx.select({ phone: customers.phone, email: customers.email }).from(customers).where(eq(customers.id, senderCustomerId));
  return { ...rest, senderPhone: c?.phone ?? null, senderEmail: c?.email ?? null };
}

async function readShipment(tx: Tx, shipmentId: number) {
  const [s] = await tx
    .select({
      code: shipments.code,
      recipientPhone: shipments.recipientPhone,
      recipientEmail: shipments.recipientEmail,
      senderPhone: customers.phone,
      senderEmail: customers.email,
      origin: origin.name,
      destination: destination.name,
    })
    .from(shipments)
    .innerJoin(origin, eq(origin.id, shipments.originBranchId))
    .innerJoin(destination, eq(destination.id, shipments.destinationBranchId))
    .leftJoin(customers, eq(customers.id, shipments.senderCustomerId))
    .where(eq(shipments.id, shipmentId));
  return s;
}
