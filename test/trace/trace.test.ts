import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FLUSH_BYTES, FLUSH_MS, MemoryTrace, TRACE_VERSION, TraceFormatError, TraceWriter, readTrace, readTraceAll,
} from '../../src/trace/index.ts';
import type { TraceEventInput, TornLine } from '../../src/trace/index.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ladder-trace-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const passStart: TraceEventInput = { type: 'pass.start', rung: 'dead-browser', arm: 'on', pass: 0, seed: 7, time: '2026-01-01T00:00:00.000Z' };
const stepEnd: TraceEventInput = {
  type: 'step.end', step: 0, passed: false, reason: 'ceiling', failedChecks: [{ check: 'answer', why: 'no answer' }], rounds: 4, calls: 8, ms: 12,
};
const passEnd: TraceEventInput = { type: 'pass.end', passed: false, steps: 1, ms: 20 };

/** The file's complete lines. */
function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').slice(0, -1);
}

function clock(times: number[]): () => number {
  return () => times.shift() ?? 0;
}

describe('TraceWriter', () => {
  it('stamps v and t (ms since the pass started) ahead of the fields, one line per event', () => {
    const path = join(dir, 'pass.jsonl');
    const trace = TraceWriter.open(path, { now: clock([1000.0004, 1012.3456]), startedAt: 1000 });
    trace.emit(passStart);
    trace.emit(passEnd);
    trace.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines[0]!.startsWith(`{"v":${TRACE_VERSION},"type":"pass.start","t":0,`)).toBe(true);
    expect(JSON.parse(lines[1]!)).toEqual({ v: TRACE_VERSION, type: 'pass.end', t: 12.346, passed: false, steps: 1, ms: 20 });
  });

  it('writes a batch of events at pass.end, with everything before it, without waiting for close', () => {
    const path = join(dir, 'pass.jsonl');
    const trace = TraceWriter.open(path);
    trace.emit(passStart);
    trace.emit(stepEnd);
    expect(readFileSync(path, 'utf8')).toBe('');
    trace.emit(passEnd);
    expect(readFileSync(path, 'utf8').split('\n').map((line) => line && JSON.parse(line).type)).toEqual(['pass.start', 'step.end', 'pass.end', '']);
    trace.close();
  });

  it('writes what waits within FLUSH_MS, and at once past FLUSH_BYTES', () => {
    vi.useFakeTimers();
    try {
      const path = join(dir, 'pass.jsonl');
      using trace = TraceWriter.open(path);
      trace.emit(passStart);
      vi.advanceTimersByTime(FLUSH_MS - 1);
      expect(readFileSync(path, 'utf8')).toBe('');
      vi.advanceTimersByTime(1);
      expect(lines(path)).toHaveLength(1);
      const why = 'x'.repeat(FLUSH_BYTES / 4);
      for (let step = 0; step < 3; step += 1) trace.emit({ ...stepEnd, step, failedChecks: [{ check: 'answer', why }] });
      expect(lines(path)).toHaveLength(1);
      trace.emit({ ...stepEnd, step: 3, failedChecks: [{ check: 'answer', why }] });
      expect(lines(path)).toHaveLength(5);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes everything still waiting at close, and flush writes it on demand', () => {
    const path = join(dir, 'pass.jsonl');
    const trace = TraceWriter.open(path);
    trace.emit(passStart);
    trace.flush();
    expect(lines(path)).toHaveLength(1);
    trace.emit(stepEnd);
    trace.emit(stepEnd);
    trace.close();
    expect(lines(path)).toHaveLength(3);
  });

  it('appends to an existing file and counts events emitted after close without writing them', () => {
    const path = join(dir, 'nested', 'pass.jsonl');
    const first = TraceWriter.open(path);
    first.emit(passStart);
    first.close();
    const again = TraceWriter.open(path);
    again.emit(passEnd);
    again.close();
    again.emit(passEnd);
    expect(lines(path)).toHaveLength(2);
    expect(again.droppedAfterClose).toBe(1);
  });

  it.skipIf(!existsSync('/dev/full'))('throws a write that failed on its timer to the next emit and to close', () => {
    vi.useFakeTimers();
    try {
      const trace = TraceWriter.open('/dev/full');
      trace.emit(passStart);
      vi.advanceTimersByTime(FLUSH_MS);
      expect(() => trace.emit(stepEnd)).toThrow(/ENOSPC/);
      expect(() => trace.close()).toThrow(/ENOSPC/);
      trace.emit(passEnd);
      expect(trace.droppedAfterClose).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('TraceWriter in a process that dies mid-pass', () => {
  const writer = pathToFileURL(join(import.meta.dirname, '../../src/trace/writer.ts')).href;

  /** Runs a script that writes a pass to `path` through TraceWriter, in a process of its own. */
  function runWriter(path: string, body: string): void {
    const script = join(dir, 'write.mts');
    writeFileSync(script, [
      `import { TraceWriter } from ${JSON.stringify(writer)};`,
      `const trace = TraceWriter.open(${JSON.stringify(path)});`,
      `const valid = ${JSON.stringify({
        'pass.start': { rung: 'r', arm: 'on', pass: 0, seed: 1, time: '2026-01-01T00:00:00.000Z' },
        'step.start': { step: 0, ceiling: 4, timeLimitMs: 1000 },
        'step.end': { step: 0, passed: true, reason: 'answered', failedChecks: [], rounds: 1, calls: 0, ms: 1 },
        'pass.end': { passed: true, steps: 1, ms: 1 },
      })};`,
      `const emit = (type) => trace.emit({ type, ...valid[type] });`,
      `const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));`,
      body,
    ].join('\n'));
    const child = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), script], { encoding: 'utf8' });
    // The one that throws on purpose says so on stderr; anything else there is a broken script.
    if (child.stderr.includes('Error') && !child.stderr.includes('harness bug')) throw new Error(child.stderr);
  }

  const types = async (path: string) => (await readTraceAll(path)).events.map((e) => e.type);

  it('killed outright, keeps what was flushed, in order, and no pass.end, so resume re-runs it', async () => {
    const path = join(dir, 'killed.jsonl');
    runWriter(path, `emit('pass.start'); emit('step.start'); await sleep(${FLUSH_MS * 3}); emit('step.end'); process.kill(process.pid, 'SIGKILL');`);
    expect(await types(path)).toEqual(['pass.start', 'step.start']);
  });

  it('exiting or failing mid-pass, writes every event emitted, and still no pass.end', async () => {
    const exited = join(dir, 'exited.jsonl');
    runWriter(exited, `emit('pass.start'); emit('step.end'); process.exit(3);`);
    expect(await types(exited)).toEqual(['pass.start', 'step.end']);
    const threw = join(dir, 'threw.jsonl');
    runWriter(threw, `emit('pass.start'); emit('step.end'); setTimeout(() => { throw new Error('harness bug'); }, 1);`);
    expect(await types(threw)).toEqual(['pass.start', 'step.end']);
  });

  it('killed right after pass.end, holds the whole pass', async () => {
    const path = join(dir, 'ended.jsonl');
    runWriter(path, `emit('pass.start'); emit('step.end'); emit('pass.end'); process.kill(process.pid, 'SIGKILL');`);
    expect(await types(path)).toEqual(['pass.start', 'step.end', 'pass.end']);
  });
});

describe('TraceReader', () => {
  async function written(...events: TraceEventInput[]): Promise<string> {
    const path = join(dir, 'pass.jsonl');
    using trace = TraceWriter.open(path);
    for (const event of events) trace.emit(event);
    return path;
  }

  it('streams back exactly what was written', async () => {
    const path = await written(passStart, stepEnd, passEnd);
    const { events, torn } = await readTraceAll(path);
    expect(events.map((e) => e.type)).toEqual(['pass.start', 'step.end', 'pass.end']);
    expect(events[1]).toMatchObject({ ...stepEnd, v: TRACE_VERSION });
    expect(torn).toBeUndefined();
  });

  it('skips a torn final line and reports where it was', async () => {
    const path = await written(passStart, stepEnd);
    appendFileSync(path, '{"v":1,"type":"pass.end","t":3,"pas');
    const reported: TornLine[] = [];
    const reader = readTrace(path, { onTorn: (t) => reported.push(t) });
    const types: string[] = [];
    for await (const event of reader) types.push(event.type);
    expect(types).toEqual(['pass.start', 'step.end']);
    expect(reader.torn).toEqual({ path, line: 3, bytes: 35 });
    expect(reported).toEqual([reader.torn]);
  });

  it('keeps a last line that lost only its newline', async () => {
    const path = join(dir, 'pass.jsonl');
    writeFileSync(path, '{"v":1,"type":"pass.end","t":3,"passed":true,"steps":1,"ms":3}');
    const { events, torn } = await readTraceAll(path);
    expect(events.map((e) => e.type)).toEqual(['pass.end']);
    expect(torn).toBeUndefined();
  });

  it('refuses a damaged line that is not the last, naming file and line', async () => {
    const path = await written(passStart);
    appendFileSync(path, '{"v":1,"type":"step.e\n');
    appendFileSync(path, `${JSON.stringify({ v: 1, type: 'pass.end', t: 1, passed: true, steps: 0, ms: 1 })}\n`);
    await expect(readTraceAll(path)).rejects.toThrow(TraceFormatError);
    await expect(readTraceAll(path)).rejects.toThrow(`${path}:2: not JSON`);
  });

  it('refuses an event that breaks its shape, naming the field and what was there', async () => {
    const path = join(dir, 'shape.jsonl');
    const { failedChecks: _missing, ...withoutChecks } = stepEnd as Extract<TraceEventInput, { type: 'step.end' }>;
    writeFileSync(path, `${JSON.stringify({ v: 2, t: 1, ...withoutChecks })}\n`);
    await expect(readTraceAll(path)).rejects.toThrow(`${path}:1: step.end field "failedChecks": missing`);
    const call = {
      v: 2, type: 'tool.call', t: 1, 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'wb__a', turn: 1, round: 1,
      server: 'wb', tool: 'a', key: '0123456789abcdef', outcome: 'exploded', ms: 1, argBytes: 2, resultBytes: 0,
    };
    writeFileSync(path, `${JSON.stringify(call)}\n`);
    await expect(readTraceAll(path)).rejects.toThrow(/tool\.call field "outcome": .*got "exploded"/);
    writeFileSync(path, `${JSON.stringify({ ...call, outcome: 'ok', argBytes: 'two' })}\n`);
    await expect(readTraceAll(path)).rejects.toThrow(/tool\.call field "argBytes": expected number.*got "two"/);
  });

  it('refuses an event type that did not exist in the version the line claims', async () => {
    const path = join(dir, 'v1.jsonl');
    writeFileSync(path, `${JSON.stringify({ v: 1, type: 'message', t: 1, step: 0, message: { role: 'user', content: 'hi' } })}\n`);
    await expect(readTraceAll(path)).rejects.toThrow(/message events do not exist in format version 1/);
  });

  it('reads a version-1 trace, which has no content fields', async () => {
    const path = join(dir, 'old.jsonl');
    const old = [
      { v: 1, type: 'pass.start', t: 0, rung: 'r', arm: 'on', pass: 0, seed: 1, time: '2026-01-01T00:00:00.000Z' },
      { v: 1, type: 'model.request', t: 1, step: 0, round: 1, 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'synthetic',
        'gen_ai.request.model': 'reference', tools: 3, messages: 1, messageBytes: 40 },
      { v: 1, type: 'pass.end', t: 2, passed: true, steps: 1, ms: 2 },
    ];
    writeFileSync(path, old.map((e) => `${JSON.stringify(e)}\n`).join(''));
    expect((await readTraceAll(path)).events).toEqual(old);
  });

  it('refuses an event from a newer format version and an unknown type', async () => {
    const newer = join(dir, 'newer.jsonl');
    writeFileSync(newer, `${JSON.stringify({ v: TRACE_VERSION + 1, type: 'pass.end', t: 0 })}\n`);
    await expect(readTraceAll(newer)).rejects.toThrow(/newer than this Ladder reads/);
    const unknown = join(dir, 'unknown.jsonl');
    writeFileSync(unknown, `${JSON.stringify({ v: 1, type: 'pass.middle', t: 0 })}\n`);
    await expect(readTraceAll(unknown)).rejects.toThrow(/unknown event type "pass.middle"/);
  });

  it('reads events split across stream chunks, multi-byte characters included', async () => {
    const path = join(dir, 'big.jsonl');
    using trace = TraceWriter.open(path);
    const why = 'é'.repeat(5000);
    for (let step = 0; step < 40; step += 1) trace.emit({ ...stepEnd, step, failedChecks: [{ check: 'answer', why }] });
    trace.close();
    const { events } = await readTraceAll(path);
    expect(events.map((e) => (e.type === 'step.end' ? e.step : -1))).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(events.every((e) => e.type === 'step.end' && e.failedChecks[0]!.why === why)).toBe(true);
  });
});

describe('MemoryTrace', () => {
  it('keeps stamped events and filters them by type', () => {
    const trace = new MemoryTrace({ now: clock([5, 9]), startedAt: 5 });
    trace.emit(passStart);
    trace.emit(passEnd);
    expect(trace.ofType('pass.end')).toEqual([{ v: TRACE_VERSION, type: 'pass.end', t: 4, passed: false, steps: 1, ms: 20 }]);
  });
});
