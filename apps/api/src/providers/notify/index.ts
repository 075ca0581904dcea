import type { Config } from '../../config.ts';
import { smtpChannel } from './smtp.ts';
import type { NotifyProvider, OutgoingMessage } from './types.ts';
import { whatsappChannel } from './whatsapp.ts';

export type { NotifyProvider, OutgoingMessage } from './types.ts';

type Send = (message: OutgoingMessage) => Promise<void>;

/**
 * The configured channels: e-mail when SMTP_URL is set, WhatsApp when WHATSAPP_TOKEN and
 * WHATSAPP_PHONE_NUMBER_ID are; with neither, `outbox-only` (every message recorded, none sent).
 */
export function createNotifier(config: Config): NotifyProvider {
  const channels: Partial<Record<OutgoingMessage['channel'], Send>> = {};
  if (config.notify.smtpUrl)
    channels.email = smtpChannel({ url: config.notify.smtpUrl, from: config.notify.smtpFrom, timeoutMs: config.notify.timeoutMs });
  if (config.notify.whatsappToken && config.notify.whatsappPhoneNumberId) {
    channels.whatsapp = whatsappChannel({
      baseUrl: config.notify.whatsappApiUrl,
      token: config.notify.whatsappToken,
      phoneNumberId: config.notify.whatsappPhoneNumberId,
      timeoutMs: config.notify.timeoutMs,
    });
  }
  const names = Object.keys(channels);
  return {
    name: names.length ? names.join('+') : 'outbox-only',
    handles: (channel) => channels[channel] !== undefined,
    send: async (message) => {
      const send = channels[message.channel];
      if (!send) throw new Error(`Canal ${message.channel} no configurado`);
      await send(message);
    },
  };
}
