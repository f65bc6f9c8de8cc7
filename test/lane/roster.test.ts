// The roster through the lane, counted at the wire: what each turn lists, what it offers,
// and the counters its tools.list event reports (README, "The reliability layer"; docs/incidents.md).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { Lane, LaneConfigError, MAX_LIST_PAGES } from '../../src/lane/index.ts';
import { MemoryTrace } from '../../src/trace/index.ts';
import { ScriptedServer, fakeClock, fixed } from './scripted.ts';

const tools = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => fixed(`${prefix}${i}`));
const REFRESH = 'harness__refresh_tools';

async function laneOver(servers: Record<string, ScriptedServer>, arm = 'on', clock = fakeClock()) {
  const trace = new MemoryTrace();
  const configs = Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { transport: s.transport }]));
  const lane = await Lane.connect({ servers: configs, arm, emit: trace.emit, clock: clock.now });
  return { lane, trace, clock };
}

describe('listing', () => {
  it('follows nextCursor across pages and offers every tool once', async () => {
    const server = new ScriptedServer(tools(7));
    server.pageSize = 3;
    const { lane } = await laneOver({ big: server });
    const turn = await lane.openTurn();
    await lane.close();
    expect(server.listings).toBe(3);
    expect(turn.tools.map((t) => t.name)).toEqual([...tools(7).map((t) => `big__${t.name}`), REFRESH]);
  });

  it(`stops after ${MAX_LIST_PAGES} pages`, async () => {
    const server = new ScriptedServer(tools(MAX_LIST_PAGES + 6));
    server.pageSize = 1;
    const { lane } = await laneOver({ big: server });
    const turn = await lane.openTurn();
    await lane.close();
    expect(server.listings).toBe(MAX_LIST_PAGES);
    expect(turn.tools).toHaveLength(MAX_LIST_PAGES + 1);
  });

  it('re-lists nothing on a warm turn, and re-lists a server after it sends list_changed', async () => {
    const a = new ScriptedServer([fixed('one')]);
    const b = new ScriptedServer([fixed('two')]);
    const { lane, trace } = await laneOver({ a, b });
    await lane.openTurn();
    await lane.openTurn();
    expect([a.listings, b.listings]).toEqual([1, 1]);
    await b.addTool(fixed('three'));
    const third = await lane.openTurn();
    await lane.close();
    expect([a.listings, b.listings]).toEqual([1, 2]);
    expect(third.tools.map((t) => t.name)).toEqual(['a__one', 'b__two', 'b__three', REFRESH]);
    const counters = trace.ofType('tools.list').map(({ reached, listed, cached }) => ({ reached, listed, cached }));
    expect(counters).toEqual([
      { reached: 2, listed: 2, cached: 0 },
      { reached: 0, listed: 0, cached: 2 },
      { reached: 1, listed: 1, cached: 1 },
    ]);
  });

  it('keeps the turn list fixed when a tool is added mid-turn (McpServer registerTool)', async () => {
    const mcp = new McpServer({ name: 'growing', version: '1.0.0' });
    mcp.registerTool('first', { description: 'the first' }, () => ({ content: [{ type: 'text', text: 'first' }] }));
    const [client, server] = InMemoryTransport.createLinkedPair();
    await mcp.connect(server);
    const lane = await Lane.connect({ servers: { grow: { transport: client } }, arm: 'on' });
    const before = await lane.openTurn();
    mcp.registerTool('second', { description: 'the second' }, () => ({ content: [{ type: 'text', text: 'second' }] }));
    await new Promise((resolve) => setImmediate(resolve));
    const midTurn = await lane.call('grow__second', {}, { round: 1 });
    const after = await lane.openTurn();
    const nextTurn = await lane.call('grow__second', {}, { round: 1 });
    await lane.close();
    expect(before.tools.map((t) => t.name)).toEqual(['grow__first', REFRESH]);
    expect(midTurn.outcome).toBe('failed');
    expect(after.tools.map((t) => t.name)).toEqual(['grow__first', 'grow__second', REFRESH]);
    expect([nextTurn.outcome, nextTurn.text]).toEqual(['ok', 'second']);
  });

  it('re-lists every server every turn with the roster off, and offers no harness tool', async () => {
    const a = new ScriptedServer([fixed('one')]);
    const { lane, trace } = await laneOver({ a }, 'roster=off');
    const turns = [await lane.openTurn(), await lane.openTurn(), await lane.openTurn()];
    await lane.close();
    expect(a.listings).toBe(3);
    expect(turns.map((t) => t.tools.map((x) => x.name))).toEqual([['a__one'], ['a__one'], ['a__one']]);
    expect(trace.ofType('tools.list').map((e) => e.cached)).toEqual([0, 0, 0]);
  });

  it('refuses two tools that qualify to one name, naming both', async () => {
    const server = new ScriptedServer([fixed('get.item'), fixed('get_item')]);
    const { lane } = await laneOver({ shop: server });
    await expect(lane.openTurn()).rejects.toThrow(LaneConfigError);
    await expect(lane.openTurn()).rejects.toThrow(/"get\.item".*"get_item".*"shop__get_item"/);
    await lane.close();
  });
});

describe('a failing listing', () => {
  it('falls back to the cached roster, so no turn is offered zero tools while a server has one', async () => {
    const server = new ScriptedServer([fixed('read')]);
    const { lane, trace, clock } = await laneOver({ files: server });
    const offered: number[] = [];
    offered.push((await lane.openTurn()).tools.length);
    server.failListing = true;
    for (let turn = 0; turn < 4; turn += 1) {
      await server.server.sendToolListChanged();
      clock.advance(10 * 60_000);
      offered.push((await lane.openTurn()).tools.length);
    }
    const call = await lane.call('files__read', {}, { round: 1 });
    await lane.close();
    expect(offered).toEqual([2, 2, 2, 2, 2]);
    expect(call.outcome).toBe('ok');
    expect(trace.ofType('tools.list').slice(1).map((e) => [e.reached, e.listed, e.registered, e.failed])).toEqual(
      Array(4).fill([1, 0, 1, ['files']]),
    );
  });

  it('offers zero tools with the roster off, which is what the mechanism prevents', async () => {
    const server = new ScriptedServer([fixed('read')]);
    const { lane } = await laneOver({ files: server }, 'roster=off');
    const first = await lane.openTurn();
    server.failListing = true;
    const second = await lane.openTurn();
    await lane.close();
    expect([first.tools.length, second.tools.length]).toEqual([1, 0]);
  });

  it('reports warm and backing-off turns with different counters, though neither makes a round trip', async () => {
    const warm = await laneOver({ up: new ScriptedServer([fixed('read')]) });
    await warm.lane.openTurn();
    await warm.lane.openTurn();
    await warm.lane.close();

    const down = new ScriptedServer([fixed('read')]);
    down.failListing = true;
    const backing = await laneOver({ down });
    await backing.lane.openTurn();
    const offered = await backing.lane.openTurn();
    await backing.lane.close();

    const pick = (trace: MemoryTrace) => {
      const { configured, reached, listed, registered, unavailable, cached } = trace.ofType('tools.list')[1]!;
      return { configured, reached, listed, registered, unavailable, cached };
    };
    expect(pick(warm.trace)).toEqual({ configured: 1, reached: 0, listed: 0, registered: 1, unavailable: 0, cached: 1 });
    expect(pick(backing.trace)).toEqual({ configured: 1, reached: 0, listed: 0, registered: 0, unavailable: 1, cached: 0 });
    expect(down.listings).toBe(1);
    expect(offered.tools).toEqual([]);
  });
});

describe('harness__refresh_tools', () => {
  it('marks every server stale, says this turn keeps its list, and the next turn re-lists', async () => {
    const a = new ScriptedServer([fixed('one')]);
    const b = new ScriptedServer([fixed('two')]);
    const { lane, trace } = await laneOver({ a, b });
    const turn = await lane.openTurn();
    const refresh = turn.tools.find((t) => t.name === REFRESH)!;
    expect(refresh.description).toMatch(/keeps the tool list it started with/);
    const result = await lane.call(REFRESH, {}, { round: 1 });
    expect(result.outcome).toBe('ok');
    expect(result.text).toMatch(/This turn still sees the tool list it started with/);
    expect([a.listings, b.listings]).toEqual([1, 1]);
    await lane.openTurn();
    await lane.close();
    expect([a.listings, b.listings]).toEqual([2, 2]);
    expect(trace.ofType('tool.call')[0]).toMatchObject({ server: 'harness', tool: 'refresh_tools', outcome: 'ok' });
  });

  it('is not offered when the roster is empty, and a call to it marks nothing for re-listing', async () => {
    const empty = new ScriptedServer([]);
    const { lane } = await laneOver({ empty });
    const turn = await lane.openTurn();
    const result = await lane.call(REFRESH, {}, { round: 1 });
    await lane.openTurn();
    await lane.close();
    expect(turn.tools).toEqual([]);
    expect(result.outcome).toBe('failed');
    expect(empty.listings).toBe(1);
  });
});
