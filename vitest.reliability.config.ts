import { defineConfig } from 'vitest/config';

// What Stryker runs for every mutant: the pure reliability tests, which need no servers and
// finish in milliseconds, plus the workbench's jobs_wait tests (an in-memory MCP pair on a
// manual clock), which cover the server's use of boundedWait (src/server/jobs.ts:76-114), its
// cap switched off included (test/server/waitCap.test.ts).
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts', 'test/server/jobs.test.ts', 'test/server/jobsWait.test.ts', 'test/server/waitCap.test.ts'],
    pool: 'threads',
  },
});
