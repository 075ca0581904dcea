import { z } from 'zod';

/**
 * The customer's side (issue 18): what anybody holding a shipment code may read, with no login.
 * Names are masked, and no document number, price, secret, user name or internal note is ever part
 * of the answer: its schema lists every key, and the route serializes with it.
 */

export const PUBLIC_TRACKING_MESSAGES = {
  notFound: 'No encontramos ese envío.',
  tooManyRequests: 'Demasiadas consultas desde tu conexión. Espera un minuto y vuelve a intentarlo.',
  documentFormat: 'Ingresa los 3 últimos dígitos del documento del destinatario.',
  documentWrong: 'Los dígitos no coinciden con el documento del destinatario.',
} as const;

/**
 * Lookups per client address and window: plenty for a person, too few to walk the code space. A
 * wrong guess of the recipient's document digits counts as `wrongDocumentWeight` lookups, so an
 * address gets a handful of guesses a minute at the thousand possible digits.
 */
export const PUBLIC_TRACKING_LIMIT = { maxPerWindow: 30, windowSeconds: 60, wrongDocumentWeight: 5 } as const;

/** The `doc` of a public lookup: the last 3 digits of the recipient's document. */
export const documentDigitsSchema = z
  .string()
  .regex(/^\d{3}$/, PUBLIC_TRACKING_MESSAGES.documentFormat)
  .optional();

/** 'Luis Mendoza' → 'L*** M******': the initial of every word, the rest starred (letters counted, not bytes). */
export function maskName(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      const chars = Array.from(word);
      return chars[0]! + '*'.repeat(chars.length - 1);
    })
    .join(' ');
}

/**
 * The milestones a customer sees (issue #38): statuses (registered, departed, arrived, returned),
 * the delivery and a cancellation. Edits, secret and description changes, incidents and the free
 * text staff type stay internal; a staff event shows only when marked 'visible para el cliente'.
 */
const MILESTONE_KINDS = new Set(['status', 'delivery', 'cancel']);

export interface HistoryEventLike {
  kind: string;
  name: string;
  statusTo: string | null;
  at: string;
  visibleToCustomer: boolean;
}

/**
 * The public line of one history event, or null when it is not for the customer. A status change
 * reads as its new status and a delivery as 'Entregado' (its internal name carries the receiver's
 * document); a staff event marked visible keeps the name staff gave it.
 */
export function publicEventName(event: Pick<HistoryEventLike, 'kind' | 'name' | 'statusTo' | 'visibleToCustomer'>): string | null {
  if (event.kind === 'event') return event.visibleToCustomer ? event.name : null;
  if (!MILESTONE_KINDS.has(event.kind)) return null;
  if (event.kind === 'delivery') return 'Entregado';
  if (event.kind === 'cancel') return 'Anulado';
  return event.statusTo ?? event.name;
}

/** What happens next, in the customer's words, for a status; null once the shipment is closed. */
export function nextStep(status: string, destination: string): string | null {
  switch (status) {
    case 'Creado':
      return `Registrado. Saldrá en el próximo transporte hacia ${destination}.`;
    case 'En tránsito':
      return `En camino a la agencia de ${destination}.`;
    case 'En agencia':
      return `Listo para recoger en la agencia de ${destination}. Lleva tu documento de identidad.`;
    default:
      return null;
  }
}

const place = z.object({ name: z.string(), city: z.string().nullable() });

/**
 * GET /public/tracking/{code}: exactly these keys, nothing else. Codes are sequential, so a code
 * alone shows only the status (issue 31, F10); the rest needs the link's key (`k`, on the label's
 * QR and in the messages) or the last 3 digits of the recipient's document (`doc`).
 */
export const publicTrackingSchema = z.object({
  code: z.string(),
  status: z.string(),
  /** The chip colour of the status (the staff screens' rule), so the public page carries no rules. */
  tone: z.enum(['delivered', 'atAgency', 'inTransit', 'returned', 'cancelled', 'created']),
  /** false: the status only; the page asks for the document digits to show the rest. */
  verified: z.boolean(),
  origin: place.optional(),
  destination: place.optional(),
  senderName: z.string().optional(),
  recipientName: z.string().optional(),
  registeredAt: z.string().optional(),
  deliveredAt: z.string().nullable().optional(),
  nextStep: z.string().nullable().optional(),
  events: z.array(z.object({ name: z.string(), at: z.string() })).optional(),
  /** Pago en destino still owed (issue 33: 'Pago en destino: S/ 45.00'), soles; null when nothing is due there. */
  dueAtDestination: z.number().nullable().optional(),
});
export type PublicTracking = z.infer<typeof publicTrackingSchema>;

/** The path of a shipment's public page; the label's QR and the messages carry `PUBLIC_URL` + this with the link's key. */
export const publicTrackingPath = (code: string, key?: string) =>
  `/seguimiento/${encodeURIComponent(code)}${key ? `?k=${encodeURIComponent(key)}` : ''}`;

/**
 * What a camera read of a label means as a code: the barcode carries the shipment code itself, the
 * QR the public page's address (any host: `PUBLIC_URL` differs between installs), whose last path
 * segment is the code. Anything else is handed on as read, for the caller to judge.
 */
export function codeFromScan(text: string): string {
  const page = /\/seguimiento\/([^/?#]+)\/?(?:[?#].*)?$/.exec(text.trim());
  if (!page) return text.trim();
  try {
    return decodeURIComponent(page[1]!);
  } catch {
    return text.trim();
  }
}
