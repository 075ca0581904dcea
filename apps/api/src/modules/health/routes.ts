import { answers, healthSchema } from '@tramo/domain';
import { sql } from 'drizzle-orm';
import type { App } from '../../types.ts';

export default async function healthRoutes(app: App) {
  app.get('/health', { schema: { tags: ['health'], response: answers({ 200: healthSchema }), summary: 'Estado del servicio' } }, async () => {
    await app.db.execute(sql`select 1`);
    // `demo` tells the login page whether to show the demo-credentials hint.
    return { status: 'ok' as const, db: app.dbKind, demo: app.config.demo, publicUrl: app.config.publicUrl };
  });
}
