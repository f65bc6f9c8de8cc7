// The report's figures against the probabilities that produced them. The looper loops on a
// step's catalog lookup with probability p per step (seeded); with the repeat short-circuit
// (arm on) it gets out and answers, without it (off) it spends the ceiling. So the true
// difference in step pass rate, on minus off, is p, and the interval the report computes from
// the discordant pairs must cover it.
import { describe, expect, it } from 'vitest';
import { pairedComparison } from '../../src/report/stats.ts';
import { runRung } from './syntheticWorld.ts';

/** Whether step 0 (the catalog step) ended answered, on each arm, for one seed. */
async function pairFor(seed: number, p: number): Promise<{ on: boolean; off: boolean }> {
  const [on, off] = await Promise.all([runRung('looper', seed, 'on', { p, ceiling: 5, steps: 1 }), runRung('looper', seed, 'off', { p, ceiling: 5, steps: 1 })]);
  return { on: on.results[0]!.reason === 'answered', off: off.results[0]!.reason === 'answered' };
}

describe('a stochastic agent on both arms', () => {
  it('gives discordant pairs whose reported difference covers the true one (p = 0.4, 60 seeded pairs)', async () => {
    const p = 0.4;
    const pairs = [];
    for (let seed = 1; seed <= 60; seed += 1) pairs.push(await pairFor(seed * 101, p));
    const onOnly = pairs.filter((x) => x.on && !x.off).length;
    const offOnly = pairs.filter((x) => x.off && !x.on).length;
    // On never does worse: a loop the mechanism breaks is the only difference.
    expect(offOnly).toBe(0);
    const d = pairedComparison(offOnly, onOnly, pairs.length);
    expect(d.lower).toBeLessThanOrEqual(p);
    expect(d.upper).toBeGreaterThanOrEqual(p);
    // Neither all nor none: the variance the report's intervals are for.
    expect(onOnly).toBeGreaterThan(10);
    expect(onOnly).toBeLessThan(50);
    expect(d.p).toBeLessThan(0.05);
  }, 60_000);

  it('gives no difference at p = 0, and every pair discordant at p = 1', async () => {
    const never = await Promise.all([1, 2, 3].map((s) => pairFor(s, 0)));
    const always = await Promise.all([1, 2, 3].map((s) => pairFor(s, 1)));
    expect(never.every((x) => x.on && x.off)).toBe(true);
    expect(always.every((x) => x.on && !x.off)).toBe(true);
  });
});
