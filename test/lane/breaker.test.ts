// The breaker incidents end to end through the lane (docs/incidents.md, "A dead tool called six
// times in one turn"): a dead tool re-sent within
// a turn, and a dead server rediscovered every turn.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Lane } from '../../src/lane/index.ts';
import { MemoryTrace } from '../../src/trace/index.ts';
import { ScriptedServer, dead, fakeClock, fixed, text, toolError } from './scripted.ts';

const NAVIGATE = 'browser__browser_navigate';
const ARGS = { url: 'https://artifacts.example/review/42' };

async function laneOver(server: ScriptedServer, arm: string, clock = fakeClock()) {
  const trace = new MemoryTrace();
  const lane = await Lane.connect({ servers: { browser: { transport: server.transport } }, arm, emit: trace.emit, clock: clock.now });
  return { lane, trace, clock };
}

describe('within a turn', () => {
  it('sends a dead call once with the breaker on, and answers the five re-sends with the recorded error', async () => {
    const server = new ScriptedServer([dead('browser_navigate')]);
    const { lane, trace } = await laneOver(server, 'on');
    await lane.openTurn();
    const results = [];
    for (const round of [1, 5, 7, 7, 9, 9]) results.push(await lane.call(NAVIGATE, ARGS, { round }));
    await lane.close();

    expect(server.callsTo('browser_navigate')).toBe(1);
    expect(results.map((r) => r.outcome)).toEqual(['failed', 'refused', 'refused', 'refused', 'refused', 'refused']);
    expect(results[1]!.text).toContain('upstream MCP session is closed');
    expect(results[1]!.text).toContain('round 1');
    expect(results.every((r) => r.isError)).toBe(true);
    expect(trace.ofType('tool.call').map((e) => e.outcome)).toEqual(results.map((r) => r.outcome));
  });

  it('sends all six with the breaker off', async () => {
    const server = new ScriptedServer([dead('browser_navigate')]);
    const { lane } = await laneOver(server, 'breaker=off,circuit=off');
    await lane.openTurn();
    for (const round of [1, 5, 7, 7, 9, 9]) await lane.call(NAVIGATE, ARGS, { round });
    await lane.close();
    expect(server.callsTo('browser_navigate')).toBe(6);
  });

  it('still sends a corrected call, and sends the failed one again in the next turn', async () => {
    const server = new ScriptedServer([dead('browser_navigate')]);
    const { lane } = await laneOver(server, 'circuit=off');
    await lane.openTurn();
    await lane.call(NAVIGATE, ARGS, { round: 1 });
    const corrected = await lane.call(NAVIGATE, { url: 'https://artifacts.example/review/43' }, { round: 2 });
    await lane.openTurn();
    const nextTurn = await lane.call(NAVIGATE, ARGS, { round: 1 });
    await lane.close();
    expect([corrected.outcome, nextTurn.outcome]).toEqual(['failed', 'failed']);
    expect(server.callsTo('browser_navigate')).toBe(3);
  });

  it('refuses a corrected call too when keyed on the tool (breaker=tool)', async () => {
    const server = new ScriptedServer([dead('browser_navigate')]);
    const { lane } = await laneOver(server, 'breaker=tool,circuit=off');
    await lane.openTurn();
    await lane.call(NAVIGATE, ARGS, { round: 1 });
    const corrected = await lane.call(NAVIGATE, { url: 'https://artifacts.example/review/43' }, { round: 2 });
    await lane.close();
    expect(corrected.outcome).toBe('refused');
    expect(server.callsTo('browser_navigate')).toBe(1);
  });
});

describe('across turns', () => {
  it('answers "unavailable" in the fourth turn without a round trip, and a probe after the cool-down closes it', async () => {
    let up = false;
    const server = new ScriptedServer([
      { name: 'browser_navigate', handler: () => (up ? text('navigated') : toolError('upstream MCP session is closed')) },
    ]);
    const { lane, trace, clock } = await laneOver(server, 'on');
    for (let turn = 1; turn <= 3; turn += 1) {
      await lane.openTurn();
      expect((await lane.call(NAVIGATE, ARGS, { round: 1 })).outcome).toBe('failed');
    }
    await lane.openTurn();
    const fourth = await lane.call(NAVIGATE, ARGS, { round: 1 });
    expect(fourth.outcome).toBe('unavailable');
    expect(fourth.text).toMatch(/server browser unavailable since .* after 3 failures, retry after 60 s/);
    expect(server.callsTo('browser_navigate')).toBe(3);

    up = true;
    clock.advance(60_000);
    await lane.openTurn();
    const probe = await lane.call(NAVIGATE, ARGS, { round: 1 });
    const after = await lane.call(NAVIGATE, { url: 'https://artifacts.example/other' }, { round: 2 });
    await lane.close();
    expect([probe.outcome, after.outcome]).toEqual(['ok', 'ok']);
    expect(server.callsTo('browser_navigate')).toBe(5);
    const calls = trace.ofType('tool.call');
    expect(calls.map((e) => e.probe === true)).toEqual([false, false, false, false, true, false]);
  });

  it('re-opens when the probe fails, and keeps every tool of the server in the roster', async () => {
    const server = new ScriptedServer([dead('browser_navigate'), fixed('browser_snapshot')]);
    const { lane, clock } = await laneOver(server, 'on');
    for (let turn = 1; turn <= 3; turn += 1) {
      await lane.openTurn();
      await lane.call(NAVIGATE, ARGS, { round: 1 });
    }
    clock.advance(60_000);
    const turn = await lane.openTurn();
    expect((await lane.call(NAVIGATE, ARGS, { round: 1 })).outcome).toBe('failed');
    expect((await lane.call('browser__browser_snapshot', {}, { round: 2 })).outcome).toBe('unavailable');
    await lane.close();
    expect(turn.tools.map((t) => t.name)).toEqual([NAVIGATE, 'browser__browser_snapshot', 'harness__refresh_tools']);
    expect(server.callsTo('browser_navigate')).toBe(4);
    expect(server.callsTo('browser_snapshot')).toBe(0);
  });

  it('keeps calling a failing server every turn with the circuit off', async () => {
    const server = new ScriptedServer([dead('browser_navigate')]);
    const { lane } = await laneOver(server, 'circuit=off');
    for (let turn = 1; turn <= 5; turn += 1) {
      await lane.openTurn();
      await lane.call(NAVIGATE, ARGS, { round: 1 });
    }
    await lane.close();
    expect(server.callsTo('browser_navigate')).toBe(5);
  });
});

describe('across a restart of the server within a turn', () => {
  const CRASHY = fileURLToPath(new URL('../fixtures/crashy-server.mjs', import.meta.url));

  it('refuses the identical call while the server that failed it runs, and sends it to the one that replaced it', async () => {
    // The crashy fixture's crash exits the process once; after a restart the same call answers.
    const dir = mkdtempSync(join(tmpdir(), 'ladder-breaker-'));
    const servers = { a: { command: 'node', args: [CRASHY], env: { CRASHY_CRASHED: join(dir, 'crashed') } } };
    const trace = new MemoryTrace();
    await using lane = await Lane.connect({ servers, arm: 'on', emit: trace.emit });
    await lane.openTurn();
    expect(lane.incarnation('a')).toBe(0);
    const crashed = await lane.call('a__crash', { n: 1 }, { round: 1 });
    const again = await lane.call('a__crash', { n: 1 }, { round: 2 });
    await lane.reconnect('a');
    expect(lane.incarnation('a')).toBe(1);
    const restarted = await lane.call('a__crash', { n: 1 }, { round: 3 });
    const failed = await lane.call('a__fail', {}, { round: 4 });
    const refused = await lane.call('a__fail', {}, { round: 5 });
    expect(crashed).toMatchObject({ outcome: 'failed' });
    expect(crashed.text).toMatch(/Connection closed/);
    expect(again).toMatchObject({ outcome: 'refused', text: `${crashed.text}\nNot sent again: the identical call failed at round 1 of this turn with the error above.` });
    expect(restarted).toMatchObject({ outcome: 'ok', text: 'crash survived {"n":1}' });
    expect([failed.outcome, refused.outcome]).toEqual(['failed', 'refused']);
    expect(trace.ofType('tool.call').map((e) => [e.turn, e.outcome])).toEqual([[1, 'failed'], [1, 'refused'], [1, 'ok'], [1, 'failed'], [1, 'refused']]);
  });
});
