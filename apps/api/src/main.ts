import path from 'node:path';
import { loadConfig } from './config.ts';
import { openEmbedded, openPostgres, type Database } from './db/client.ts';
import { acquireDataDirLock, DataDirLockedError } from './db/lock.ts';
import { DataDirOpenError, secureDataDir } from './db/data-dir.ts';
import { seedIfEmpty } from './seed/index.ts';
import { seedDemoDocuments } from './seed/documents.ts';
import { buildApp } from './app.ts';
import { loggableError } from './plugins/logging.ts';
import { startNotificationWorker } from './modules/notifications/index.ts';
import { startFleetExpiryAlerts } from './modules/fleet/index.ts';

// Whatever this process creates (the data directory, key files, PGlite's directories) is its
// user's alone (issue 31, F1): the database and the keys must not be readable by other local users.
process.umask(0o077);
/** A configuration that cannot work (half a Nubefact setup, a PUBLIC_URL that is no URL) stops the start with its message alone. */
function configOrExit() {
  try {
    return loadConfig();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}

const config = configOrExit();
let releaseLock: (() => void) | null = null;

async function openDatabase(): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.databaseReadUrl);
  releaseLock = acquireDataDirLock(config.dataDir);
  secureDataDir(config.dataDir);
  const database = await openEmbedded(path.join(config.dataDir, 'pgdata'));
  // PGlite writes a new database's files with mode 666 whatever the umask: closed once it is open.
  secureDataDir(config.dataDir);
  return database;
}

async function main() {
  const started = performance.now();
  let database: Database;
  try {
    database = await openDatabase();
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof DataDirOpenError) {
      console.error(err.message);
      releaseLock?.();
      process.exit(1);
    }
    throw err;
  }
  await seedIfEmpty(database.db, config, (msg) => console.log(msg));
  // Demo comprobantes go through the billing service and the sandbox, which need an app: after the seed.
  try {
    await seedDemoDocuments(database, config, (msg) => console.log(msg));
  } catch (err) {
    console.warn('No se pudieron emitir los comprobantes de demostración:', loggableError(err));
  }
  const app = await buildApp({
    database,
    config,
    serveWeb: true,
    log: { level: config.logLevel },
  });

  // Notifications (issue 18): the outbox's worker runs in the server process.
  startNotificationWorker(app, config.notify.pollMs);
  startFleetExpiryAlerts(app, config.notify.pollMs);

  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: cerrando`);
    await app.close();
    await database.close();
    releaseLock?.();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('exit', () => releaseLock?.());

  // The address it really listens on (PORT=0 takes a free port).
  const address = await app.listen({ port: config.port, host: config.host });
  const ms = Math.round(performance.now() - started);
  console.log(`Tramo listo en ${address} (${database.kind}, ${ms} ms)`);
}

main().catch((err) => {
  // A failed seed or migration is a database error whose parameters may be password hashes.
  console.error(loggableError(err));
  releaseLock?.();
  process.exit(1);
});
