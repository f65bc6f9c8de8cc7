import { describe, expect, it } from 'vitest';
import { chance, digest, pick, sequence } from '../../src/server/prng.ts';

describe('seeded randomness', () => {
  it('is a pure function of seed, stream and index', () => {
    // By an independent implementation of FNV-1a and the mix (test vectors: FNV-1a("a") = 0xe40c292c).
    expect(chance(1, 'a', 5)).toBe(0.9347448751796037);
    expect(chance(1, 'a', 6)).toBe(0.5310012637637556);
    expect(chance(1, 'a', 5)).not.toBe(chance(2, 'a', 5));
    expect(chance(1, 'a', 5)).not.toBe(chance(1, 'b', 5));
    expect(chance(1, 'a', 5)).not.toBe(chance(1, 'a', 6));
  });

  it('spreads over [0, 1) evenly enough for error rates', () => {
    const draw = sequence(3, 'spread');
    const values = Array.from({ length: 20_000 }, draw);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const tenth = values.filter((v) => v < 0.1).length / values.length;
    expect(tenth).toBeGreaterThan(0.09);
    expect(tenth).toBeLessThan(0.11);
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    expect(mean).toBeGreaterThan(0.49);
    expect(mean).toBeLessThan(0.51);
  });

  it('picks each item of a list, and refuses an empty one', () => {
    const seen = new Set(Array.from({ length: 200 }, (_, i) => pick(['x', 'y', 'z'], 9, 'p', i)));
    expect([...seen].sort()).toEqual(['x', 'y', 'z']);
    expect(() => pick([], 1, 'p', 0)).toThrow(RangeError);
  });

  it('digests to eight hex digits that change with the seed', () => {
    expect(digest(1, 'job-1')).toMatch(/^[0-9a-f]{8}$/);
    expect(digest(1, 'job-1')).toBe('2d18155c');
    expect(digest(2, 'job-1')).toBe('8f8eadbb');
    expect(digest(2, 'job-1')).not.toBe(digest(1, 'job-1'));
  });
});
