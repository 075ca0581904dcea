import type { FastifyInstance } from 'fastify';

/**
 * Runs `work` every `everyMs` while the app runs, one round at a time (a round still running when
 * the next tick comes is left to finish); a failed round is logged and the next one tries again.
 * Closing the app stops the ticks and waits for the round under way.
 */
export function runInBackground(app: FastifyInstance, everyMs: number, work: () => Promise<unknown>, failure: string) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running ??= work()
        .catch((err: unknown) => app.log.warn({ err }, failure))
        .finally(() => {
          running = null;
        });
    }, everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
