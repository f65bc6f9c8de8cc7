import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryTrace, TRACE_VERSION, TraceFormatError, TraceWriter, readTrace, readTraceAll } from '../../src/trace/index.ts';
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

  it('puts each event on disk as it is emitted, before close', () => {
    const path = join(dir, 'pass.jsonl');
    const trace = TraceWriter.open(path);
    trace.emit(passStart);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(2);
    trace.emit(passEnd);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(3);
    trace.close();
  });

  it('appends to an existing file and counts events emitted after close without writing them', () => {
    const path = join(dir, 'nested', 'pass.jsonl');
    TraceWriter.open(path).emit(passStart);
    const again = TraceWriter.open(path);
    again.emit(passEnd);
    again.close();
    again.emit(passEnd);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(again.droppedAfterClose).toBe(1);
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
    await expect(readTraceAll(path)).rejects.toThrow(`${path}:2: not a JSON object`);
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
