import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { publicTrackingPath } from '@tramo/domain';

/**
 * Keys of the public tracking links (issue 31, F10). Shipment codes are sequential, so a code
 * alone would let anyone walk every shipment's route and times; the label's QR and the messages'
 * links carry `k`, an HMAC of the code with a server key, which only those links hold. About 10
 * base64url characters (60 bits): never guessed at 30 lookups a minute.
 */
export interface TrackingLinks {
  key(code: string): string;
  verify(code: string, key: string | undefined): boolean;
  /** `/seguimiento/{code}?k=…`: what the QR and the messages point at (after PUBLIC_URL). */
  path(code: string): string;
}

const KEY_LENGTH = 10;

/** Derived from the secret-code key (lib/secret-codes.ts), so no new secret to keep or back up. */
export function trackingLinks(secretCodeKey: Buffer): TrackingLinks {
  const linkKey = createSecretKey(createHmac('sha256', secretCodeKey).update('tramo tracking links').digest());
  const key = (code: string) => createHmac('sha256', linkKey).update(code, 'utf8').digest('base64url').slice(0, KEY_LENGTH);
  return {
    key,
    verify(code, given) {
      if (!given) return false;
      const expected = Buffer.from(key(code));
      const actual = Buffer.from(given);
      return expected.length === actual.length && timingSafeEqual(expected, actual);
    },
    path: (code) => publicTrackingPath(code, key(code)),
  };
}
