// The roster cache and a server's `ttlMs`, through the lane, against the SDK v2 fixture server
// as a real process over stdio: its tools/list says the SDK's default ttlMs 0 (immediately
// stale) unless told a ttlMs. The tools.list event names the rule that decided each listing.
import { describe, expect, it } from 'vitest';
import { Lane } from '../../src/lane/index.ts';
import type { StdioServerConfig } from '../../src/lane/index.ts';
import type { TraceEventInput } from '../../src/trace/index.ts';
import { inheritedEnv, v2Stdio } from '../helpers/v2Server.ts';

type Listing = { listed: number; cached: number; rules?: Record<string, string> };

/** Three turns of a lane with `arm` over `server`, `gapMs` apart; what each turn's tools.list event said. */
async function threeTurns(server: StdioServerConfig, arm: string, gapMs = 0): Promise<Listing[]> {
  const events: TraceEventInput[] = [];
  await using lane = await Lane.connect({ servers: { v2: server }, arm, emit: (e) => events.push(e) });
  expect(lane.startErrors).toEqual([]);
  for (let turn = 0; turn < 3; turn += 1) {
    if (turn > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    await lane.openTurn();
  }
  return events.filter((e) => e.type === 'tools.list').map((e) => {
    const { listed, cached, rules } = e as unknown as Listing;
    return { listed, cached, ...(rules === undefined ? {} : { rules }) };
  });
}

const withTtl = (ttlMs: number): StdioServerConfig => {
  const server = v2Stdio('dual');
  return { ...server, env: { ...inheritedEnv(), V2_FIXTURE_TOOLS_TTL_MS: String(ttlMs) } };
};

describe("the roster cache and a server's ttlMs, through the lane", () => {
  it('gives a 2026-07-28 listing that says ttlMs 0 the cache\'s own TTL under on, and lists it every turn under roster=strict', async () => {
    expect(await threeTurns(v2Stdio('modern'), 'on')).toEqual([
      { listed: 1, cached: 0, rules: { v2: 'stale' } },
      { listed: 0, cached: 1, rules: { v2: 'own-ttl' } },
      { listed: 0, cached: 1, rules: { v2: 'own-ttl' } },
    ]);
    expect(await threeTurns(v2Stdio('modern'), 'roster=strict')).toEqual([
      { listed: 1, cached: 0, rules: { v2: 'stale' } },
      { listed: 1, cached: 0, rules: { v2: 'server-zero' } },
      { listed: 1, cached: 0, rules: { v2: 'server-zero' } },
    ]);
    // Off: no cache, no rules; every turn lists.
    expect(await threeTurns(v2Stdio('modern'), 'off')).toEqual([{ listed: 1, cached: 0 }, { listed: 1, cached: 0 }, { listed: 1, cached: 0 }]);
  });

  it("honours a positive ttlMs; and reads none from a 2025 listing, which has no hint, even under roster=strict", async () => {
    expect((await threeTurns(withTtl(3_600_000), 'roster=strict')).map((l) => l.rules)).toEqual([{ v2: 'stale' }, { v2: 'server-ttl' }, { v2: 'server-ttl' }]);
    // A ttlMs of 20 ms has passed by the next turn, 50 ms later.
    expect((await threeTurns(withTtl(20), 'on', 50)).map((l) => l.rules)).toEqual([{ v2: 'stale' }, { v2: 'server-ttl-expired' }, { v2: 'server-ttl-expired' }]);
    expect((await threeTurns({ ...v2Stdio('dual'), protocol: 'legacy' }, 'roster=strict')).map((l) => l.rules))
      .toEqual([{ v2: 'stale' }, { v2: 'own-ttl' }, { v2: 'own-ttl' }]);
  });
});
