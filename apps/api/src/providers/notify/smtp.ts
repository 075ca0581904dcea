import nodemailer from 'nodemailer';
import type { OutgoingMessage } from './types.ts';

/** E-mail over SMTP (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.pe:465) through nodemailer. */
export function smtpChannel(options: { url: string; from: string; timeoutMs: number }) {
  // The timeouts are transport options: beside the URL, not in createTransport's second argument
  // (message defaults, which nodemailer's own types since v8 tell apart).
  const transport = nodemailer.createTransport({
    url: options.url,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  return async (message: OutgoingMessage) => {
    await transport.sendMail({
      from: options.from,
      to: message.address,
      subject: message.subject,
      text: message.body,
      attachments: message.attachments?.map((a) => ({ filename: a.filename, content: a.content })),
      // The same key on a retried send: a receiving system can see it is the same message.
      messageId: `<${message.idempotencyKey.replace(/[^A-Za-z0-9.-]/g, '.')}@tramo>`,
      headers: { 'X-Tramo-Idempotency-Key': message.idempotencyKey },
    });
  };
}
