// npm run check:ledger: the ledger check ('Conciliación', DESIGN.md 5b) over the whole database the
// server uses (DATABASE_URL, else the embedded one in DATA_DIR): every violation with its record,
// then one summary line; exits 1 when there is a violation. The embedded database is single-process
// (see db/lock.ts), so Tramo must be stopped to check it; a PostgreSQL server can be checked live.
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openEmbedded, openPostgres, type Database } from '../db/client.ts';
import { acquireDataDirLock, DataDirLockedError } from '../db/lock.ts';
import { reconcile } from '../modules/reconciliation/index.ts';

const config = loadConfig();
let release = () => {};
let database: Database;
try {
  if (config.databaseUrl) database = await openPostgres(config.databaseUrl);
  else {
    release = acquireDataDirLock(config.dataDir);
    database = await openEmbedded(path.join(config.dataDir, 'pgdata'));
  }
} catch (err) {
  if (err instanceof DataDirLockedError) {
    console.error(`${err.message}\nDetén Tramo antes de revisar la base.`);
    process.exit(1);
  }
  throw err;
}

let result;
try {
  result = await reconcile(database.db, new Date());
} finally {
  await database.close();
  release();
}

for (const check of result.checks) {
  console.log(`${check.count === 0 ? 'OK   ' : 'FALLA'} ${check.name}: ${check.count}`);
  for (const v of check.violations) {
    const values = Object.entries(v.values)
      .map(([key, value]) => `${key}=${value === null ? '—' : String(value)}`)
      .join(' ');
    console.log(`      ${v.table} ${v.id}${v.code ? ` (${v.code})` : ''}: ${values}`);
  }
  if (check.count > check.violations.length) console.log(`      … y ${check.count - check.violations.length} más`);
}
const failed = result.checks.filter((c) => c.count > 0).length;
console.log(
  result.ok
    ? `Conciliación: sin violaciones en ${result.checks.length} comprobaciones.`
    : `Conciliación: ${result.violations} ${result.violations === 1 ? 'violación' : 'violaciones'} en ${failed} de ${result.checks.length} comprobaciones.`,
);
process.exit(result.ok ? 0 : 1);
