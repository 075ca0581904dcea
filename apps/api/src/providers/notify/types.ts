/** One message of the outbox as a channel sends it. */
export interface OutgoingMessage {
  channel: 'email' | 'whatsapp';
  address: string;
  subject: string;
  body: string;
  /** The outbox row's key: the channel passes it on so a receiver can drop a repeat. */
  idempotencyKey: string;
  /** Files an e-mail carries (an estado de cuenta's PDF); WhatsApp messages carry a link in the body instead. */
  attachments?: { filename: string; content: Buffer }[];
}

/**
 * Notification channels (issue 18): `send` resolves once the channel accepted the message and
 * throws otherwise (the worker retries). `handles` says whether a real channel is configured for
 * that kind of address; when none is, the outbox only records the message (`outbox-only`).
 */
export interface NotifyProvider {
  readonly name: string;
  handles(channel: OutgoingMessage['channel']): boolean;
  send(message: OutgoingMessage): Promise<void>;
}
