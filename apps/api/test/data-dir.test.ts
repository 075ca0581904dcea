import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openEmbedded } from '../src/db/client.ts';
import { acquireDataDirLock } from '../src/db/lock.ts';
import { DataDirOpenError, secureDataDir } from '../src/db/data-dir.ts';
import { seedBase } from '../src/seed/base.ts';
import { startServerProcess } from './server-process.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tramo-datadir-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function runScript(script: string, args: string[], env: Record<string, string>) {
  return spawnSync(tsx, [path.join(root, 'apps/api/src', script), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 90_000,
  });
}

async function branchNames(dataDir: string): Promise<string[]> {
  const db = await openEmbedded(path.join(dataDir, 'pgdata'));
  const r = await db.db.execute(sql`select name from branches order by name`);
  await db.close();
  return r.rows.map((row) => (row as { name: string }).name);
}

describe('embedded data directory', () => {
  it('a second server on a data directory in use exits non-zero with the reason', () => {
    const dataDir = path.join(tmp, 'locked');
    const release = acquireDataDirLock(dataDir);
    try {
      const res = runScript('main.ts', [], { DATA_DIR: dataDir, PORT: '0' });
      expect(res.status).not.toBe(0);
      expect(res.stderr).toContain('ya está en uso por otro proceso de Tramo');
    } finally {
      release();
    }
  });

  it('a lock left by a dead process is taken over', () => {
    const dataDir = path.join(tmp, 'stale');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'tramo.lock'), '999999');
    const release = acquireDataDirLock(dataDir);
    expect(fs.readFileSync(path.join(dataDir, 'tramo.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dataDir, 'tramo.lock'))).toBe(false);
  });

  it('backup then restore brings the data back; a bad file changes nothing', async () => {
    const dataDir = path.join(tmp, 'backup');
    const db = await openEmbedded(path.join(dataDir, 'pgdata'));
    await seedBase(db.db);
    await db.close();
    const file = path.join(tmp, 'respaldo.tar.gz');

    const backup = runScript('scripts/backup.ts', [file], { DATA_DIR: dataDir });
    expect(backup.status, backup.stderr).toBe(0);
    expect(fs.statSync(file).size).toBeGreaterThan(1000);

    const again = await openEmbedded(path.join(dataDir, 'pgdata'));
    await again.db.execute(sql`delete from branches where name = 'Piura'`);
    await again.close();
    expect(await branchNames(dataDir)).not.toContain('Piura');

    const restore = runScript('scripts/restore.ts', [file], { DATA_DIR: dataDir });
    expect(restore.status, restore.stderr).toBe(0);
    expect(await branchNames(dataDir)).toContain('Piura');

    const junk = path.join(tmp, 'junk.tar.gz');
    fs.writeFileSync(junk, 'not a backup');
    const bad = runScript('scripts/restore.ts', [junk], { DATA_DIR: dataDir });
    expect(bad.status).not.toBe(0);
    expect(await branchNames(dataDir)).toContain('Piura');

    const locked = acquireDataDirLock(dataDir);
    try {
      const refused = runScript('scripts/backup.ts', [file], { DATA_DIR: dataDir });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain('Detén Tramo antes de respaldar');
    } finally {
      locked();
    }
  }, 180_000); // three script starts (tsx, PGlite) and two opens of the database: a minute on a busy two-core machine

  /** Every file and directory under `dir` (itself included) that group or others may use, with its mode. */
  function openToOthers(dir: string): string[] {
    const open: string[] = [];
    const walk = (p: string) => {
      const mode = fs.lstatSync(p).mode & 0o777;
      if (mode & 0o077) open.push(`${path.relative(dir, p) || '.'} ${mode.toString(8)}`);
      if (fs.lstatSync(p).isDirectory()) for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    };
    walk(dir);
    return open;
  }
  const settingKeys = async (dataDir: string) => {
    const db = await openEmbedded(path.join(dataDir, 'pgdata'));
    const r = await db.db.execute(sql`select key from settings order by key`);
    await db.close();
    return r.rows.map((row) => (row as { key: string }).key);
  };
  // No secret from this machine's environment: the server must make its own key files.
  const ownKeys = { JWT_SECRET: '', SECRET_CODE_KEY: '' };

  it("a new data directory is its user's alone (issue 31, F1): 700, its files 600, and the signing secret in a key file, not in the database", async () => {
    const dataDir = path.join(tmp, 'fresh');
    const server = await startServerProcess({ DATA_DIR: dataDir, DEMO: '0', ADMIN_PASSWORD: 'clave-de-prueba-1', ...ownKeys });
    try {
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'ADMIN', password: 'clave-de-prueba-1' }),
      });
      expect(login.status).toBe(200);
    } finally {
      await server.stop('SIGTERM');
    }
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, 'jwt-secret.key')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dataDir, 'secret-code.key')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.join(dataDir, 'pgdata')).length).toBeGreaterThan(5);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(await settingKeys(dataDir)).not.toContain('jwt_secret');
  }, 120_000);

  it("a data directory an older Tramo left open (755, files 644) is the server's own user's: closed once to 700/600 with a warning, and the server starts", async () => {
    const dataDir = path.join(tmp, 'older');
    fs.mkdirSync(path.join(dataDir, 'billing'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'billing', 'notes.txt'), 'left by an older version', { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'billing', 'notes.txt'), 0o644);
    fs.chmodSync(path.join(dataDir, 'billing'), 0o755);
    fs.chmodSync(dataDir, 0o755);
    expect(openToOthers(dataDir).length).toBe(3);

    const server = await startServerProcess({ DATA_DIR: dataDir, DEMO: '0', ADMIN_PASSWORD: 'clave-de-prueba-1', ...ownKeys });
    try {
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
      expect(server.output()).toContain(`La carpeta de datos ${dataDir} estaba abierta a otros usuarios (permisos 755)`);
      expect(server.output()).toContain('se cerró (700, sus archivos 600)');
    } finally {
      await server.stop('SIGTERM');
    }
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, 'billing', 'notes.txt')).mode & 0o777).toBe(0o600);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 120_000);

  it("refuses a data directory open to others that is another user's, saying the chmod to run, and changes nothing in it", () => {
    const dataDir = path.join(tmp, 'theirs');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'x', { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'notes.txt'), 0o644);
    const warnings: string[] = [];
    // As run by a user who does not own it (uid + 1): Tramo may not close it for its owner.
    const someoneElse = fs.statSync(dataDir).uid + 1;
    expect(() => secureDataDir(dataDir, (m) => warnings.push(m), someoneElse)).toThrow(DataDirOpenError);
    expect(() => secureDataDir(dataDir, (m) => warnings.push(m), someoneElse)).toThrow(
      `La carpeta de datos ${dataDir} está abierta a otros usuarios (permisos 755)`,
    );
    expect(() => secureDataDir(dataDir, (m) => warnings.push(m), someoneElse)).toThrow(`chmod -R go-rwx '${dataDir}'`);
    expect(warnings).toEqual([]);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(dataDir, 'notes.txt')).mode & 0o777).toBe(0o644);

    // Its owner (the uid it belongs to) gets it closed, with the warning.
    secureDataDir(dataDir, (m) => warnings.push(m), fs.statSync(dataDir).uid);
    expect(warnings).toHaveLength(1);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, 'notes.txt')).mode & 0o777).toBe(0o600);
  });

  it('an install that kept the signing secret in the database moves it to the key file on start: its sessions survive, its files are closed', async () => {
    const dataDir = path.join(tmp, 'legacy');
    const legacySecret = 'a-signing-secret-an-older-version-kept-in-settings';
    const db = await openEmbedded(path.join(dataDir, 'pgdata'));
    await seedBase(db.db);
    const older = await buildApp({
      database: db,
      config: { ...loadConfig({}), dataDir, jwtSecret: legacySecret, secretCodeKey: 'data-dir-test-secret-code-key' },
    });
    const login = await older.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'ADMIN', password: 'admin123' } });
    expect(login.statusCode).toBe(200);
    const token = login.json().token as string;
    await older.close();
    // Where an older version kept it (this build deletes the row on start, so it is put back).
    await db.db.execute(sql`insert into settings (key, value) values ('jwt_secret', ${legacySecret})`);
    await db.close();
    // An older version's files, made by PGlite as 666 inside a directory the administrator closed.
    fs.chmodSync(dataDir, 0o700);
    expect(openToOthers(dataDir).length).toBeGreaterThan(100);

    const server = await startServerProcess({ DATA_DIR: dataDir, ...ownKeys, SECRET_CODE_KEY: 'data-dir-test-secret-code-key' });
    try {
      const me = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect((await me.json()).username).toBe('ADMIN');
    } finally {
      await server.stop('SIGTERM');
    }
    expect(fs.readFileSync(path.join(dataDir, 'jwt-secret.key'), 'utf8')).toBe(legacySecret);
    expect(fs.statSync(path.join(dataDir, 'jwt-secret.key')).mode & 0o777).toBe(0o600);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(await settingKeys(dataDir)).not.toContain('jwt_secret');
  }, 120_000);
});
