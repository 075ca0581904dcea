import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
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
      next();
    });
  },
};

export default defineConfig({
  plugins: [
    react(),
    publicPage,
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
    rollupOptions: {
      input: { main: path.resolve(import.meta.dirname, 'index.html'), seguimiento: path.resolve(import.meta.dirname, 'seguimiento.html') },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['test/**/*.test.tsx', 'test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
  },
});
