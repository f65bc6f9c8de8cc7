// Calls through the lane: deadlines, progress, the repeat short-circuit, and what each
// tool.call event records.
import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { CancelledNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Lane } from '../../src/lane/index.ts';
import type { LaneOptions } from '../../src/lane/index.ts';
import { MemoryTrace } from '../../src/trace/index.ts';
import { ScriptedServer, fixed, text } from './scripted.ts';
import type { Extra, ScriptedTool } from './scripted.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sleeps `totalMs`, sending a progress notification every `everyMs` when asked for one. */
function slow(name: string, totalMs: number, everyMs = totalMs): ScriptedTool {
  return {
    name,
    handler: async (_args, extra: Extra) => {
      const token = extra._meta?.progressToken;
      for (let done = everyMs; done <= totalMs; done += everyMs) {
        await sleep(everyMs);
        if (token !== undefined) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total: totalMs } });
        }
      }
      return text(`${name} finished`);
    },
  };
}

async function laneOver(server: ScriptedServer, options: Partial<LaneOptions> = {}) {
  const trace = new MemoryTrace();
  const lane = await Lane.connect({ servers: { s: { transport: server.transport } }, emit: trace.emit, ...options });
  await lane.openTurn();
  return { lane, trace };
}

describe('deadline', () => {
  it('ends a call that outlives its timeout as "timeout" and tells the model it may still be running', async () => {
    const { lane, trace } = await laneOver(new ScriptedServer([slow('build', 400)]), { callTimeoutMs: 60 });
    const result = await lane.call('s__build', {}, { round: 1 });
    await lane.close();
    expect(result.outcome).toBe('timeout');
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/no answer within \d+\.\d s .* may still be running/);
    expect(trace.ofType('tool.call')[0]!['error.type']).toBe('timeout');
  });

  it('leaves nothing on the step\'s signal once a call is answered, and cancels no call that already was', async () => {
    // Twelve calls: the SDK's own listener on each request's signal would cross Node's limit of 10.
    const server = new ScriptedServer([fixed('look', 'seen')]);
    const cancels: unknown[] = [];
    server.server.setNotificationHandler(CancelledNotificationSchema, (n) => void cancels.push(n.params.requestId));
    const { lane } = await laneOver(server);
    const step = new AbortController();
    for (let round = 1; round <= 12; round += 1) {
      expect((await lane.call('s__look', { round }, { round, signal: step.signal })).outcome).toBe('ok');
    }
    expect(getEventListeners(step.signal, 'abort')).toEqual([]);
    step.abort(new Error('the step time limit passed'));
    await lane.call('s__look', {}, { round: 13 });
    await lane.close();
    expect(cancels).toEqual([]);
  });

  it('stops waiting for a call when its step stops, asks the server to cancel it, and records it at once as abandoned', async () => {
    for (const arm of ['on', 'off']) {
      // The tool answers only when cancelled: the lane must answer on the step's signal, not on it.
      let cancelled!: () => void;
      const cancelSeen = new Promise<void>((resolve) => (cancelled = resolve));
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const hang: ScriptedTool = {
        name: 'hang',
        handler: (_args, extra: Extra) => new Promise((resolve) => {
          started();
          extra.signal.addEventListener('abort', () => {
            cancelled();
            resolve(text('too late'));
          });
        }),
      };
      const { lane, trace } = await laneOver(new ScriptedServer([hang]), { arm, callTimeoutMs: 60_000 });
      const step = new AbortController();
      const call = lane.call('s__hang', {}, { round: 1, signal: step.signal });
      await running;
      step.abort(new Error('the step time limit passed'));
      const result = await call;
      expect(result).toMatchObject({ outcome: 'timeout', isError: true });
      expect(trace.ofType('tool.call').map((e) => [e.outcome, e['error.type']])).toEqual([['timeout', 'abandoned']]);
      await cancelSeen;
      await lane.close();
    }
  });

  it('sends a timed-out call again in the same turn: a timeout is not a failure the breaker keeps', async () => {
    const server = new ScriptedServer([slow('build', 400)]);
    const { lane } = await laneOver(server, { callTimeoutMs: 60 });
    const first = await lane.call('s__build', {}, { round: 1 });
    const second = await lane.call('s__build', {}, { round: 2 });
    await lane.close();
    expect([first.outcome, second.outcome]).toEqual(['timeout', 'timeout']);
    expect(server.callsTo('build')).toBe(2);
  });

  it('lets progress reset the timeout, so a call that reports progress finishes', async () => {
    const progress: number[] = [];
    // Steps well inside the timeout and a total well past it: only the resets let it finish.
    const { lane } = await laneOver(new ScriptedServer([slow('build', 640, 80)]), {
      callTimeoutMs: 300,
      onProgress: (p) => progress.push(p.progress),
    });
    const result = await lane.call('s__build', {}, { round: 1 });
    await lane.close();
    expect([result.outcome, result.text]).toEqual(['ok', 'build finished']);
    expect(progress).toEqual([80, 160, 240, 320, 400, 480, 560, 640]);
  });

  it('lets progress reset the timeout when nobody listens for it, on every call', async () => {
    const server = new ScriptedServer([slow('build', 640, 80)]);
    const { lane } = await laneOver(server, { callTimeoutMs: 300 });
    const first = await lane.call('s__build', {}, { round: 1 });
    const second = await lane.call('s__build', { again: true }, { round: 2 });
    await lane.close();
    expect([first.outcome, second.outcome]).toEqual(['ok', 'ok']);
    const tokens = server.received.map((r) => r.progressToken);
    expect(tokens.every((t) => t !== undefined) && new Set(tokens).size).toBe(2);
  });

  it('still ends a call that reports progress at maxTotalTimeout', async () => {
    const { lane } = await laneOver(new ScriptedServer([slow('build', 600, 40)]), { callTimeoutMs: 150, maxTotalTimeoutMs: 200 });
    const result = await lane.call('s__build', {}, { round: 1 });
    await lane.close();
    expect(result.outcome).toBe('timeout');
  });

  it('asks for progress with the deadline on and sends the SDK defaults with it off', async () => {
    const server = new ScriptedServer([fixed('ping')]);
    const on = await laneOver(server, { arm: 'on' });
    await on.lane.call('s__ping', {}, { round: 1 });
    await on.lane.close();
    const offServer = new ScriptedServer([fixed('ping')]);
    const off = await laneOver(offServer, { arm: 'deadline=off' });
    await off.lane.call('s__ping', {}, { round: 1 });
    await off.lane.close();
    expect(server.received[0]!.progressToken).toBeDefined();
    expect(offServer.received[0]!.progressToken).toBeUndefined();
  });
});

describe('the plain timeout (deadline off)', () => {
  it('ends a call at plainTimeoutMs with the SDK\'s own error and no progress token', async () => {
    const server = new ScriptedServer([slow('build', 400)]);
    const { lane } = await laneOver(server, { arm: 'off', plainTimeoutMs: { s: 60 }, callTimeoutMs: 5_000 });
    const result = await lane.call('s__build', {}, { round: 1 });
    await lane.close();
    expect(result.outcome).toBe('timeout');
    // The SDK's raw text, not the deadline's "may still be running".
    expect(result.text).toMatch(/Request timed out/);
    expect(result.text).not.toMatch(/may still be running/);
    expect(server.received[0]!.progressToken).toBeUndefined();
  });

  it('applies only to the server it names; the others keep the SDK\'s own', async () => {
    const { lane } = await laneOver(new ScriptedServer([slow('build', 200)]), { arm: 'off', plainTimeoutMs: { other: 20 } });
    const result = await lane.call('s__build', {}, { round: 1 });
    await lane.close();
    expect(result.outcome).toBe('ok');
  });

  it('is ignored on an arm with the deadline on, which has its own timeout', async () => {
    const { lane } = await laneOver(new ScriptedServer([slow('build', 200)]), { arm: 'on', plainTimeoutMs: { s: 20 }, callTimeoutMs: 5_000 });
    const result = await lane.call('s__build', {}, { round: 1 });
    await lane.close();
    expect(result.outcome).toBe('ok');
  });
});

describe('repeat short-circuit', () => {
  const lookup = fixed('lookup', 'dialect: sqlite');
  const tail = fixed('tail_log', 'line 1');

  it('answers the third identical call to a deterministic tool short, without a round trip', async () => {
    const server = new ScriptedServer([lookup]);
    const { lane } = await laneOver(server, { deterministic: (name) => name === 's__lookup' });
    const results = [];
    for (const round of [1, 2, 3, 4]) results.push(await lane.call('s__lookup', { q: 'dialect' }, { round }));
    await lane.close();
    expect(server.callsTo('lookup')).toBe(2);
    expect(results.map((r) => r.outcome)).toEqual(['ok', 'ok', 'short_circuited', 'short_circuited']);
    expect(results[3]!.text).toBe('Identical to the answer at turn 1, round 1; asked 4 times.');
    expect(results[3]!.isError).toBe(false);
  });

  it('never short-circuits a tool not declared deterministic', async () => {
    const server = new ScriptedServer([tail]);
    const { lane } = await laneOver(server, { deterministic: (name) => name === 's__lookup' });
    for (const round of [1, 2, 3, 4, 5]) await lane.call('s__tail_log', {}, { round });
    await lane.close();
    expect(server.callsTo('tail_log')).toBe(5);
  });

  it('reads _meta "ladder/deterministic" only when the config trusts server hints', async () => {
    const hinted = { ...lookup, meta: { 'ladder/deterministic': true } };
    const trusted = new ScriptedServer([hinted]);
    const untrusted = new ScriptedServer([hinted]);
    for (const [server, trustServerHints] of [[trusted, true], [untrusted, false]] as const) {
      const { lane } = await laneOver(server, { trustServerHints });
      for (const round of [1, 2, 3, 4]) await lane.call('s__lookup', { q: 'dialect' }, { round });
      await lane.close();
    }
    expect([trusted.callsTo('lookup'), untrusted.callsTo('lookup')]).toEqual([2, 4]);
  });

  it('does not take readOnlyHint or idempotentHint for deterministic, even trusting server hints', async () => {
    const readOnly = { ...tail, annotations: { readOnlyHint: true, idempotentHint: true } };
    const server = new ScriptedServer([readOnly]);
    const { lane } = await laneOver(server, { trustServerHints: true });
    for (const round of [1, 2, 3, 4]) await lane.call('s__tail_log', {}, { round });
    await lane.close();
    expect(server.callsTo('tail_log')).toBe(4);
  });

  it('marks each tool.call as deterministic or not on every arm, for the report to split repeats on', async () => {
    const server = new ScriptedServer([lookup, tail]);
    const { lane, trace } = await laneOver(server, { arm: 'off', deterministic: (name) => name === 's__lookup' });
    await lane.call('s__lookup', { q: 'dialect' }, { round: 1 });
    await lane.call('s__tail_log', {}, { round: 1 });
    await lane.close();
    const calls = trace.events.filter((e) => e.type === 'tool.call');
    expect(calls.map((e) => [e['gen_ai.tool.name'], e.deterministic])).toEqual([
      ['s__lookup', true],
      ['s__tail_log', false],
    ]);
  });

  it('sends every repeat with repeats off', async () => {
    const server = new ScriptedServer([lookup]);
    const { lane } = await laneOver(server, { arm: 'repeats=off', deterministic: () => true });
    for (const round of [1, 2, 3, 4]) await lane.call('s__lookup', { q: 'dialect' }, { round });
    await lane.close();
    expect(server.callsTo('lookup')).toBe(4);
  });
});

describe('tool.call events', () => {
  it('record where, what and how big, with the call key hashed and argument order ignored', async () => {
    const server = new ScriptedServer([fixed('greet', 'héllo')]);
    const { lane, trace } = await laneOver(server);
    await lane.call('s__greet', { b: 2, a: 'x' }, { round: 3, id: 'call_7' });
    await lane.call('s__greet', { a: 'x', b: 2 }, { round: 4 });
    await lane.close();
    const [first, second] = trace.ofType('tool.call');
    const expectedKey = createHash('sha256').update('s__greet\n{"a":"x","b":2}').digest('hex').slice(0, 16);
    expect(first).toMatchObject({
      v: 2, type: 'tool.call', 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 's__greet',
      turn: 1, round: 3, server: 's', tool: 'greet', key: expectedKey, outcome: 'ok',
      argBytes: Buffer.byteLength('{"b":2,"a":"x"}'), resultBytes: 6,
      // The model's id for the call, which its tool message carries too.
      'gen_ai.tool.call.id': 'call_7',
    });
    expect(first!.ms).toBeGreaterThan(0);
    expect(second!.key).toBe(first!.key);
    expect(second).not.toHaveProperty('gen_ai.tool.call.id');
  });

  it('answer a call to a tool not in the turn with text, and send nothing', async () => {
    const server = new ScriptedServer([fixed('greet')]);
    const { lane, trace } = await laneOver(server);
    const result = await lane.call('s__wave', {}, { round: 1 });
    await lane.close();
    expect(result).toMatchObject({ outcome: 'failed', isError: true });
    expect(result.text).toMatch(/no tool named "s__wave"/);
    expect(server.received).toEqual([]);
    expect(trace.ofType('tool.call')[0]!['error.type']).toBe('unknown_tool');
  });

  it('answer arguments with no JSON form as a failed call, and send nothing', async () => {
    const server = new ScriptedServer([fixed('greet')]);
    const { lane, trace } = await laneOver(server);
    const result = await lane.call('s__greet', { n: 10n }, { round: 1 });
    await lane.close();
    expect([result.outcome, result.text]).toEqual(['failed', 'The arguments have no JSON form, so the call was not sent.']);
    expect(server.received).toEqual([]);
    expect(trace.ofType('tool.call')[0]).toMatchObject({ outcome: 'failed', argBytes: 0, 'error.type': 'invalid_arguments' });
  });

  it('pass a thrown protocol error through as a failed call', async () => {
    const server = new ScriptedServer([{ name: 'boom', handler: () => { throw new Error('disk on fire'); } }]);
    const { lane, trace } = await laneOver(server, { arm: 'off' });
    const result = await lane.call('s__boom', {}, { round: 1 });
    await lane.close();
    expect(result.outcome).toBe('failed');
    expect(result.text).toContain('disk on fire');
    expect(trace.ofType('tool.call')[0]!['error.type']).toBe('-32603');
  });
});
