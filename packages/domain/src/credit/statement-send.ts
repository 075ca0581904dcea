import { z } from 'zod';
import { dayText } from '../dates.ts';
import { centsToString, toCents } from '../money.ts';
import { statementQuerySchema } from './answers.ts';

/**
 * 'Enviar' the estado de cuenta (issue 35, item 5): to the account's statement contact, by e-mail
 * with the PDF attached or by WhatsApp with a signed link that opens the PDF without a session and
 * expires. Both go through the notifications outbox.
 */
export const STATEMENT_CHANNELS = ['email', 'whatsapp'] as const;
export type StatementChannel = (typeof STATEMENT_CHANNELS)[number];
export const STATEMENT_CHANNEL_LABELS: Record<StatementChannel, string> = { email: 'Correo con el PDF', whatsapp: 'WhatsApp con enlace' };

/** How long a WhatsApp link opens the statement: long enough to read it on the next working days. */
export const STATEMENT_LINK_DAYS = 7;

export const STATEMENT_SEND_MESSAGES = {
  noEmail: 'La cuenta no tiene correo del contacto para enviar el estado de cuenta.',
  noPhone: 'La cuenta no tiene teléfono del contacto para enviar el estado de cuenta por WhatsApp.',
  channel: 'Canal inválido: correo o WhatsApp.',
  keyReused: 'Esta clave de envío ya se usó para otro estado de cuenta.',
  linkInvalid: 'El enlace del estado de cuenta venció o no es válido. Pida uno nuevo a Tramo.',
  queued: 'Estado de cuenta en cola para enviarse',
} as const;

export const statementSendSchema = statementQuerySchema.extend({
  channel: z.enum(STATEMENT_CHANNELS, { error: STATEMENT_SEND_MESSAGES.channel }),
});
export type StatementSendValues = z.infer<typeof statementSendSchema>;

export const statementSendAnswerSchema = z.object({
  notificationId: z.number(),
  channel: z.enum(STATEMENT_CHANNELS),
  address: z.string(),
  /** False when the same Idempotency-Key had already sent it: nothing new was queued. */
  queued: z.boolean(),
});
export type StatementSendAnswer = z.infer<typeof statementSendAnswerSchema>;

/** What the signature covers: the account, the period and the expiry, so no part can be changed. */
export const statementLinkPayload = (customerId: number, from: string, to: string, expires: number) =>
  `credit-statement:${customerId}:${from}:${to}:${expires}`;

/** The public path of a signed statement (under the API's /api), with its expiry (epoch ms) and key. */
export const statementLinkPath = (customerId: number, from: string, to: string, expires: number, key: string) =>
  `/api/public/statements/${customerId}/estado-de-cuenta.pdf?${new URLSearchParams({ from, to, exp: String(expires), k: key }).toString()}`;

/** The message's subject and text; a WhatsApp text ends with the link, which the outbox appends. */
export function statementMessage(
  s: { customerName: string; docNumber: string; from: string; to: string; closing: number },
  contactName: string,
  channel: StatementChannel,
  linkUntil: string,
): { subject: string; body: string } {
  const period = `del ${dayText(s.from)} al ${dayText(s.to)}`;
  const closing = `S/ ${centsToString(toCents(s.closing))}`;
  const subject = `Estado de cuenta ${period} - ${s.customerName}`;
  if (channel === 'email')
    return {
      subject,
      body: `Estimado(a) ${contactName}:\n\nAdjuntamos el estado de cuenta de ${s.customerName} (RUC ${s.docNumber}) ${period}. Saldo final: ${closing}.\n\nTramo - Cobranzas`,
    };
  return {
    subject,
    body: `Tramo: estado de cuenta de ${s.customerName} ${period}, saldo final ${closing}. Descárguelo hasta el ${dayText(linkUntil)}:`,
  };
}
