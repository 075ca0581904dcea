import fs from 'node:fs';
import path from 'node:path';

export class DataDirOpenError extends Error {}

/**
 * The embedded engine's directory holds the whole database and the key files (issue 31, F1): only
 * the user Tramo runs as may read it. PGlite creates its files with mode 0666 whatever the umask
 * (measured: 968 of 1,000 files of a new database), so what protects them is a directory that
 * nobody else may enter. The server sets its umask to 077 first, so the directory it creates is
 * 0700. One open to group or others is what an older Tramo left (it made the directory 0755): when
 * it is the server's own user's, it is closed once (0700, its files 0600) with a warning, since
 * refusing would stop every upgraded install; one that belongs to someone else, or that cannot be
 * closed, is refused (its files may be read and Tramo cannot stop it), saying the chmod to run.
 */
export function secureDataDir(dataDir: string, warn: (message: string) => void = console.warn, uid: number | undefined = process.getuid?.()): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const stat = fs.statSync(dataDir);
  const mode = stat.mode & 0o777;
  if (mode & 0o077) {
    const refusal = () =>
      new DataDirOpenError(
        `La carpeta de datos ${dataDir} está abierta a otros usuarios (permisos ${mode.toString(8)}) y guarda la base de datos y sus claves. ` +
          `Ciérrala y vuelve a iniciar Tramo: chmod -R go-rwx '${dataDir}'`,
      );
    // Another user's directory is not ours to change (and its owner may read it whatever we do).
    if (uid === undefined || stat.uid !== uid) throw refusal();
    try {
      fs.chmodSync(dataDir, 0o700);
      closeEntries(dataDir);
    } catch {
      throw refusal();
    }
    warn(
      `La carpeta de datos ${dataDir} estaba abierta a otros usuarios (permisos ${mode.toString(8)}), como la dejaba una versión anterior de Tramo: ` +
        'se cerró (700, sus archivos 600). Si otros usuarios de esta máquina pudieron leerla, cambia las claves (jwt-secret.key) y las contraseñas.',
    );
    return;
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
