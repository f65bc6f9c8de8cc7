import { defineConfig } from 'vitest/config';

// The real-agent suite (npm run test:agents, scripts/test-agents.sh): pinned Codex,
// codex-acp and Claude Code, installed into .cache/agents/ and put on PATH by the script. One worker: each
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
