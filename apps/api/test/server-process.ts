import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  process: ChildProcess;
  /** Where it listens, as it printed it. */
  url: string;
  output(): string;
  /** SIGTERM (a clean stop) or SIGKILL (a crash); resolves once the process is gone. */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

/**
 * Starts the real server (`apps/api/src/main.ts`, what `npm start` runs after building the web app)
 * on a free port, with `env` over the current environment and demo data on an empty database, and
 * resolves once it says it is ready. The web app is not served.
 */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/api/src/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DEMO: '1', LOG_LEVEL: 'warn', WEB_DIST: path.join(root, 'no-web'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Tramo listo en (http:\/\/\S+)/.exec(output);
      if (!ready) return;
      resolve({
        process: child,
        url: ready[1]!,
        output: () => output,
        stop: async (signal) => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${output}`)));
  });
}
