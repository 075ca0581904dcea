import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { settings } from '../db/schema.ts';

export const JWT_SECRET_FILE = 'jwt-secret.key';
/** Where versions before issue 31 kept a generated secret: moved out on start. */
const LEGACY_SETTING = 'jwt_secret';

/**
 * The token signing secret (issue 31, F1): JWT_SECRET, else `<data dir>/jwt-secret.key` (mode
 * 600), created on first use. Never in the database: anyone who read it there (a backup, a
 * database file readable by others, a report user) could sign an administrator's token. A secret
 * an older version kept in `settings` is moved to the file, so sessions survive the upgrade, and
 * then deleted from the database (also when JWT_SECRET now overrides it).
 */
export async function loadSigningSecret(db: Db, config: Pick<Config, 'jwtSecret' | 'dataDir'>): Promise<string> {
  const [legacy] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, LEGACY_SETTING));
  let secret = config.jwtSecret;
  if (!secret) {
    const file = path.join(config.dataDir, JWT_SECRET_FILE);
    createKeyFile(file, legacy?.value ?? randomBytes(48).toString('base64url'));
    secret = fs.readFileSync(file, 'utf8').trim();
    if (secret.length < 32) throw new Error(`La clave de ${file} es demasiado corta: bórrela (las sesiones abiertas se cerrarán).`);
  }
  // Only once the file holds it: a process stopped in between finds the row again on its next start.
  if (legacy) await db.delete(settings).where(eq(settings.key, LEGACY_SETTING));
  return secret;
}

/**
 * Writes `value` to `file` (mode 600) unless the file exists. Written aside and then linked into
 * place, so of processes starting together one creates it and none ever reads it half-written.
 */
function createKeyFile(file: string, value: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(draft, value, { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(draft, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}
