import fs from 'node:fs';
import path from 'node:path';

export class DataDirOpenError extends Error {}

/**
 * The embedded engine's directory holds the whole database and the key files (issue 31, F1): only
 * the user Tramo runs as may read it. PGlite creates its files with mode 0666 whatever the umask
 * (measured: 968 of 1,000 files of a new database), so what protects them is a directory that
 * nobody else may enter. The server sets its umask to 077 first, so the directory it creates is
 * 0700; one open to group or others is refused (an older version made it so, or an administrator
 * opened it, and its files may already have been read), and what is inside is closed as well.
 */
export function secureDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dataDir).mode & 0o777;
  if (mode & 0o077) {
    throw new DataDirOpenError(
      `La carpeta de datos ${dataDir} está abierta a otros usuarios (permisos ${mode.toString(8)}) y guarda la base de datos y sus claves. ` +
        `Ciérrala y vuelve a iniciar Tramo: chmod -R go-rwx '${dataDir}'`,
    );
  }
  closeEntries(dataDir);
}

/** Takes group and others' permissions off everything under `dir` (symbolic links are left alone). */
function closeEntries(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    const file = path.join(dir, entry.name);
    const mode = fs.statSync(file).mode & 0o777;
    if (mode & 0o077) fs.chmodSync(file, mode & 0o700);
    if (entry.isDirectory()) closeEntries(file);
  }
}
