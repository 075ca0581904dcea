import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each API test file opens its own embedded database (and PostgreSQL database); two cores.
    maxWorkers: 2,
    projects: [
      { test: { name: 'domain', root: './packages/domain', include: ['test/**/*.test.ts'] } },
      {
        test: {
          name: 'api',
          root: './apps/api',
          include: ['test/**/*.test.ts'],
          // Two server processes on one PostgreSQL: there is no such test without a server.
          exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? [] : ['test/two-processes.test.ts'])],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      './apps/web/vite.config.ts',
    ],
  },
});
