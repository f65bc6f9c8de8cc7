// --max-cost's spending is a lower bound once a finished pass had responses with no token count
// (src/runner/costLimit.ts): a free model's does not count, a priced one's does (spend.ts).
import { describe, expect, it } from 'vitest';
import { CostLimit } from '../../src/runner/costLimit.ts';

describe("the cost limit's lower bound", () => {
  it('holds from the first finished pass with a response missing its token count, and stays', () => {
    const limit = new CostLimit(10);
    limit.admit('a/on/0', 'a', 0);
    limit.finished('a/on/0', 'a', 0.1);
    expect(limit.lowerBound).toBe(false);
    limit.admit('a/on/1', 'a', 0);
    limit.finished('a/on/1', 'a', 0.1, 2);
    expect(limit.lowerBound).toBe(true);
    limit.admit('a/on/2', 'a', 0);
    limit.finished('a/on/2', 'a', 0.1, 1);
    expect(limit.lowerBound).toBe(true);
  });
});
