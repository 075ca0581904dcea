import { z } from 'zod';
import { pageSchema } from './answers.ts';

/** Notifications to the sender and the recipient (issue 18), through a transactional outbox. */

export const SHIPMENT_NOTIFICATION_TOPICS = ['registered', 'departed', 'arrived', 'delivered'] as const;
export type ShipmentNotificationTopic = (typeof SHIPMENT_NOTIFICATION_TOPICS)[number];
/**
 * 'fleet_expiry': a vehicle or driver document about to expire (issue 36), sent to the company's fleet contact.
 * 'credit_statement': a credit account's estado de cuenta (issue 35), sent to the account's statement contact.
 */
export const NOTIFICATION_TOPICS = [...SHIPMENT_NOTIFICATION_TOPICS, 'fleet_expiry', 'credit_statement'] as const;
export type NotificationTopic = (typeof NOTIFICATION_TOPICS)[number];
export const NOTIFICATION_CHANNELS = ['email', 'whatsapp'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
/** 'registrado': no channel configured for it (outbox-only), recorded and never sent. */
export const NOTIFICATION_STATUSES = ['pendiente', 'enviado', 'registrado', 'fallido'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export const NOTIFICATION_TOPIC_LABELS: Record<NotificationTopic, string> = {
  registered: 'Registrado',
  departed: 'Salió',
  arrived: 'Llegó a destino',
  delivered: 'Entregado',
  fleet_expiry: 'Documento por vencer',
  credit_statement: 'Estado de cuenta',
};
export const NOTIFICATION_CHANNEL_LABELS: Record<NotificationChannel, string> = { email: 'Correo', whatsapp: 'WhatsApp' };

/** Attempts before a message is 'fallido', and the wait before each retry (30 s, 1 min, 2 min, 4 min…). */
export const NOTIFICATION_RETRY = { maxAttempts: 5, firstDelayMs: 30_000 } as const;
export const notificationRetryDelayMs = (attempts: number) => NOTIFICATION_RETRY.firstDelayMs * 2 ** Math.max(0, attempts - 1);

/**
 * Which notification a history event announces, by the status it reaches (so the trips' departure
 * and arrival events notify whatever kind they are written with); null for every other event.
 */
export function notificationTopic(event: { kind: string; statusFrom?: string | null; statusTo?: string | null }): ShipmentNotificationTopic | null {
  if (!event.statusTo || event.statusFrom === event.statusTo || event.kind === 'cancel') return null;
  if (event.statusTo === 'Creado') return event.statusFrom ? null : 'registered';
  if (event.statusTo === 'En tránsito') return 'departed';
  if (event.statusTo === 'En agencia') return 'arrived';
  if (event.statusTo === 'Entregado') return 'delivered';
  return null;
}

/** The short Spanish message; the tracking link goes after it. */
export function notificationText(
  topic: ShipmentNotificationTopic,
  s: { code: string; origin: string; destination: string },
): { subject: string; body: string } {
  const body = {
    registered: `Tramo: registramos tu envío ${s.code} de ${s.origin} a ${s.destination}.`,
    departed: `Tramo: tu envío ${s.code} salió de ${s.origin} hacia ${s.destination}.`,
    arrived: `Tramo: tu envío ${s.code} llegó a la agencia de ${s.destination}. Puede recogerse con documento de identidad.`,
    delivered: `Tramo: tu envío ${s.code} fue entregado.`,
  }[topic];
  return { subject: `Envío ${s.code}: ${NOTIFICATION_TOPIC_LABELS[topic].toLowerCase()}`, body };
}

export const notificationListQuerySchema = z.object({
  status: z.enum(NOTIFICATION_STATUSES, { error: 'Estado inválido' }).optional(),
  channel: z.enum(NOTIFICATION_CHANNELS, { error: 'Canal inválido' }).optional(),
  page: z.coerce.number({ error: 'Página inválida' }).int('Página inválida').min(1, 'Página inválida').max(100_000, 'Página inválida').default(1),
  pageSize: z.coerce.number({ error: 'Tamaño inválido' }).int('Tamaño inválido').min(1, 'Tamaño inválido').max(100, 'Tamaño inválido').default(25),
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

export const notificationSchema = z.object({
  id: z.number(),
  /** Null for a message about no shipment (a fleet document's expiry alert). */
  shipmentId: z.number().nullable(),
  shipmentCode: z.string().nullable(),
  topic: z.enum(NOTIFICATION_TOPICS),
  channel: z.enum(NOTIFICATION_CHANNELS),
  /** 'company': the fleet contact of FLEET_ALERT_EMAIL / FLEET_ALERT_WHATSAPP; 'customer': a credit account's statement contact. */
  party: z.enum(['sender', 'recipient', 'company', 'customer']),
  address: z.string(),
  subject: z.string(),
  body: z.string(),
  link: z.string(),
  status: z.enum(NOTIFICATION_STATUSES),
  attempts: z.number(),
  nextAttemptAt: z.string(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationPageSchema = pageSchema(notificationSchema);

export const NOTIFICATION_MESSAGES = {
  notFound: 'Notificación no encontrada.',
  resent: 'Notificación en cola para reenviarse.',
} as const;
