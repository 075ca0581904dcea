import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig } from 'vitest/config';
import { build, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { viteSingleFile } from 'vite-plugin-singlefile';

/**
 * The public tracking page (issue 18) is a second entry, `seguimiento.html`, with its own small
 * bundle; in development its client routes load that page (the API does the same in production).
 */
const publicPage: Plugin = {
  name: 'tramo-public-page',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url && /^\/seguimiento(\/|$|\?)/.test(req.url)) req.url = '/seguimiento.html';
      else if (req.url && /^\/login(\?|$)/.test(req.url)) req.url = '/login.html';
      next();
    });
  },
};

/**
 * The login page opened by address (issue 37) loads the staff app while the user types and starts
 * it in the same document once signed in: the build writes into it the app's start module (a chunk
 * of its own, so that it exports `startApp` instead of running), the Panel's page, and every file
 * those need (their chunks, the chunks those import, their styles), which only the build knows by
 * their hashed names.
 *
 * The page itself is built apart, once the app is written, into one file: its script and style
 * inside its HTML. Built with the app, its few lines of rules would be a chunk shared with the app's
 * own login page, and each file is a round trip before the form shows (562 ms on Fast 3G; a
 * quarter of a second even from the service worker's cache on a slow machine). The server allows
 * its inline script by hash (apps/api, security headers).
 */
const APP_START = path.resolve(import.meta.dirname, 'src/app/start.tsx');
const PANEL_PAGE = 'features/dashboard/PanelPage.tsx';
const LOGIN_PAGE = path.resolve(import.meta.dirname, 'login.html');

/**
 * Brotli and gzip copies of every text asset, made once at build time at the highest levels; the
 * server sends the one the browser accepts (@fastify/static `preCompressed`).
 */
const BROTLI: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } };
const GZIP: zlib.ZlibOptions = { level: 9 };

/** The app's files the login page fetches while the user types, by their built names. */
function appFilesOf(bundle: Rollup.OutputBundle): string {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const files = new Set<string>();
  const add = (chunk: Rollup.OutputChunk | undefined) => {
    if (!chunk || files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const imported of chunk.imports) add(chunks.find((c) => c.fileName === imported));
  };
  const start = chunks.find((c) => c.facadeModuleId === APP_START);
  const panel = chunks.find((c) => c.facadeModuleId?.endsWith(PANEL_PAGE));
  if (!start || !panel) throw new Error('login.html: the app start or the Panel chunk is missing');
  add(start);
  add(panel);
  const url = (file: string) => `/${file}`;
  return JSON.stringify({ start: url(start.fileName), pages: [url(panel.fileName)], files: [...files].map(url) });
}

/** Builds login.html into `outDir` as one file, with the app's files listed in it. */
async function buildLoginPage(outDir: string, appFiles: string) {
  await build({
    configFile: false,
    root: import.meta.dirname,
    logLevel: 'warn',
    publicDir: false,
    plugins: [
      viteSingleFile({ overrideConfig: { base: '/' } }),
      {
        name: 'tramo-login-app-files',
        transformIndexHtml: (html) => html.replace('</body>', `<script type="application/json" id="app-files">${appFiles}</script>\n</body>`),
      },
    ],
    build: { outDir, emptyOutDir: false, modulePreload: { polyfill: false }, rollupOptions: { input: LOGIN_PAGE } },
  });
  // Compressed here, not by the plugin: it compresses a page before its files are inlined.
  const page = path.join(outDir, 'login.html');
  const html = fs.readFileSync(page);
  fs.writeFileSync(`${page}.br`, zlib.brotliCompressSync(html, BROTLI));
  fs.writeFileSync(`${page}.gz`, zlib.gzipSync(html, GZIP));
}

const loginPage: Plugin = {
  name: 'tramo-login-page',
  apply: 'build',
  buildStart() {
    this.emitFile({ type: 'chunk', id: APP_START, name: 'app', preserveSignature: 'exports-only' });
  },
  async writeBundle(options, bundle) {
    if (!options.dir) throw new Error('login.html: the build has no output folder');
    await buildLoginPage(options.dir, appFilesOf(bundle));
  },
};

/**
 * The files of the staff app (issue 37). On a slow link every file is a round trip, six at a time:
 * split by the bundler's default (one chunk per set of pages sharing a module), the app and its
 * Panel were 78 files, about 13 round trips of 562 ms on Fast 3G. So the libraries go in one chunk
 * (`vendor`), the app's own code used by more than one page in another (`shared`), the shell stays
 * with the app's start and each page keeps what only it uses; the libraries of a few pages
 * (scanning, barcodes, signatures, forms) stay with them. What the public pages (login, tracking)
 * share with the app stays apart, so that those small pages never load the app's chunks.
 */
const PUBLIC_ENTRIES = ['src/public/login.ts', 'src/public/main.ts'].map((f) => path.resolve(import.meta.dirname, f));
const PAGE_LIBRARIES = /[\\/]node_modules[\\/](zxing-wasm|jsbarcode|qrcode|signature_pad|react-hook-form|@hookform)[\\/]/;
/** The modules the public pages import, found once the module graph is known (before chunking). */
const publicModules = new Set<string>();

const publicModulesApart: Plugin = {
  name: 'tramo-public-modules-apart',
  apply: 'build',
  buildEnd() {
    const pending = [...PUBLIC_ENTRIES];
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      if (publicModules.has(id)) continue;
      publicModules.add(id);
      pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
    }
  },
};

const grouped = (id: string) => !publicModules.has(id) && !id.endsWith('.css');
const codeSplitting = {
  groups: [
    { name: 'vendor', priority: 2, test: (id: string) => /[\\/]node_modules[\\/]/.test(id) && !PAGE_LIBRARIES.test(id) && grouped(id) },
    {
      name: 'shared',
      priority: 1,
      minShareCount: 2,
      // Not the public pages' modules these import: those stay in their own small chunks.
      includeDependenciesRecursively: false,
      // The entries' own modules stay in their chunks (main, start).
      test: (id: string) =>
        /[\\/](apps[\\/]web[\\/]src|packages[\\/]domain)[\\/]/.test(id) && !/[\\/]src[\\/](main|app[\\/]start)\.tsx$/.test(id) && grouped(id),
    },
  ],
};

export default defineConfig({
  plugins: [
    react(),
    publicPage,
    loginPage,
    publicModulesApart,
    compression({ algorithms: [defineAlgorithm('brotliCompress', BROTLI), defineAlgorithm('gzip', GZIP)], threshold: 1024 }),
  ],
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:3000' } },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // Every browser the app supports preloads modules itself: no polyfill file to fetch first.
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        main: path.resolve(import.meta.dirname, 'index.html'),
        seguimiento: path.resolve(import.meta.dirname, 'seguimiento.html'),
      },
      // A feature's index.ts only re-exports: a page importing one thing from it depends on that
      // thing's module alone, not on every module the feature exports (the Panel on the shipment
      // forms, their schemas and inputs).
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]src[\\/]features[\\/][^\\/]+[\\/]index\.ts$/.test(id) },
      output: { codeSplitting },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['test/**/*.test.tsx', 'test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
  },
});
