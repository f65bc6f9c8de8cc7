import { defineConfig } from 'vitest/config';

// The real-agent suite (npm run test:agents, scripts/test-agents.sh): the recipes of
// src/agents/tested.ts, installed at their pinned versions into the per-user agent cache
// (ladder agents install) and put on PATH by the script. One worker: each
// agent is a few hundred MB of Rust binary that takes a core while it starts.
export default defineConfig({
  test: {
    include: ['test/agents-real/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { npm_command: '' },
  },
});
