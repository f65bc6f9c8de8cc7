// The gateway soak's memory verdict (bench/soakMemory.ts) reads a leak, not the machine: it is
// drawn from counts at idle moments, so these snapshots stand for any run's.
import { describe, expect, it } from 'vitest';
import { FD_LIMIT, HEAP_LIMIT_KB_PER_1000, memoryVerdict, slope } from '../../bench/soakMemory.ts';
import type { HeapCount } from '../../bench/soakMemory.ts';

const MB = 1024 * 1024;
const snap = (done: number, bytes: number, fds = 40, byName: Record<string, number> = {}): HeapCount => ({
  done, bytes, fds, byName: new Map(Object.entries(byName).map(([name, b]) => [name, { count: Math.round(b / 100), bytes: b }])),
});
/** A side whose live heap grows `kbPerCall` over 10,000 calls, with three snapshots. */
const side = (base: number, kbPer1000: number, fds: [number, number, number] = [40, 40, 40]): HeapCount[] =>
  [0, 5_000, 10_000].map((done, i) => snap(done, base + kbPer1000 * 1024 * done / 1000, fds[i], { Socket: kbPer1000 * done }));

describe("the soak's memory verdict", () => {
  it('passes a flat heap and flat descriptors, and names the figures', () => {
    const verdict = memoryVerdict(side(20 * MB, 0), side(15 * MB, 0), 10_000);
    expect(verdict.problems).toEqual([]);
    expect(verdict.figures).toMatchObject({ gatewaySoakLiveHeapMb: '20 / 20 / 20', gatewaySoakLiveHeapKbPer1000: 0, gatewaySoakIdleFds: '40 / 40 / 40' });
  });

  it('fails a heap that grows past the limit per 1,000 calls, and names what grew', () => {
    const verdict = memoryVerdict(side(20 * MB, HEAP_LIMIT_KB_PER_1000 + 10), side(15 * MB, 0), 10_000);
    const socketBytes = (HEAP_LIMIT_KB_PER_1000 + 10) * 10_000;
    expect(verdict.problems).toEqual([`the live heap grew ${HEAP_LIMIT_KB_PER_1000 + 10} kB per 1,000 calls (limit ${HEAP_LIMIT_KB_PER_1000}; the bare proxy's 0); grew most: Socket +${socketBytes / 100} (+${Math.round(socketBytes / 1024)} kB)`]);
  });

  it('passes growth at the limit', () => {
    expect(memoryVerdict(side(20 * MB, HEAP_LIMIT_KB_PER_1000), side(15 * MB, 0), 10_000).problems).toEqual([]);
  });

  it("allows what the floor grew too, but not a shrinking floor's credit", () => {
    expect(memoryVerdict(side(20 * MB, HEAP_LIMIT_KB_PER_1000 + 50), side(15 * MB, 60), 10_000).problems).toEqual([]);
    expect(memoryVerdict(side(20 * MB, HEAP_LIMIT_KB_PER_1000 + 50), side(15 * MB, -60), 10_000).problems).toHaveLength(1);
  });

  it('reads growth per 1,000 calls whatever the soak length', () => {
    const long = [0, 15_000, 30_000].map((done) => snap(done, 20 * MB + 50 * 1024 * done / 1000));
    expect(memoryVerdict(long, side(15 * MB, 0), 30_000).figures.gatewaySoakLiveHeapKbPer1000).toBe(50);
  });

  it('fails descriptors that grow past the limit, from the first idle count to the last', () => {
    expect(memoryVerdict(side(20 * MB, 0, [40, 45, 40 + FD_LIMIT]), side(15 * MB, 0), 10_000).problems).toEqual([]);
    expect(memoryVerdict(side(20 * MB, 0, [40, 45, 41 + FD_LIMIT]), side(15 * MB, 0), 10_000).problems)
      .toEqual([`${FD_LIMIT + 1} more open descriptors after the calls than after the warm-up (limit ${FD_LIMIT}; the bare proxy's 0)`]);
  });
});

describe('slope', () => {
  it('is the least-squares slope, NaN with fewer than two distinct points', () => {
    expect(slope([[0, 1], [1, 3], [2, 5]])).toBe(2);
    expect(slope([[0, 1], [1, 2], [2, 1]])).toBe(0);
    expect(slope([[1, 1]])).toBeNaN();
    expect(slope([[1, 1], [1, 2]])).toBeNaN();
  });
});
