import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Helmet's headers, with the two that assume https sent only over https: on a branch LAN install
 * served over plain http, `upgrade-insecure-requests` would have the browser fetch the app's own
 * assets over https (and fail) and HSTS would pin a site that has no certificate. Behind a
 * reverse proxy that ends TLS, TRUST_PROXY lets `request.protocol` read its X-Forwarded-Proto.
 */
export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    hsts: false,
    contentSecurityPolicy: {
      directives: {
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        // The camera scanner's barcode decoder is WebAssembly (zxing-wasm, our own file): compiling it
        // needs 'wasm-unsafe-eval', which allows WebAssembly only, not JavaScript eval.
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        // A document's PDF is shown inside the page from a blob: address (fetched with the session).
        'frame-src': ["'self'", 'blob:'],
        'object-src': ["'self'", 'blob:'],
        'upgrade-insecure-requests': null,
      },
    },
  });
  // A callback, not an async hook: a promise and its turn on every answer for a check that rarely acts.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', HSTS);
      const csp = reply.getHeader('content-security-policy');
      if (typeof csp === 'string') reply.header('content-security-policy', `${csp};upgrade-insecure-requests`);
    }
    done(null, payload);
  });
}
