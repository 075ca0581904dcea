// npm run backup [FILE]: a restorable copy of the embedded database (a gzipped tarball of its data
// directory). Tramo must be stopped: the data directory is single-process (see db/lock.ts).
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openEmbedded } from '../db/client.ts';
import { acquireDataDirLock, DataDirLockedError } from '../db/lock.ts';

const config = loadConfig();
if (config.databaseUrl) {
  console.error('Con DATABASE_URL la base es un servidor PostgreSQL: respáldala con pg_dump.');
  process.exit(1);
}
const pgdata = path.join(config.dataDir, 'pgdata');
if (!fs.existsSync(pgdata)) {
  console.error(`No hay base de datos en ${pgdata}.`);
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
const target = path.resolve(process.argv[2] ?? path.join('backups', `tramo-${stamp}.tar.gz`));

let release: () => void;
try {
  release = acquireDataDirLock(config.dataDir);
} catch (err) {
  if (err instanceof DataDirLockedError) {
    console.error(`${err.message}\nDetén Tramo antes de respaldar.`);
    process.exit(1);
  }
  throw err;
}
try {
  const database = await openEmbedded(pgdata);
  const dump = await database.pglite!.dumpDataDir('gzip');
  await database.close();
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, Buffer.from(await dump.arrayBuffer()));
  console.log(`Respaldo escrito en ${target} (${Math.round(dump.size / 1024)} KiB).`);
} finally {
  release();
}
