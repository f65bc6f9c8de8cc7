// What a trace holds of the conversation: scrubbed of secrets and temporary paths, redacted on
// request, rebuilt into requests, and hashed so a replay can check them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConversationBuilder, credentialsIn, hash16, maskNumbers, MemoryTrace, readTraceAll, rebuildRequests, redactEvent, requestHash, Scrubber,
  TraceWriter, WORKSPACE_TOKEN,
} from '../../src/trace/index.ts';
import type { TraceEvent, TraceEventInput } from '../../src/trace/index.ts';

describe('the writer', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'ladder-content-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('scrubs and redacts before anything reaches the file', async () => {
    const path = join(dir, 'p.jsonl');
    const scrubber = new Scrubber({ secrets: [{ name: 'K', value: 'sk-live-9999' }], workspace: '/w/space' });
    const trace = TraceWriter.open(path, { scrubber, content: 'redacted' });
    trace.emit({ type: 'pass.start', rung: 'r', arm: 'on', pass: 0, seed: 1, time: 'x', content: 'full' });
    trace.emit({ type: 'message', step: 0, message: { role: 'user', content: 'use sk-live-9999 in /w/space' } });
    trace.emit({ type: 'pass.end', passed: true, steps: 1, ms: 1, error: 'server said sk-live-9999' });
    trace.close();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('sk-live-9999');
    expect(text).not.toContain('/w/space');
    const { events } = await readTraceAll(path);
    // The hash and size are of the scrubbed text: the same on any machine.
    expect(events[1]).toMatchObject({ message: { role: 'user' }, hash: hash16(`use [secret K] in ${WORKSPACE_TOKEN}`), bytes: 29 });
    expect(events[2]).toMatchObject({ error: 'server said [secret K]' });
  });
});

describe('rebuilding requests', () => {
  const at = (events: TraceEventInput[]): TraceEvent[] => {
    const trace = new MemoryTrace();
    for (const e of events) trace.emit(e);
    return trace.events;
  };
  const request = (step: number, round: number, tools: number): TraceEventInput => ({
    type: 'model.request', step, round, 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'x', 'gen_ai.request.model': 'm',
    tools, messages: 0, messageBytes: 0,
  });
  const list = (turn: number, offered?: { name: string }[]): TraceEventInput => ({
    type: 'tools.list', 'mcp.method.name': 'tools/list', turn, configured: 1, reached: 1, listed: 1, registered: 1, unavailable: 0, cached: 0,
    tools: offered?.length ?? 1, failed: [], ms: 1,
    ...(offered === undefined ? {} : { offered: offered.map((o) => ({ ...o, description: '', inputSchema: {} })) }),
  });
  const response = (step: number, round: number, content: string): TraceEventInput => ({
    type: 'model.response', step, round, 'gen_ai.usage.input_tokens': 1, 'gen_ai.usage.output_tokens': 1, 'gen_ai.response.finish_reasons': ['end'],
    ms: 1, attempts: 1, textBytes: content.length, toolCalls: [], message: { role: 'assistant', content },
  });

  it('gives each request the messages before it, in order, and the tools of the last listing that named them', () => {
    const requests = rebuildRequests(at([
      { type: 'pass.start', rung: 'r', arm: 'on', pass: 0, seed: 1, time: 'x', content: 'full' },
      { type: 'message', step: 0, message: { role: 'user', content: 'one' } },
      list(1, [{ name: 'a' }]),
      request(0, 1, 1),
      response(0, 1, 'first'),
      { type: 'message', step: 1, message: { role: 'user', content: 'two' } },
      list(2),
      request(1, 1, 1),
    ]));
    expect(requests.map((r) => r.messages.map((m) => m.content))).toEqual([['one'], ['one', 'first', 'two']]);
    expect(requests.map((r) => r.tools.map((t) => t.name))).toEqual([['a'], ['a']]);
    expect(requests.every((r) => r.complete)).toBe(true);
  });

  it('says a request is incomplete when the pass recorded no content', () => {
    const builder = new ConversationBuilder();
    builder.add(at([{ type: 'pass.start', rung: 'r', arm: 'on', pass: 0, seed: 1, time: 'x' }])[0]!);
    expect(builder.add(at([request(0, 1, 0)])[0]!)?.complete).toBe(false);
  });
});

describe('request hashes', () => {
  const base = { tools: [{ name: 'wb__a' }], options: { seed: 3 } };
  const tool = (content: string) => ({ role: 'tool', toolCallId: 'c', toolName: 'wb__a', content });

  it('ignore the numbers of tool results, which a tool reading a clock changes every run', () => {
    expect(maskNumbers('elapsedMs: 1234, remainingMs: 5')).toBe('elapsedMs: 0, remainingMs: 0');
    expect(requestHash({ ...base, messages: [tool('elapsedMs: 1234')] })).toBe(requestHash({ ...base, messages: [tool('elapsedMs: 99')] }));
    expect(requestHash({ ...base, messages: [tool('elapsedMs: 1234')] })).not.toBe(requestHash({ ...base, messages: [tool('elapsedSec: 1')] }));
  });

  it('see every number of a prompt, every tool and option', () => {
    const user = (content: string) => [{ role: 'user', content }];
    expect(requestHash({ ...base, messages: user('order 1001') })).not.toBe(requestHash({ ...base, messages: user('order 1002') }));
    expect(requestHash({ ...base, messages: user('x') })).not.toBe(requestHash({ ...base, options: { seed: 4 }, messages: user('x') }));
    expect(requestHash({ ...base, messages: user('x') })).not.toBe(requestHash({ ...base, tools: [], messages: user('x') }));
  });

  it('are the same for the same request in another temporary folder, and ignore key order', () => {
    const one = new Scrubber({ workspace: '/tmp/a1/workspace' });
    const two = new Scrubber({ workspace: '/tmp/b22/workspace' });
    expect(requestHash({ ...base, messages: [tool('wrote /tmp/a1/workspace/x')] }, one))
      .toBe(requestHash({ options: { seed: 3 }, tools: [{ name: 'wb__a' }], messages: [tool('wrote /tmp/b22/workspace/x')] }, two));
  });
});
