import { defineConfig } from 'vitest/config';

// What Stryker runs for every mutant: only the pure reliability tests, which need no
// servers and finish in milliseconds, so the battery stays inside CI's budget.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    pool: 'threads',
  },
});
