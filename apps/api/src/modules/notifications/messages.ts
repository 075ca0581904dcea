import { eq } from 'drizzle-orm';
import type { NotificationChannel, NotificationTopic } from '@tramo/domain';
import type { Tx } from '../../db/client.ts';
import { notificationOutbox } from '../../db/schema.ts';

/** A message about no shipment (an estado de cuenta), written by the module it belongs to. */
export interface DirectMessage {
  topic: NotificationTopic;
  party: 'company' | 'customer';
  channel: NotificationChannel;
  address: string;
  subject: string;
  body: string;
  /** A public path the sent text ends with (the worker puts PUBLIC_URL before it); none when absent. */
  link?: string;
  /** A file an e-mail carries, kept with the message so every retry sends the same bytes. */
  attachment?: { name: string; content: Buffer };
  /** The same key writes one message: a retried request finds the first one instead. */
  idempotencyKey: string;
}

export interface QueuedMessage {
  id: number;
  /** False when the key already had its message (nothing new was written). */
  created: boolean;
  channel: string;
  address: string;
  subject: string;
}

/**
 * Puts a message in the outbox in the caller's transaction, so it exists exactly when what it
 * announces was committed; the worker sends it later with retries. A repeated key answers the
 * message it first wrote.
 */
export async function enqueueMessage(tx: Tx, message: DirectMessage, at: Date): Promise<QueuedMessage> {
  const [row] = await tx
    .insert(notificationOutbox)
    .values({
      shipmentId: null,
      eventId: null,
      topic: message.topic,
      channel: message.channel,
      party: message.party,
      address: message.address,
      subject: message.subject,
      body: message.body,
      link: message.link ?? '',
      attachmentName: message.attachment?.name ?? null,
      attachment: message.attachment?.content ?? null,
      idempotencyKey: message.idempotencyKey,
      nextAttemptAt: at,
      createdAt: at,
    })
    .onConflictDoNothing({ target: notificationOutbox.idempotencyKey })
    .returning({ id: notificationOutbox.id });
  const columns = {
    id: notificationOutbox.id,
    channel: notificationOutbox.channel,
    address: notificationOutbox.address,
    subject: notificationOutbox.subject,
  };
  const [found] = await tx.select(columns).from(notificationOutbox).where(eq(notificationOutbox.idempotencyKey, message.idempotencyKey));
  return { ...found!, created: row !== undefined };
}
