import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig } from 'vitest/config';
import type { Plugin, Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

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
 * The login page opened by address (issue 37) is a third entry that fetches the staff app while
 * the user types: the build writes into it the files the app's entry and the Panel need (their
 * chunks, the chunks those import, their styles), which only the build knows by their hashed names.
 */
const PANEL_PAGE = 'features/dashboard/PanelPage.tsx';

const appFilesForLogin: Plugin = {
  name: 'tramo-login-app-files',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, ctx) {
      if (!ctx.bundle || !ctx.filename.endsWith('login.html')) return html;
      const chunks = Object.values(ctx.bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const files = new Set<string>();
      const add = (chunk: Rollup.OutputChunk | undefined) => {
        if (!chunk || files.has(chunk.fileName)) return;
        files.add(chunk.fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
        for (const imported of chunk.imports) add(chunks.find((c) => c.fileName === imported));
      };
      add(chunks.find((c) => c.isEntry && c.name === 'main'));
      const panel = chunks.find((c) => c.facadeModuleId?.endsWith(PANEL_PAGE));
      add(panel);
      // The Panel loads its chart on its own: without it the counters are painted a round trip later.
      for (const lazy of panel?.dynamicImports ?? []) add(chunks.find((c) => c.fileName === lazy));
      const list = JSON.stringify([...files].map((f) => `/${f}`));
      return html.replace('</body>', `<script type="application/json" id="app-files">${list}</script>\n</body>`);
    },
  },
};

export default defineConfig({
  plugins: [
    react(),
    publicPage,
    appFilesForLogin,
    // Brotli and gzip copies of every text asset, made once at build time at the highest levels;
    // the server sends the one the browser accepts (@fastify/static `preCompressed`).
    compression({
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      threshold: 1024,
    }),
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
        login: path.resolve(import.meta.dirname, 'login.html'),
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['test/**/*.test.tsx', 'test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
  },
});
