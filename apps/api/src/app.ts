import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { ReferenceCache } from './plugins/reference-cache.ts';
import { SessionCache } from './plugins/session-cache.ts';
import { registerAuth } from './plugins/auth.ts';
import { answerClientError, answerRouterError, registerErrorHandling } from './plugins/errors.ts';
import { loggerOptions } from './plugins/logging.ts';
import { registerSecurityHeaders, sendPageWithInlineScripts } from './plugins/security-headers.ts';
import { serializerCompiler } from './plugins/serializer.ts';
import { loadSecretCodeKey, secretCodes } from './lib/secret-codes.ts';
import { loadSigningSecret } from './lib/signing-secret.ts';
import { trackingLinks } from './lib/tracking-links.ts';
import { createProviders, type Providers } from './providers/index.ts';
import type { App } from './types.ts';
import healthRoutes from './modules/health/routes.ts';
import authRoutes from './modules/auth/routes.ts';
import userRoutes from './modules/users/routes.ts';
import branchRoutes from './modules/branches/routes.ts';
import shipmentRoutes from './modules/shipments/routes.ts';
import { foldDailyCountsInBackground, pruneRecentSearchInBackground } from './modules/shipments/index.ts';
import customerRoutes from './modules/customers/routes.ts';
import pricingRoutes from './modules/pricing/routes.ts';
import deliveryRoutes from './modules/deliveries/routes.ts';
import fleetRoutes from './modules/fleet/routes.ts';
import { billingRoutes, pruneDocumentSearchInBackground } from './modules/billing/index.ts';
import { guidesRoutes } from './modules/guides/index.ts';
import { tripRoutes } from './modules/trips/index.ts';
import { incidentRoutes } from './modules/incidents/index.ts';
import { paymentRoutes, recoverPaymentsInBackground } from './modules/payments/index.ts';
import { dashboardRoutes } from './modules/dashboard/index.ts';
import { publicTrackingRoutes } from './modules/public-tracking/index.ts';
import { notificationRoutes } from './modules/notifications/index.ts';
import { reconciliationRoutes } from './modules/reconciliation/index.ts';
import { companyRoutes } from './modules/company/index.ts';
import { whoPaysRoutes } from './modules/who-pays/index.ts';
import { creditRoutes } from './modules/credit/index.ts';

export interface BuildOptions {
  database: Database;
  config: Config;
  now?: () => Date;
  providers?: Partial<Providers>;
  /** The server log (none when absent); secrets and query parameters never reach it. */
  log?: { level: string; stream?: NodeJS.WritableStream };
  /** Serve the built web app from `config.webDist` (production); tests of the API leave it off. */
  serveWeb?: boolean;
  /** Runs before any route is registered: test builds add their response-contract hook here. */
  beforeRoutes?: (app: App) => void | Promise<void>;
}

/** `/seguimiento` and `/seguimiento/{code}` (issue 18). */
const isPublicPage = (url: string) => /^\/seguimiento(\/|\?|$)/.test(url);
/** `/login` opened by address (issue 37): a page of its own that fetches the app while the user types. */
const isLoginPage = (url: string) => /^\/login(\?|$)/.test(url);

export async function buildApp(options: BuildOptions): Promise<App> {
  const { database, config } = options;
  const app = Fastify({
    logger: options.log ? loggerOptions(options.log.level, options.log.stream) : false,
    // Long path parameters (ids, codes, document numbers) reach validation, which answers a Spanish
    // 400 on the field; past 2000 characters the router refuses them (414).
    routerOptions: { maxParamLength: 2000 },
    trustProxy: config.trustProxy,
    // What the router and Node's HTTP parser refuse on their own is answered in Spanish too.
    frameworkErrors: answerRouterError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await options.beforeRoutes?.(app);

  app.decorate('db', database.db);
  app.decorate('readDb', database.readDb);
  app.decorate('dbKind', database.kind);
  app.decorate('config', config);
  const now = options.now ?? (() => new Date());
  app.decorate('now', now);
  const secretCodeKey = loadSecretCodeKey(config);
  app.decorate('secretCodes', secretCodes(secretCodeKey));
  app.decorate('trackingLinks', trackingLinks(secretCodeKey));
  app.decorate('providers', { ...createProviders(config, { db: database.db, now }), ...options.providers });
  const sessions = new SessionCache();
  await sessions.start(database);
  app.decorate('sessions', sessions);
  app.addHook('onClose', () => sessions.close());
  const references = new ReferenceCache();
  await references.start(database);
  app.decorate('references', references);
  app.addHook('onClose', () => references.close());

  registerErrorHandling(app);
  foldDailyCountsInBackground(app);
  pruneRecentSearchInBackground(app);
  pruneDocumentSearchInBackground(app);
  recoverPaymentsInBackground(app);
  await registerSecurityHeaders(app);
  // API answers over 1 KB leave compressed (a page of shipments shrinks about tenfold); the web
  // app's files are compressed once at build time instead (`preCompressed` below). Request bodies
  // are not decompressed: no client sends them so, and it would open a zip bomb. Brotli with a
  // 256 KB window instead of 4 MB: an answer is rarely larger, and setting up the big window cost
  // more than compressing a page of shipments (~250 µs → ~110 µs). Quality 3, not the plugin's 4:
  // on our answers it costs about a third less (a page of 10 shipments ~80 → ~50 µs, of 50 ~265 →
  // ~180 µs, the Panel ~55 → ~37 µs) for 1–9% more bytes (a page of 10: 1.66 → 1.79 KB) (issue 19).
  await app.register(compress, {
    globalCompression: true,
    globalDecompression: false,
    threshold: 1024,
    // Answers up to 64 KB (a page of 50 shipments is ~50 KB, ~0.4 ms of brotli) are compressed in
    // one call; past the plugin's default (8 KB on 2 cores) they went through a zlib stream and the
    // thread pool, which costs more than it spares for answers this small.
    syncThreshold: 65536,
    encodings: ['br', 'gzip'],
    brotliOptions: {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: 3,
        [zlib.constants.BROTLI_PARAM_LGWIN]: 18,
      },
    },
  });
  registerAuth(app, await loadSigningSecret(database.db, config));

  await app.register(swagger, {
    openapi: {
      info: { title: 'Tramo API', version: '1.0.0', description: 'Back-office de envíos y carga' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(branchRoutes);
      await api.register(shipmentRoutes);
      await api.register(dashboardRoutes);
      await api.register(customerRoutes);
      await api.register(pricingRoutes);
      await api.register(deliveryRoutes);
      await api.register(fleetRoutes);
      await api.register(billingRoutes);
      await api.register(guidesRoutes);
      await api.register(tripRoutes);
      await api.register(incidentRoutes);
      await api.register(paymentRoutes);
      await api.register(whoPaysRoutes);
      await api.register(publicTrackingRoutes);
      await api.register(notificationRoutes);
      await api.register(reconciliationRoutes);
      await api.register(companyRoutes);
      await api.register(creditRoutes);
    },
    { prefix: '/api' },
  );

  const webDist = options.serveWeb && config.webDist && fs.existsSync(path.join(config.webDist, 'index.html')) ? config.webDist : null;
  if (webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      // Vite names assets by content hash, so they never change under the same name.
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // Client-side routes (/shipments/12, /users…) all load the single-page app. A missing asset is
    // a 404, not the app: a tab left open across an upgrade asks for chunks of the old build, and
    // HTML in their place would fail obscurely instead of letting the app reload (not cached, as
    // a rolling upgrade may bring the file).
    if (webDist && request.method === 'GET' && !request.url.startsWith('/api')) {
      if (request.url.startsWith('/assets/')) reply.header('Cache-Control', 'no-store');
      // The public tracking page is an entry of its own, without the staff app's code.
      else if (isPublicPage(request.url)) return reply.header('Cache-Control', 'no-cache').sendFile('seguimiento.html');
      else if (isLoginPage(request.url)) return sendPageWithInlineScripts(reply, webDist, 'login.html');
      else return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ error: 'Recurso no encontrado', code: 'NOT_FOUND' });
  });

  return app;
}
