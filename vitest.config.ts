import { defineConfig } from 'vitest/config';

// isolated-vm needs --no-node-snapshot, which worker threads cannot take: tests run in forks
// started with the flag (the sandbox refuses to start without it).
export default defineConfig({
  test: {
    pool: 'forks',
    poolOptions: { forks: { execArgv: ['--no-node-snapshot'] } },
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    reporters: ['default'],
  },
});
