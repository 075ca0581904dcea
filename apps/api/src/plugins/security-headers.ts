import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
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

/** A script element written in the page (not a file it links, not a JSON data block). */
const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)(?![^>]*\btype="application\/json")[^>]*>([\s\S]*?)<\/script>/g;

/** The policy's sources ('sha256-…') that allow exactly the scripts written inside this HTML. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map((m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`);
}

/** Read once per version of the file (a build while the server runs writes a new one). */
const pageHashes = new Map<string, { mtimeMs: number; hashes: string[] }>();

/**
 * Sends a built page whose script is inside its HTML (the login page, issue 37: one file on a slow
 * link), with a policy that allows that script by its hash and no other inline script.
 */
export function sendPageWithInlineScripts(reply: FastifyReply, dir: string, file: string) {
  const full = path.join(dir, file);
  const { mtimeMs } = fs.statSync(full);
  let known = pageHashes.get(full);
  if (known?.mtimeMs !== mtimeMs) {
    known = { mtimeMs, hashes: inlineScriptHashes(fs.readFileSync(full, 'utf8')) };
    pageHashes.set(full, known);
  }
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp === 'string' && known.hashes.length) {
    reply.header('content-security-policy', csp.replace(/(^|;)script-src ([^;]*)/, `$1script-src $2 ${known.hashes.join(' ')}`));
  }
  return reply.header('Cache-Control', 'no-cache').sendFile(file);
}
