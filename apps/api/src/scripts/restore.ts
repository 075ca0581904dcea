// npm run restore FILE: replaces the embedded database with a backup made by `npm run backup`.
// The current data directory is kept aside (pgdata.before-restore-…) rather than deleted.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openEmbedded } from '../db/client.ts';
import { acquireDataDirLock, DataDirLockedError } from '../db/lock.ts';

const config = loadConfig();
const file = process.argv[2];
if (!file || !fs.existsSync(file)) {
  console.error('Uso: npm run restore ARCHIVO (un respaldo hecho con npm run backup).');
  process.exit(1);
}
if (config.databaseUrl) {
  console.error('Con DATABASE_URL la base es un servidor PostgreSQL: restáurala con pg_restore/psql.');
  process.exit(1);
}

let release: () => void;
try {
  release = acquireDataDirLock(config.dataDir);
} catch (err) {
  if (err instanceof DataDirLockedError) {
    console.error(`${err.message}\nDetén Tramo antes de restaurar.`);
    process.exit(1);
  }
  throw err;
}
try {
  const pgdata = path.join(config.dataDir, 'pgdata');
  let keptAside: string | null = null;
  if (fs.existsSync(pgdata)) {
    keptAside = `${pgdata}.before-restore-${Date.now()}`;
    fs.renameSync(pgdata, keptAside);
  }
  try {
    const blob = new Blob([fs.readFileSync(file)]);
    // Opening applies any migration newer than the backup, so an old backup comes back current.
    const database = await openEmbedded(pgdata, blob);
    await database.close();
  } catch (err) {
    fs.rmSync(pgdata, { recursive: true, force: true });
    if (keptAside) fs.renameSync(keptAside, pgdata);
    console.error('El archivo no es un respaldo válido de Tramo; la base de datos no cambió.');
    throw err;
  }
  console.log(`Base de datos restaurada desde ${file}.${keptAside ? ` La anterior quedó en ${keptAside}.` : ''}`);
} finally {
  release();
}
