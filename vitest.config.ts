import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most slow files are process tests that wait on timers and sockets, not CPU: more workers than cores overlap the waits.
    maxWorkers: 4,
  },
});
