import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/global-setup.ts'],
    setupFiles: ['tests/setup/install-packs.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    // Tests spawn git, bash, the model server and the Claude Code engine; two cores.
    pool: 'forks',
    maxWorkers: 2,
  },
});
