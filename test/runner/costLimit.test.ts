import { describe, expect, it } from 'vitest';
import { CostLimit } from '../../src/runner/costLimit.ts';

describe('the cost limit', () => {
  it('runs one pass at a time until a pass has ended, since there is nothing to estimate from', () => {
    const limit = new CostLimit(1);
    expect(limit.admit('a0', 'a', 0)).toBe('start');
    expect(limit.admit('a1', 'a', 1)).toBe('wait');
    limit.finished('a0', 'a', 0.1);
    expect(limit.admit('a1', 'a', 0)).toBe('start');
  });

  it('counts running passes at their estimates, and starts one only if it fits under the limit', () => {
    const limit = new CostLimit(1);
    limit.admit('a0', 'a', 0);
    limit.finished('a0', 'a', 0.3); // spent 0.3
    expect(limit.admit('a1', 'a', 0)).toBe('start'); // 0.3 + 0.3 <= 1
    expect(limit.admit('a2', 'a', 1)).toBe('start'); // 0.3 + 0.3 + 0.3 <= 1
    expect(limit.admit('a3', 'a', 2)).toBe('wait'); // 1.2 > 1, two running
    limit.finished('a1', 'a', 0.05); // spent 0.35, a2 reserved 0.3
    expect(limit.admit('a3', 'a', 1)).toBe('start'); // 0.35 + 0.3 + 0.3 = 0.95
    expect(limit.admit('a4', 'a', 2)).toBe('wait');
  });

  it('stops, before passing the limit, when the next pass would not fit with nothing running', () => {
    const limit = new CostLimit(1);
    limit.admit('a0', 'a', 0);
    limit.finished('a0', 'a', 0.6);
    expect(limit.admit('a1', 'a', 0)).toBe('stop');
    expect(limit.stopped).toStrictEqual({ spentUsd: 0.6, maxUsd: 1, nextUsd: 0.6 });
  });

  it('starts a pass that lands exactly on the limit', () => {
    const limit = new CostLimit(1, [{ rung: 'a', usd: 0.5 }]);
    expect(limit.admit('a1', 'a', 0)).toBe('start');
    expect(limit.stopped).toBeUndefined();
  });

  it('estimates a rung from its own dearest pass, and a new rung from the dearest of all', () => {
    const limit = new CostLimit(10, [{ rung: 'cheap', usd: 0.1 }, { rung: 'cheap', usd: 0.3 }, { rung: 'dear', usd: 2 }, { rung: 'cheap', usd: 0.2 }]);
    expect(limit.estimate('cheap')).toBe(0.3);
    expect(limit.estimate('dear')).toBe(2);
    expect(limit.estimate('new')).toBe(2);
    expect(limit.spentUsd).toBeCloseTo(2.6, 10);
  });

  it('estimates each rung from the passes of that rung that finished during the run', () => {
    const limit = new CostLimit(2.5);
    expect(limit.admit('cheap/on/0', 'cheap', 0)).toBe('start');
    limit.finished('cheap/on/0', 'cheap', 0.1);
    expect(limit.admit('dear/on/0', 'dear', 0)).toBe('start');
    limit.finished('dear/on/0', 'dear', 2);
    expect(limit.estimate('cheap')).toBe(0.1);
    expect(limit.estimate('dear')).toBe(2);
    // Spent 2.1: another cheap pass fits under 2.5, another dear one does not.
    expect(limit.admit('cheap/on/1', 'cheap', 0)).toBe('start');
    limit.finished('cheap/on/1', 'cheap', 0.1);
    expect(limit.admit('dear/on/1', 'dear', 0)).toBe('stop');
    expect(limit.stopped).toMatchObject({ nextUsd: 2 });
  });

  it('counts what a resumed run spent before', () => {
    const limit = new CostLimit(1, [{ rung: 'a', usd: 0.9 }]);
    expect(limit.admit('a1', 'a', 0)).toBe('stop');
    expect(limit.stopped).toMatchObject({ spentUsd: 0.9, nextUsd: 0.9 });
  });

  it('frees the estimate of a pass that ended without a cost', () => {
    const limit = new CostLimit(1, [{ rung: 'a', usd: 0.4 }]);
    expect(limit.admit('a1', 'a', 0)).toBe('start');
    expect(limit.admit('a2', 'a', 1)).toBe('wait');
    limit.released('a1');
    expect(limit.admit('a2', 'a', 0)).toBe('start');
  });

  it('without a limit starts every pass at once and keeps only the total', () => {
    const spending = new CostLimit(undefined);
    expect(spending.admit('a0', 'a', 0)).toBe('start');
    expect(spending.admit('a1', 'a', 1)).toBe('start');
    spending.finished('a0', 'a', 1_000);
    expect(spending.admit('a2', 'a', 1)).toBe('start');
    expect(spending.admit('a3', 'a', 0)).toBe('start');
    expect(spending.spentUsd).toBe(1_000);
    expect(spending.stopped).toBeUndefined();
  });

  it('starts a pass a hundredth of a cent under the limit, and stops one a hundredth of a cent over it', () => {
    const under = new CostLimit(1, [{ rung: 'a', usd: 0.4999 }]);
    expect(under.admit('a1', 'a', 0)).toBe('start');
    const over = new CostLimit(1, [{ rung: 'a', usd: 0.5001 }]);
    expect(over.admit('a1', 'a', 0)).toBe('stop');
  });

  it('accepts the smallest limit above 0', () => {
    expect(new CostLimit(Number.MIN_VALUE).maxUsd).toBe(Number.MIN_VALUE);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a limit of %s', (max) => {
    expect(() => new CostLimit(max)).toThrow(`--max-cost ${max}: expected an amount in US dollars above 0`);
  });
});
