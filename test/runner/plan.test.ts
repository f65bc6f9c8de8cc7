import { describe, expect, it } from 'vitest';
import { armSlug, canonicalArms, passLabel, planPasses } from '../../src/runner/plan.ts';
import { formatShard, parseShard, passSeed, RunUsageError } from '../../src/runner/seeds.ts';

const input = { rungs: ['alpha', 'beta', 'gamma'], arms: ['on', 'off'], passes: 3, seed: 7 };
const id = (p: { rung: string; arm: string; pass: number }) => `${p.rung}/${p.arm}/${p.pass}`;

describe('passSeed', () => {
  it('is the first 31 bits of sha256("seed\\nrung\\npass")', () => {
    // sha256 of "7\nalpha\n0" begins ca a1 4d 80; without the top bit, 0x4aa14d80 = 1_252_085_120 (sha256sum by hand).
    expect(passSeed(7, 'alpha', 0)).toBe(1_252_085_120);
    expect(passSeed(7, 'alpha', 1)).toBe(635_333_732);
    expect(passSeed(8, 'alpha', 0)).toBe(950_848_704);
  });

  it('depends on the run seed, the rung and the pass index', () => {
    const base = passSeed(7, 'alpha', 0);
    expect(passSeed(7, 'alpha', 0)).toBe(base);
    expect(passSeed(8, 'alpha', 0)).not.toBe(base);
    expect(passSeed(7, 'beta', 0)).not.toBe(base);
    expect(passSeed(7, 'alpha', 1)).not.toBe(base);
    expect(Number.isInteger(base) && base >= 0 && base <= 0x7fffffff).toBe(true);
  });
});

describe('planPasses', () => {
  it('gives pass i of every arm the same seed', () => {
    const plan = planPasses(input);
    for (const pass of plan) {
      const twin = plan.find((p) => p.rung === pass.rung && p.pass === pass.pass && p.arm !== pass.arm)!;
      expect(twin.seed).toBe(pass.seed);
      if (pass.rung === 'alpha' && pass.pass === 0) expect(pass.seed).toBe(1_252_085_120);
    }
  });

  it('interleaves the arms pass by pass', () => {
    const plan = planPasses(input);
    expect(plan.slice(0, 4).map(id)).toEqual(['alpha/on/0', 'alpha/off/0', 'beta/on/0', 'beta/off/0']);
    // No pass i + 1 starts before every pass i of every rung and arm.
    const firstOfPass1 = plan.findIndex((p) => p.pass === 1);
    expect(plan.slice(0, firstOfPass1).every((p) => p.pass === 0)).toBe(true);
    expect(firstOfPass1).toBe(6);
    expect(plan).toHaveLength(18);
  });

  it('splits into shards that together are the whole run, each pass once', () => {
    const whole = planPasses(input).map(id).sort();
    const shards = [0, 1, 2].map((index) => planPasses({ ...input, shard: { index, count: 3 } }).map(id));
    const joined = shards.flat().sort();
    expect(joined).toEqual(whole);
    expect(new Set(joined).size).toBe(joined.length);
    expect(shards.every((s) => s.length === 6)).toBe(true);
  });

  it('balances shards to within one (pass, rung) unit whether or not the passes divide among them', () => {
    for (const passes of [1, 2, 3, 5]) {
      for (const count of [2, 3, 4, 7]) {
        const units = [...Array(count).keys()].map((index) =>
          planPasses({ ...input, passes, shard: { index, count } }).length / input.arms.length);
        const all = passes * input.rungs.length;
        expect(units.reduce((a, b) => a + b, 0), `${passes} passes in ${count}`).toBe(all);
        expect(units, `${passes} passes in ${count}`).toStrictEqual(units.map((_, i) => Math.floor(all / count) + (i < all % count ? 1 : 0)));
      }
    }
  });

  it('gives one pass of three rungs in three shards a rung each', () => {
    const shards = [0, 1, 2].map((index) => planPasses({ ...input, passes: 1, shard: { index, count: 3 } }).map(id));
    expect(shards).toStrictEqual([['alpha/on/0', 'alpha/off/0'], ['beta/on/0', 'beta/off/0'], ['gamma/on/0', 'gamma/off/0']]);
  });

  it('keeps both arms of a pass in the same shard', () => {
    for (const index of [0, 1]) {
      const shard = planPasses({ ...input, shard: { index, count: 2 } });
      for (const p of shard) expect(shard.some((q) => q.rung === p.rung && q.pass === p.pass && q.arm !== p.arm)).toBe(true);
    }
  });
});

describe('arms and shards as typed', () => {
  it('makes arms canonical and refuses one given twice', () => {
    expect(canonicalArms(['on', 'off,breaker=off'])).toEqual(['on', 'off']);
    expect(() => canonicalArms(['on', 'breaker=on'])).toThrow('--arms: on is given twice');
  });

  it('names arm folders that read back to the arm', () => {
    expect(armSlug('on')).toBe('on');
    expect(armSlug('breaker=off,circuit=on')).toBe('breaker-off_circuit-on');
  });

  it.each(['2/2', '1/0', 'a/b', '1', '-1/2'])('refuses the shard %j in one line', (text) => {
    expect(() => parseShard(text)).toThrow(RunUsageError);
    expect(() => parseShard(text)).toThrow(`--shard ${text}: expected i/n`);
  });

  it.each(['1/4x', 'x1/4', '0/0', '3/3'])('refuses the shard %j', (text) => {
    expect(() => parseShard(text)).toThrow(`--shard ${text}: expected i/n with 0 <= i < n, e.g. --shard 0/4`);
    try {
      parseShard(text);
    } catch (error) {
      expect((error as Error).name).toBe('RunUsageError');
    }
  });

  it('labels a pass by rung, arm and index', () => {
    expect(passLabel({ rung: 'alpha', arm: 'on', armSlug: 'on', pass: 2, seed: 1 })).toBe('alpha on #2');
  });

  it('reads i/n', () => {
    expect(parseShard(' 12/40 ')).toEqual({ index: 12, count: 40 });
    expect(parseShard('1/4')).toEqual({ index: 1, count: 4 });
    expect(formatShard({ index: 0, count: 2 })).toBe('0/2');
  });
});
