import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One test command for the whole repository: node projects for the server and packages,
// jsdom for the web app. End-to-end tests have their own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    // Vitest's default (cores - 1) is one file at a time on a 2-core machine, which then kept one core
    // busy about half the time (the rest waiting on PostgreSQL, threads, child processes): two at once.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['server/src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'bench/**/*.test.ts'],
          // Files share their worker's loaded modules (no test mocks a module; every service is built per
          // test from its own database): loading the server's module graph once per file took about a
          // third of the run (188 of 535 s of CI time).
          isolate: false,
          // A throw-away PostgreSQL cluster for the back-end tests (skipped with a notice without PostgreSQL).
          globalSetup: ['server/src/test/pg-global-setup.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['./web/src/test/setup.ts'],
          testTimeout: 30000,
        },
      },
    ],
  },
});
