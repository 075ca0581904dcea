import fs from 'node:fs';
import path from 'node:path';
import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config.ts';
import { verifyPassword } from './passwords.ts';

/**
 * Shipment secret codes (DESIGN.md section 5). A 4–12 character code falls to an offline search
 * whatever a slow KDF costs, so the stored value is an HMAC-SHA-256 keyed by a secret that is not
 * in the database (SECRET_CODE_KEY, else a key file in the data directory): a copy of the database
 * alone reveals nothing. Online guessing is stopped by the delivery lock. Codes stored by older
 * versions as argon2 hashes still verify, and are rewritten as HMACs on their first verification.
 */
export interface SecretCodes {
  hash(code: string): string;
  /** `rehash` is set when the stored value is a legacy argon2 hash that matched: store it instead. */
  verify(stored: string, code: string): Promise<{ ok: boolean; rehash?: string }>;
}

const PREFIX = 'hmac-sha256$';
export const SECRET_CODE_KEY_FILE = 'secret-code.key';

/** SECRET_CODE_KEY, else `<data dir>/secret-code.key`, created (32 random bytes, mode 600) on first use. */
export function loadSecretCodeKey(config: Pick<Config, 'secretCodeKey' | 'dataDir'>): Buffer {
  if (config.secretCodeKey) return Buffer.from(config.secretCodeKey, 'utf8');
  const file = path.join(config.dataDir, SECRET_CODE_KEY_FILE);
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx': of two processes starting together on one data directory, one writes and both read it.
    fs.writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const key = fs.readFileSync(file, 'utf8').trim();
  if (key.length < 16) throw new Error(`La clave de ${file} es demasiado corta: bórrela solo si no hay envíos con clave secreta.`);
  return Buffer.from(key, 'utf8');
}

export function secretCodes(key: Buffer): SecretCodes {
  // One key object for the process: given the raw bytes, every HMAC would build its own.
  const keyObject = createSecretKey(key);
  const hash = (code: string) => PREFIX + createHmac('sha256', keyObject).update(code, 'utf8').digest('base64url');
  return {
    hash,
    async verify(stored, code) {
      if (stored.startsWith(PREFIX)) {
        const expected = Buffer.from(stored);
        const actual = Buffer.from(hash(code));
        return { ok: expected.length === actual.length && timingSafeEqual(expected, actual) };
      }
      const ok = await verifyPassword(stored, code);
      return ok ? { ok, rehash: hash(code) } : { ok };
    },
  };
}
