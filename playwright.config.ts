import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
// A data directory of its own, wiped at every run: the suite always starts from the demo seed.
const dataDir = path.join(os.tmpdir(), `tramo-e2e-${port}`);

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // One server and one database for the whole suite: specs run one at a time so that counters
  // (Panel totals, load lists) only move by what the running spec does.
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'reports/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'es-PE',
    timezoneId: 'America/Lima',
    viewport: { width: 1366, height: 768 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium: no test tool downloads a browser here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    command: `rm -rf "${dataDir}" && npm start`,
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST: path.join(os.tmpdir(), `tramo-e2e-web-${port}`),
      DEMO: '1',
      LOG_LEVEL: 'warn',
      // Long enough for a browser test to void a payment while its boleta still waits for the daily
      // summary (payments.spec.ts), short enough for a test to see a boleta accepted.
      BILLING_SANDBOX_BOLETA_DELAY_MS: '10000',
      BILLING_SANDBOX_VOID_DELAY_MS: '1500',
      BILLING_SANDBOX_GUIDE_DELAY_MS: '6000',
    },
    stdout: 'pipe',
  },
});
