import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openEmbedded } from '../src/db/client.ts';
import { acquireDataDirLock } from '../src/db/lock.ts';
import { seedBase } from '../src/seed/base.ts';

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
  });
});
