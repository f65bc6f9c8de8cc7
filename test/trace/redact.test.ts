// --redact content: a trace keeps every count and hash, and drops the words.
import { describe, expect, it } from 'vitest';
import type { TraceEventInput } from '../../src/trace/events.ts';
import { hash16, redactEvent } from '../../src/trace/redact.ts';

const RESPONSE: Record<string, unknown> = {
  type: 'model.response', step: 0, round: 1, 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 2,
  'gen_ai.response.finish_reasons': ['tool_calls'], ms: 3, attempts: 1, textBytes: 4, toolCalls: [{ 'gen_ai.tool.name': 'wb__a', key: 'k' }],
};
const LIST: Record<string, unknown> = {
  type: 'tools.list', 'mcp.method.name': 'tools/list', turn: 1, configured: 1, reached: 1, listed: 1, registered: 1, unavailable: 0, cached: 0,
  tools: 1, failed: [], ms: 1,
};

describe('hash16', () => {
  it('is the first 16 hex digits of sha256', () => {
    expect(hash16('abc')).toBe('ba7816bf8f01cfea');
    expect(hash16('')).toBe('e3b0c44298fc1c14');
  });
});

describe('redaction', () => {
  it('keeps a hash and the size in bytes of a message, not its text', () => {
    const event: TraceEventInput = { type: 'message', step: 1, message: { role: 'tool', toolCallId: 'c1', toolName: 'wb__read', content: 'héllo', isError: false } };
    expect(redactEvent(event)).toStrictEqual({
      type: 'message', step: 1, message: { role: 'tool', toolCallId: 'c1', toolName: 'wb__read', isError: false }, bytes: 6, hash: hash16('héllo'),
    });
  });

  it('keeps a message with no text as it is', () => {
    const event = { type: 'message', step: 0, message: { role: 'assistant', toolCalls: [] } } as unknown as unknown as TraceEventInput;
    expect(redactEvent(event)).toBe(event);
  });

  it("drops the model's turn and keeps every count", () => {
    const response = { ...RESPONSE, message: { role: 'assistant', content: 'secret plan', toolCalls: [] } } as unknown as TraceEventInput;
    expect(redactEvent(response)).toStrictEqual(RESPONSE);
  });

  it("keeps an adaptation's kind and tool only, and the kind of one without a tool", () => {
    const response = {
      ...RESPONSE,
      adaptations: [{ kind: 'arguments', tool: 'wb__a', id: 'c', why: 'not JSON: {private' }, { kind: 'message', index: 2, change: 'private words' }],
    } as unknown as TraceEventInput;
    expect(redactEvent(response)).toStrictEqual({ ...RESPONSE, adaptations: [{ kind: 'arguments', tool: 'wb__a' }, { kind: 'message' }] });
  });

  it('drops the tools offered, and keeps a list that offered none as it is', () => {
    const list = { ...LIST, offered: [{ name: 'wb__a', description: 'd', inputSchema: {} }] } as unknown as TraceEventInput;
    expect(redactEvent(list)).toStrictEqual(LIST);
    const bare = { ...LIST } as unknown as TraceEventInput;
    expect(redactEvent(bare)).toBe(bare);
  });

  it("keeps a server's request for input as the hash of what it asked, and drops the answer's content", () => {
    const asked = { type: 'elicitation', 'mcp.method.name': 'elicitation/create', server: 'v2', turn: 1, action: 'accept', declared: true } as const;
    expect(redactEvent({ ...asked, message: 'Deploy to staging?', content: { confirm: true } }))
      .toStrictEqual({ ...asked, message: `sha256:${hash16('Deploy to staging?')}` });
  });

  it('says a pass and a run are redacted', () => {
    expect(redactEvent({ type: 'pass.start', rung: 'r', arm: 'on', pass: 0, seed: 1, time: 'x', content: 'full' }))
      .toStrictEqual({ type: 'pass.start', rung: 'r', arm: 'on', pass: 0, seed: 1, time: 'x', content: 'redacted' });
    const run = { type: 'run.start', content: 'full' } as unknown as unknown as TraceEventInput;
    expect(redactEvent(run)).toStrictEqual({ type: 'run.start', content: 'redacted' });
  });

  it('keeps an event without content as it is', () => {
    const end = { type: 'pass.end', passed: true, ms: 1 } as unknown as unknown as TraceEventInput;
    expect(redactEvent(end)).toBe(end);
  });
});
