// Stochastic synthetic agents: each pathology strikes with a probability per decision, drawn
// from the seed and the decision's place, so the same seed gives the same trace and different
// seeds give different ones.
import { describe, expect, it } from 'vitest';
import { strikes } from '../../src/models/synthetic/chance.ts';
import { createSyntheticModel, defaultProbability } from '../../src/models/synthetic/index.ts';
import { SCRIPT, callsOf, runRung, timeless } from './syntheticWorld.ts';

describe('strikes', () => {
  it('strikes at about p of the decisions over many seeds, never at 0 and always at 1', () => {
    const seeds = Array.from({ length: 4000 }, (_, i) => i * 7919 + 3);
    const rate = (p: number, step = 0, call = 0) => seeds.filter((s) => strikes(s, step, call, p)).length / seeds.length;
    expect(rate(0.3)).toBeGreaterThan(0.27);
    expect(rate(0.3)).toBeLessThan(0.33);
    expect(rate(0.5, 2, 1)).toBeGreaterThan(0.47);
    expect(rate(0.5, 2, 1)).toBeLessThan(0.53);
    expect(rate(0)).toBe(0);
    expect(rate(1)).toBe(1);
  });

  it('decides each place on its own: one step\'s draw says nothing of the next', () => {
    const seeds = Array.from({ length: 4000 }, (_, i) => i + 1);
    const both = seeds.filter((s) => strikes(s, 0, 0, 0.5) && strikes(s, 1, 0, 0.5)).length / seeds.length;
    expect(both).toBeGreaterThan(0.22);
    expect(both).toBeLessThan(0.28);
  });
});

describe('a stochastic agent', () => {
  it('has a default probability per policy, below 1 for every pathology', () => {
    expect(defaultProbability('reference')).toBe(0);
    for (const policy of ['looper', 'retrier', 'impatient', 'oblivious'] as const) expect(defaultProbability(policy)).toBe(0.5);
  });

  it('gives the same trace for the same seed, and different traces across seeds', async () => {
    const first = await runRung('retrier', 11, 'off', { p: 0.5 });
    const again = await runRung('retrier', 11, 'off', { p: 0.5 });
    expect(timeless(again.events)).toEqual(timeless(first.events));
    const navigations = new Set<number>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const run = await runRung('retrier', seed, 'off', { p: 0.5 });
      navigations.add(callsOf(run, 2).filter((c) => c.name === 'wb__browser_navigate').length);
    }
    // Struck: the dead call sent six times; spared: once.
    expect([...navigations].sort()).toEqual([1, 6]);
  });

  it('is the reference at p 0 and the incident at p 1', async () => {
    const never = await runRung('looper', 3, 'off', { p: 0 });
    const always = await runRung('looper', 3, 'off', { p: 1, ceiling: 6 });
    expect(callsOf(never, 0).map((c) => c.name)).toEqual(['wb__catalog_lookup', 'wb__files_write']);
    expect(always.results[0]!.reason).toBe('ceiling');
  });

  it('refuses a probability outside 0 to 1 in one line', () => {
    expect(() => createSyntheticModel('looper', { script: SCRIPT, seed: 1, p: 1.5 })).toThrow('synthetic:looper: p must be a number from 0 to 1, got 1.5');
    expect(() => createSyntheticModel('looper', { script: SCRIPT, seed: 1, p: Number.NaN })).toThrow(/p must be a number from 0 to 1/);
  });
});
