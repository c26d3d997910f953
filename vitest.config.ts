import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most slow files are process tests that wait on timers and sockets, not CPU: more workers than cores overlap the waits.
    maxWorkers: 4,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // The unit specifications keep no state between files: one module graph per worker instead of one per file,
          // a quarter of their time (most of it was importing the same modules again).
          isolate: false,
        },
      },
      {
        extends: true,
        // Integration and process tests: each file in a fresh module graph (some load per process, e.g. the service's
        // token ranks at start, and assert on it).
        test: { name: 'integration and processes', include: ['test/**/*.test.ts'], exclude: ['test/unit/**'] },
      },
    ],
  },
});
