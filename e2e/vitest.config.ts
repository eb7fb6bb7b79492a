import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// End-to-end tests: the built web app served by the real server, driven in Chromium.
// Run with `npm run e2e` (builds web/ first). One server for all files (see global-setup.ts).
export default defineConfig({
  test: {
    name: 'e2e',
    root: fileURLToPath(new URL('..', import.meta.url)),
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 20_000,
    // One browser per file; two files side by side is what a 2-core machine handles well.
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default'],
  },
});
