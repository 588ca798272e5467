import { defineConfig } from 'vitest/config';

// isolated-vm needs --no-node-snapshot, which worker threads cannot take: tests run in forks.
export default defineConfig({
  test: {
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    reporters: ['default'],
  },
});
