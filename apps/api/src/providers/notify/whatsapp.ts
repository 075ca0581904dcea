import type { OutgoingMessage } from './types.ts';

/**
 * WhatsApp Cloud API: POST {base}/{phone number id}/messages with the access token. Peruvian
 * numbers without a country code get +51. A text message (inside the 24 h window or with an
 * approved template configured on the account).
 */
export function whatsappChannel(options: { baseUrl: string; token: string; phoneNumberId: string; timeoutMs: number }) {
  return async (message: OutgoingMessage) => {
    const digits = message.address.replace(/\D/g, '');
    const to = digits.length === 9 ? `51${digits}` : digits;
    const res = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(options.phoneNumberId)}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json', 'x-idempotency-key': message.idempotencyKey },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        type: 'text',
        text: { preview_url: true, body: message.body },
      }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    if (!res.ok) {
      // The API's own error text, never the token.
      const detail = await res.text().catch(() => '');
      throw new Error(`WhatsApp respondió ${res.status}: ${detail.slice(0, 200)}`);
    }
  };
}
