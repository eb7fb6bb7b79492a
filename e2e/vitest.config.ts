import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// End-to-end tests: the built web app served by the real server, driven in Chromium.
// Run with `npm run e2e` (builds web/ first). One server for all files (see global-setup.ts); a throw-away
// PostgreSQL cluster for the files that also run on it (multinode.e2e.ts), as in the node project.
export default defineConfig({
  test: {
    name: 'e2e',
    root: fileURLToPath(new URL('..', import.meta.url)),
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['server/src/test/pg-global-setup.ts', 'e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 20_000,
    // One file at a time: the files share one server, and some change shared state (site name, passwords).
    fileParallelism: false,
    maxWorkers: 1,
    reporters: ['default'],
  },
});
