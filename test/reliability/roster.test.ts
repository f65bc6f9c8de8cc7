import { describe, it, expect } from 'vitest';
import { MAX_SERVER_TTL_MS, REFRESH_DESCRIPTION, RosterCache } from '../../src/reliability/roster.ts';
import type { ListedTool, RosterOptions, TurnRoster } from '../../src/reliability/roster.ts';

// The clock starts far from zero so `now - listedAt` and `now + listedAt` differ.
const START = 1_000_000;

function setup(servers: string[], options: Omit<RosterOptions, 'servers' | 'clock'> = {}) {
  const clock = { now: START };
  const cache = new RosterCache({ servers, ...options, clock: () => clock.now });
  return { cache, clock };
}

function tools(...names: string[]): ListedTool[] {
  return names.map((name) => ({ name }));
}

function names(turn: TurnRoster): string[] {
  return turn.tools.map((tool) => tool.name);
}

/** Fails `server` `times` times in a row, each once its back-off has ended; returns the last failure time. */
function failRepeatedly(cache: RosterCache, clock: { now: number }, server: string, times: number): number {
  for (let i = 0; i < times; i += 1) {
    const giveUpAt = clock.now + 3_600_000;
    while (!cache.planListing().includes(server)) {
      clock.now += 1_000;
      if (clock.now > giveUpAt) throw new Error(`${server} was not planned again within an hour`);
    }
    cache.listingFailed(server);
  }
  return clock.now;
}

/** Asserts `server` is left out 1 ms before `failedAt + backoff` and planned at it. */
function expectBackoff(cache: RosterCache, clock: { now: number }, failedAt: number, backoff: number, label: string) {
  clock.now = failedAt + backoff - 1;
  expect(cache.planListing(), `${label}, 1 ms early`).toEqual([]);
  clock.now = failedAt + backoff;
  expect(cache.planListing(), `${label}, on time`).toEqual(['a']);
}

describe('RosterCache options', () => {
  it('refuses a ttlMs of 0, naming the field and value', () => {
    expect(() => setup(['a'], { ttlMs: 0 })).toThrow(new RangeError('roster option ttlMs must be > 0, got 0'));
  });

  it('refuses a negative ttlMs', () => {
    expect(() => setup(['a'], { ttlMs: -1 })).toThrow(/ttlMs must be > 0, got -1/);
  });

  it('refuses a ttlMs that is not a number', () => {
    expect(() => setup(['a'], { ttlMs: Number.NaN })).toThrow(/ttlMs must be > 0, got NaN/);
  });

  it('accepts a ttlMs of 1, after which a listing expires', () => {
    const { cache, clock } = setup(['a'], { ttlMs: 1 });
    cache.listed('a', tools('x'));
    expect(cache.planListing()).toEqual([]);
    clock.now += 1;
    expect(cache.planListing()).toEqual(['a']);
  });

  it('refuses a backoffBaseMs of 0, naming the field and value', () => {
    expect(() => setup(['a'], { backoffBaseMs: 0 })).toThrow(
      new RangeError('roster option backoffBaseMs must be > 0, got 0'),
    );
  });

  it('refuses a negative backoffBaseMs', () => {
    expect(() => setup(['a'], { backoffBaseMs: -1 })).toThrow(/backoffBaseMs must be > 0, got -1/);
  });

  it('accepts a backoffBaseMs of 1, backing off 1 ms after a first failure', () => {
    const { cache, clock } = setup(['a'], { backoffBaseMs: 1 });
    cache.listingFailed('a');
    expect(cache.planListing()).toEqual([]);
    clock.now += 1;
    expect(cache.planListing()).toEqual(['a']);
  });

  it('refuses a backoffMaxMs below backoffBaseMs, naming both values', () => {
    expect(() => setup(['a'], { backoffBaseMs: 1_000, backoffMaxMs: 999 })).toThrow(
      new RangeError('roster option backoffMaxMs must be >= backoffBaseMs (1000), got 999'),
    );
  });

  it('accepts a backoffMaxMs equal to backoffBaseMs, which keeps every back-off at that length', () => {
    const { cache, clock } = setup(['a'], { backoffBaseMs: 1_000, backoffMaxMs: 1_000 });
    expectBackoff(cache, clock, failRepeatedly(cache, clock, 'a', 3), 1_000, 'failure 3');
  });

  it('refuses a backoffMaxMs that is not a number', () => {
    expect(() => setup(['a'], { backoffMaxMs: Number.NaN })).toThrow(/backoffMaxMs must be >= backoffBaseMs \(5000\), got NaN/);
  });

  it('refuses a backoffBaseMs above the default cap unless a cap is given', () => {
    expect(() => setup(['a'], { backoffBaseMs: 300_001 })).toThrow(/got 300000$/);
    expect(() => setup(['a'], { backoffBaseMs: 300_000 })).not.toThrow();
  });

  it('refuses an invalid server name with the naming rule', () => {
    expect(() => setup(['files', 'My_Server'])).toThrow(
      'server name "My_Server" is not allowed: use only lowercase letters, digits and "-"',
    );
  });

  it('refuses the reserved harness server name', () => {
    expect(() => setup(['harness'])).toThrow(/"harness" is reserved/);
  });

  it('refuses a server configured twice', () => {
    expect(() => setup(['a', 'b', 'a'])).toThrow(
      'server name "a" is configured twice: give each server its own name',
    );
  });

  it('accepts an empty server list', () => {
    const { cache } = setup([]);
    expect(cache.planListing()).toEqual([]);
    expect(cache.assemble([]).counters.configured).toBe(0);
  });

  it('reads the wall clock when no clock is given', () => {
    const cache = new RosterCache({ servers: ['a'] });
    cache.listed('a', tools('x'));
    expect(cache.planListing()).toEqual([]);
    cache.listingFailed('a');
    cache.markStale('a');
    expect(cache.planListing()).toEqual([]);
  });

  it('rejects a server that is not configured', () => {
    const { cache } = setup(['a']);
    expect(() => cache.listed('b', [])).toThrow('roster: server "b" is not configured');
    expect(() => cache.listingFailed('b')).toThrow(/"b" is not configured/);
    expect(() => cache.markStale('b')).toThrow(/"b" is not configured/);
    expect(() => cache.assemble(['b'])).toThrow(/"b" is not configured/);
  });
});

describe('RosterCache.planListing', () => {
  it('plans every never-listed server, in configured order', () => {
    const { cache } = setup(['b', 'a', 'c']);
    expect(cache.planListing()).toEqual(['b', 'a', 'c']);
  });

  it('leaves out a server listed within its TTL, even one that listed no tools', () => {
    const { cache } = setup(['a', 'b', 'c']);
    cache.listed('a', tools('x'));
    cache.listed('c', []);
    expect(cache.planListing()).toEqual(['b']);
  });

  it('keeps a listing 1 ms before the default one-hour TTL', () => {
    const { cache, clock } = setup(['a']);
    cache.listed('a', tools('x'));
    clock.now += 3_599_999;
    expect(cache.planListing()).toEqual([]);
  });

  it('re-lists exactly when the default one-hour TTL is reached', () => {
    const { cache, clock } = setup(['a']);
    cache.listed('a', tools('x'));
    clock.now += 3_600_000;
    expect(cache.planListing()).toEqual(['a']);
  });

  it('measures a custom TTL from the listing: fresh 1 ms before, expired at the TTL', () => {
    const { cache, clock } = setup(['a', 'b'], { ttlMs: 10_000 });
    cache.listed('a', tools('x'));
    clock.now += 4_000;
    cache.listed('b', tools('y'));
    clock.now += 5_999;
    expect(cache.planListing()).toEqual([]);
    clock.now += 1;
    expect(cache.planListing()).toEqual(['a']);
    clock.now += 4_000;
    expect(cache.planListing()).toEqual(['a', 'b']);
  });

  it('plans a server marked stale, and only that one', () => {
    const { cache } = setup(['a', 'b']);
    cache.listed('a', tools('x'));
    cache.listed('b', tools('y'));
    cache.markStale('b');
    expect(cache.planListing()).toEqual(['b']);
  });

  it('plans every server after markAllStale', () => {
    const { cache } = setup(['a', 'b', 'c']);
    for (const server of ['a', 'b', 'c']) cache.listed(server, tools('x'));
    cache.markAllStale();
    expect(cache.planListing()).toEqual(['a', 'b', 'c']);
  });

  it('clears the stale mark on a successful listing', () => {
    const { cache } = setup(['a']);
    cache.listed('a', tools('x'));
    cache.markStale('a');
    cache.listed('a', tools('x'));
    expect(cache.planListing()).toEqual([]);
  });
});

describe('RosterCache back-off', () => {
  it('waits the 5 s default base after a first failure: not at 4_999 ms, again at 5_000 ms', () => {
    const { cache, clock } = setup(['a', 'b']);
    cache.listingFailed('a');
    clock.now += 4_999;
    expect(cache.planListing()).toEqual(['b']);
    clock.now += 1;
    expect(cache.planListing()).toEqual(['a', 'b']);
  });

  it('doubles per consecutive failure', () => {
    const { cache, clock } = setup(['a']);
    expectBackoff(cache, clock, failRepeatedly(cache, clock, 'a', 2), 10_000, 'failure 2');
    expectBackoff(cache, clock, failRepeatedly(cache, clock, 'a', 1), 20_000, 'failure 3');
    expectBackoff(cache, clock, failRepeatedly(cache, clock, 'a', 1), 40_000, 'failure 4');
  });

  it('doubles up to the 300 s default cap and stays there', () => {
    const { cache, clock } = setup(['a']);
    expectBackoff(cache, clock, failRepeatedly(cache, clock, 'a', 6), 160_000, 'failure 6');
    expectBackoff(cache, clock, failRepeatedly(cache, clock, 'a', 1), 300_000, 'failure 7');
    expectBackoff(cache, clock, failRepeatedly(cache, clock, 'a', 1), 300_000, 'failure 8');
  });

  it('reaches a custom cap exactly and never passes it', () => {
    const { cache, clock } = setup(['a'], { backoffBaseMs: 1_000, backoffMaxMs: 4_000 });
    expectBackoff(cache, clock, failRepeatedly(cache, clock, 'a', 2), 2_000, 'failure 2');
    expectBackoff(cache, clock, failRepeatedly(cache, clock, 'a', 1), 4_000, 'failure 3, uncapped equals cap');
    expectBackoff(cache, clock, failRepeatedly(cache, clock, 'a', 1), 4_000, 'failure 4, capped');
  });

  it('starts again from the base after a successful listing', () => {
    const { cache, clock } = setup(['a']);
    failRepeatedly(cache, clock, 'a', 3);
    clock.now += 20_000;
    cache.listed('a', tools('x'));
    cache.markStale('a');
    cache.listingFailed('a');
    expectBackoff(cache, clock, clock.now, 5_000, 'failure after a success');
  });

  it('ends the back-off at once when a listing succeeds during it', () => {
    const { cache, clock } = setup(['a']);
    cache.listingFailed('a');
    clock.now += 1;
    cache.listed('a', tools('x'));
    cache.markStale('a');
    expect(cache.planListing()).toEqual(['a']);
  });

  it('is not cut short by markStale or markAllStale', () => {
    const { cache, clock } = setup(['a']);
    cache.listed('a', tools('x'));
    cache.markStale('a');
    cache.listingFailed('a');
    cache.markStale('a');
    cache.markAllStale();
    clock.now += 4_999;
    expect(cache.planListing()).toEqual([]);
  });

  it('keeps a server whose listing failed due for re-listing once the back-off ends', () => {
    const { cache, clock } = setup(['a']);
    cache.listed('a', tools('x'));
    clock.now += 3_600_000;
    cache.listingFailed('a');
    clock.now += 5_000;
    expect(cache.planListing()).toEqual(['a']);
  });
});

describe('RosterCache.assemble counters', () => {
  it('reads a warm roster as every server cached, with no round trip', () => {
    const { cache, clock } = setup(['a', 'b', 'c']);
    for (const server of cache.planListing()) cache.listed(server, tools('x'));
    expect(cache.assemble(['a', 'b', 'c']).counters).toEqual({
      configured: 3, reached: 3, listed: 3, registered: 3, unavailable: 0, cached: 0,
    });
    clock.now += 60_000;
    expect(cache.planListing()).toEqual([]);
    const warm = cache.assemble([]);
    expect(warm.counters).toEqual({
      configured: 3, reached: 0, listed: 0, registered: 3, unavailable: 0, cached: 3,
    });
    expect(names(warm)).toEqual(['a__x', 'b__x', 'c__x']);
  });

  it('reads a roster where every server is backing off with nothing cached as all unavailable', () => {
    const { cache, clock } = setup(['a', 'b', 'c']);
    for (const server of cache.planListing()) cache.listingFailed(server);
    expect(cache.assemble(['a', 'b', 'c']).counters).toEqual({
      configured: 3, reached: 3, listed: 0, registered: 0, unavailable: 3, cached: 0,
    });
    clock.now += 1_000;
    expect(cache.planListing()).toEqual([]);
    const down = cache.assemble([]);
    expect(down.counters).toEqual({
      configured: 3, reached: 0, listed: 0, registered: 0, unavailable: 3, cached: 0,
    });
    expect(down.tools).toEqual([]);
  });

  it('reads warm and backing-off rosters differently though neither reaches a server', () => {
    const warm = setup(['a', 'b']);
    warm.cache.listed('a', tools('x'));
    warm.cache.listed('b', tools('y'));
    warm.cache.assemble(['a', 'b']);
    const down = setup(['a', 'b']);
    down.cache.listingFailed('a');
    down.cache.listingFailed('b');
    down.cache.assemble(['a', 'b']);
    const warmCounters = warm.cache.assemble([]).counters;
    const downCounters = down.cache.assemble([]).counters;
    expect(warmCounters.reached).toBe(downCounters.reached);
    expect(warmCounters).not.toEqual(downCounters);
  });

  it('reads a mixed roster: cached, fresh, failed with cache, backing off, and listed empty', () => {
    const { cache, clock } = setup(['warm', 'fresh', 'flaky', 'down', 'empty']);
    cache.listed('warm', tools('w'));
    cache.listed('flaky', tools('f'));
    cache.listingFailed('down');
    cache.assemble(['warm', 'flaky', 'down']);
    clock.now += 1_000;
    cache.markStale('flaky');
    const plan = cache.planListing();
    expect(plan).toEqual(['fresh', 'flaky', 'empty']);
    cache.listed('fresh', tools('n1', 'n2'));
    cache.listingFailed('flaky');
    cache.listed('empty', []);
    const turn = cache.assemble(plan);
    expect(turn.counters).toEqual({
      configured: 5, reached: 3, listed: 2, registered: 3, unavailable: 2, cached: 1,
    });
    expect(names(turn)).toEqual(['warm__w', 'fresh__n1', 'fresh__n2', 'flaky__f']);
  });

  it('still registers the cached tools of a server whose listing failed', () => {
    const { cache } = setup(['a']);
    cache.listed('a', tools('x'));
    cache.assemble(['a']);
    cache.markStale('a');
    cache.listingFailed('a');
    const turn = cache.assemble(['a']);
    expect(names(turn)).toEqual(['a__x']);
    expect(turn.counters).toEqual({
      configured: 1, reached: 1, listed: 0, registered: 1, unavailable: 0, cached: 0,
    });
  });

  it('counts as listed only the successes of this turn', () => {
    const { cache } = setup(['a', 'b']);
    cache.listed('a', tools('x'));
    cache.listed('b', tools('y'));
    expect(cache.assemble(['a', 'b']).counters.listed).toBe(2);
    cache.listingFailed('a');
    expect(cache.assemble(['a']).counters.listed).toBe(0);
  });

  it('counts a server reached twice once', () => {
    const { cache } = setup(['a', 'b']);
    cache.listed('a', tools('x'));
    const counters = cache.assemble(['a', 'a']).counters;
    expect(counters.reached).toBe(1);
    expect(counters.listed).toBe(1);
  });
});

describe('RosterCache.assemble tools', () => {
  it('offers qualified names in configured order, then each server\'s order', () => {
    const { cache } = setup(['b', 'a']);
    const listedX = { name: 'x', description: 'first' };
    cache.listed('a', [listedX, { name: 'get.sum' }]);
    cache.listed('b', tools('z'));
    const turn = cache.assemble(['a', 'b']);
    expect(names(turn)).toEqual(['b__z', 'a__x', 'a__get_sum']);
    expect(turn.tools[1]).toEqual({ name: 'a__x', server: 'a', tool: listedX });
    expect(turn.tools[2]?.tool.name).toBe('get.sum');
  });

  it('offers the refresh tool if and only if the tool list is non-empty', () => {
    const { cache } = setup(['a', 'b']);
    cache.listed('a', []);
    const empty = cache.assemble(['a']);
    expect(empty.tools).toEqual([]);
    expect(empty.refreshOffered).toBe(false);
    cache.listed('b', tools('y'));
    expect(cache.assemble(['b']).refreshOffered).toBe(true);
  });

  it('hands out a frozen list', () => {
    const { cache } = setup(['a']);
    cache.listed('a', tools('x'));
    const turn = cache.assemble(['a']);
    expect(Object.isFrozen(turn)).toBe(true);
    expect(Object.isFrozen(turn.tools)).toBe(true);
    expect(Object.isFrozen(turn.tools[0])).toBe(true);
    expect(Object.isFrozen(turn.counters)).toBe(true);
  });

  it('keeps the turn\'s list when the server is listed again', () => {
    const { cache } = setup(['a']);
    cache.listed('a', tools('x', 'y'));
    const turn = cache.assemble(['a']);
    cache.listed('a', tools('z'));
    expect(names(turn)).toEqual(['a__x', 'a__y']);
    expect(names(cache.assemble(['a']))).toEqual(['a__z']);
  });

  it('keeps the cache when the caller changes the array it listed', () => {
    const { cache } = setup(['a']);
    const listedTools = tools('x');
    cache.listed('a', listedTools);
    listedTools.push({ name: 'late' });
    expect(names(cache.assemble(['a']))).toEqual(['a__x']);
  });

  it('fails on two tools of one server that qualify to the same name, naming both', () => {
    const { cache } = setup(['a', 'calc']);
    cache.listed('a', tools('x'));
    cache.listed('calc', tools('get.sum', 'other', 'get_sum'));
    expect(() => cache.assemble(['a', 'calc'])).toThrow(
      'tool name collision: server "calc" tool "get.sum" and server "calc" tool "get_sum" are both ' +
        'named "calc__get_sum"; rename one of them or remove the server',
    );
  });

  it('fails on a server listing the same name twice', () => {
    const { cache } = setup(['a']);
    cache.listed('a', tools('x', 'x'));
    expect(() => cache.assemble(['a'])).toThrow(/server "a" tool "x" and server "a" tool "x" are both named "a__x"/);
  });

  it('allows the same tool name on two servers', () => {
    const { cache } = setup(['a', 'b']);
    cache.listed('a', tools('x'));
    cache.listed('b', tools('x'));
    expect(names(cache.assemble(['a', 'b']))).toEqual(['a__x', 'b__x']);
  });
});

describe('RosterCache.refresh', () => {
  it('marks every server stale and says this turn keeps its list', () => {
    const { cache } = setup(['a', 'b', 'c']);
    cache.listed('a', tools('x'));
    cache.listed('b', []);
    cache.listed('c', tools('z'));
    const turn = cache.assemble(['a', 'b', 'c']);
    expect(cache.planListing()).toEqual([]);
    expect(cache.refresh(turn)).toEqual({
      ok: true,
      text:
        'Marked 3 servers to be listed again when the next turn opens. This turn still sees the ' +
        'tool list it started with; any change shows up only in the next turn.',
    });
    expect(cache.planListing()).toEqual(['a', 'b', 'c']);
    expect(names(turn)).toEqual(['a__x', 'c__z']);
  });

  it('counts a single server in the singular', () => {
    const { cache } = setup(['a']);
    cache.listed('a', tools('x'));
    expect(cache.refresh(cache.assemble(['a'])).text).toMatch(/^Marked 1 server to be listed again/);
  });

  it('refuses on a turn offered no tools and marks nothing', () => {
    const { cache } = setup(['a']);
    cache.listed('a', []);
    const turn = cache.assemble(['a']);
    expect(cache.refresh(turn)).toEqual({
      ok: false,
      text: 'Not refreshed: this turn was offered no tools, so there is no tool list to refresh.',
    });
    expect(cache.planListing()).toEqual([]);
  });

  it('refuses when no server is configured', () => {
    const { cache } = setup([]);
    expect(cache.refresh(cache.assemble([])).ok).toBe(false);
  });

  it('describes the tool as re-listing, changing the list only from the next turn', () => {
    expect(REFRESH_DESCRIPTION).toMatch(/^Asks for every MCP server to be listed again\. It does not change the tools you can use in this turn/);
    expect(REFRESH_DESCRIPTION).toMatch(/this turn keeps the tool list it started with/);
    expect(REFRESH_DESCRIPTION).toMatch(/the next turn starts with a fresh listing/);
  });
});

describe("RosterCache and a server's ttlMs (the 2026-07-28 caching hint)", () => {
  /** The rules the next turn reports, after planning it. */
  function rulesOf(cache: RosterCache): Record<string, string> {
    cache.planListing();
    return { ...cache.assemble([]).rules };
  }

  it('keeps a listing fresh for the positive ttlMs it carried, shorter than its own TTL: cached up to 1 ms before, listed at it', () => {
    const { cache, clock } = setup(['a'], { ttlMs: 60_000 });
    cache.listed('a', tools('x'), 5_000);
    clock.now += 4_999;
    expect(cache.planListing()).toEqual([]);
    expect(cache.assemble([]).rules).toEqual({ a: 'server-ttl' });
    clock.now += 1;
    expect(cache.planListing()).toEqual(['a']);
    expect(cache.assemble(['a']).rules).toEqual({ a: 'server-ttl-expired' });
  });

  it('honours a ttlMs longer than its own TTL, up to a day and no longer', () => {
    const { cache, clock } = setup(['a'], { ttlMs: 60_000 });
    cache.listed('a', tools('x'), 7_200_000);
    clock.now += 7_199_999;
    expect(rulesOf(cache)).toEqual({ a: 'server-ttl' });
    clock.now += 1;
    expect(rulesOf(cache)).toEqual({ a: 'server-ttl-expired' });
    const later = setup(['a'], { ttlMs: 60_000 });
    later.cache.listed('a', tools('x'), 10 * MAX_SERVER_TTL_MS);
    later.clock.now += MAX_SERVER_TTL_MS - 1;
    expect(rulesOf(later.cache)).toEqual({ a: 'server-ttl' });
    later.clock.now += 1;
    expect(rulesOf(later.cache)).toEqual({ a: 'server-ttl-expired' });
  });

  it('gives a ttlMs of 0 its own TTL by default, and lists it every turn when strict', () => {
    const own = setup(['a'], { ttlMs: 60_000 });
    own.cache.listed('a', tools('x'), 0);
    own.clock.now += 59_999;
    expect(own.cache.planListing()).toEqual([]);
    expect(own.cache.assemble([]).rules).toEqual({ a: 'own-ttl' });
    own.clock.now += 1;
    expect(rulesOf(own.cache)).toEqual({ a: 'own-ttl-expired' });
    const strict = setup(['a'], { ttlMs: 60_000, zeroTtl: 'strict' });
    strict.cache.listed('a', tools('x'), 0);
    expect(strict.cache.planListing()).toEqual(['a']);
    expect(strict.cache.assemble(['a']).rules).toEqual({ a: 'server-zero' });
  });

  it('gives a 2025 listing (no hint) its own TTL even when strict', () => {
    const { cache, clock } = setup(['a'], { ttlMs: 60_000, zeroTtl: 'strict' });
    cache.listed('a', tools('x'));
    clock.now += 59_999;
    expect(rulesOf(cache)).toEqual({ a: 'own-ttl' });
    clock.now += 1;
    expect(rulesOf(cache)).toEqual({ a: 'own-ttl-expired' });
  });

  it('forgets the hint a listing carried once the next one carries none', () => {
    const { cache, clock } = setup(['a'], { ttlMs: 60_000 });
    cache.listed('a', tools('x'), 1_000);
    cache.listed('a', tools('x'));
    clock.now += 1_000;
    expect(rulesOf(cache)).toEqual({ a: 'own-ttl' });
  });

  it('lets list_changed (markStale) and a back-off win over any ttlMs, and names each rule', () => {
    const { cache, clock } = setup(['a', 'b', 'c'], { ttlMs: 60_000 });
    expect(rulesOf(cache)).toEqual({ a: 'stale', b: 'stale', c: 'stale' });
    cache.listed('a', tools('x'), 3_600_000);
    cache.listed('b', tools('y'), 3_600_000);
    cache.markStale('b');
    cache.listingFailed('c');
    expect(cache.planListing()).toEqual(['b']);
    expect(cache.assemble(['b']).rules).toEqual({ a: 'server-ttl', b: 'stale', c: 'backoff' });
    // Reported once: the next turn's rules are the next planning's.
    clock.now += 1;
    expect(cache.assemble([]).rules).toEqual({});
  });
});
