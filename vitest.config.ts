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
    // A hang's guard, not a verdict on speed. Tests that start servers and agents took up to 9 s
    // at a load average of 12 on 2 cores and ran past 20 s at 30 to 46 (lane refusals, the ttl
    // lanes, the HTTP upstream's restart, an external agent's pass, the statistics grid): a
    // good submission refused for the machine's load. 60 s holds them there with room; a test
    // that hangs still fails, a minute later.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Ladder prints `npx ladder ...` for the commands to run next when npx started it
    // (src/runner/invocation.ts); `npx vitest` sets that too. Cleared, the printed commands
    // read the same however the suite is started.
    env: { npm_command: '' },
  },
});
