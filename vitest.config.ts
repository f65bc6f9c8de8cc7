import { configDefaults, defineConfig } from 'vitest/config';

// The whole suite. Tests that start servers or child processes run in forks so a
// crashed server cannot take the runner down; two workers match the 2-core target machine.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real agents' suite needs them installed: npm run test:agents (vitest.agents.config.ts).
    exclude: [...configDefaults.exclude, 'test/agents-real/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Ladder prints `npx ladder ...` for the commands to run next when npx started it
    // (src/runner/invocation.ts); `npx vitest` sets that too. Cleared, the printed commands
    // read the same however the suite is started.
    env: { npm_command: '' },
  },
});
