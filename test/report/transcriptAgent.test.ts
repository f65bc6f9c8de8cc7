// What a transcript says about the calls of an external agent's step that never reached the
// lane: the agent's own tool, a call its loop guard refused to make, a call the step's end cut
// off. Built from events written out by hand, as an exec agent's pass records them.
import { describe, expect, it } from 'vitest';
import { EvidenceReader } from '../../src/report/stepEvidence.ts';
import { buildTranscript } from '../../src/report/transcript/build.ts';
import { passMarks } from '../../src/report/transcript/marks.ts';
import { transcriptView } from '../../src/report/transcript/view.ts';
import type { Check } from '../../src/rungs/schema.ts';
import type { PassStart, StepEndReason, TraceEvent } from '../../src/trace/index.ts';

const MESSAGE = 'Loop detection halted the run (consecutive_identical_tool_calls: the model repeated the same tool call with identical arguments).';

/** Round 1: the agent's own shell and a gateway call, both answered; round 2: a call that got no answer. */
function events(reason: StepEndReason, v = 2): TraceEvent[] {
  const e = (type: string, fields: Record<string, unknown>) => ({ v, type, t: 0, ...fields }) as unknown as TraceEvent;
  const call = (id: string, name: string) => ({ id, name, args: { text: 'x' } });
  const response = (round: number, calls: Array<{ id: string; name: string; args: Record<string, unknown> }>, own: boolean[]) => e('model.response', {
    step: 0, round, 'gen_ai.usage.input_tokens': 1, 'gen_ai.usage.output_tokens': 1, 'gen_ai.response.finish_reasons': ['tool_calls'], ms: 1,
    attempts: 1, textBytes: 0, toolCalls: calls.map((c, i) => ({ 'gen_ai.tool.name': c.name, key: `k-${c.name}`, ...(own[i] ? { own: true } : {}) })),
    ...(v >= 2 ? { message: { role: 'assistant', content: '', toolCalls: calls } } : {}),
  });
  const content = v >= 2 ? { content: 'full' } : {};
  return [
    e('pass.start', { rung: 'r', arm: 'off', pass: 0, seed: 1, time: '2026-12-02T00:00:00Z', ...content }),
    e('step.start', { step: 0, ceiling: 8, timeLimitMs: 60_000 }),
    ...(v >= 2 ? [e('message', { step: 0, message: { role: 'user', content: 'ping' } })] : []),
    response(1, [call('c1', 'bash'), call('c2', 'mcp__ladder__wb__ping')], [true, false]),
    e('tool.call', {
      'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'wb__ping', turn: 1, round: 1, server: 'wb', tool: 'ping', key: 'k-mcp__ladder__wb__ping',
      outcome: 'ok', ms: 3, argBytes: 12, resultBytes: 4, ...(v >= 2 ? { 'gen_ai.tool.call.id': 'c2' } : {}),
    }),
    ...(v >= 2 ? [
      e('message', { step: 0, message: { role: 'tool', toolCallId: 'c1', toolName: 'bash', content: 'done' } }),
      e('message', { step: 0, message: { role: 'tool', toolCallId: 'c2', toolName: 'mcp__ladder__wb__ping', content: 'pong' } }),
    ] : []),
    response(2, [call('c3', 'mcp__ladder__wb__ping')], [false]),
    e('step.end', { step: 0, passed: false, reason, failedChecks: [{ check: 'answer', why: 'no answer' }], rounds: 2, calls: 1, ms: 900, error: MESSAGE }),
    e('pass.end', { passed: false, steps: 1, ms: 1000 }),
  ];
}

function statuses(reason: StepEndReason, v = 2): string[] {
  return transcriptView(buildTranscript(events(reason, v))!).steps[0]!.rounds.flatMap((r) => r.calls.map((c) => `${c.outcome}: ${c.status}`));
}

describe("an external agent's calls that never reached the lane", () => {
  it("are the agent's own tool, made calls, and one its loop guard refused to make", () => {
    expect(statuses('agent_stopped')).toEqual([
      "own: the agent's own tool: run by the agent, not through the MCP gateway",
      'ok: ok in 3 ms',
      'not_made: not made: the agent stopped itself before making it',
    ]);
    const view = transcriptView(buildTranscript(events('agent_stopped'))!);
    expect(view.failure).toBe(`step 0: the agent stopped itself: ${MESSAGE}`);
    expect(view.steps[0]!.end).toBe(`the agent stopped itself after 2 rounds and 1 call, in 900 ms: ${MESSAGE}; failed`);
  });

  it('say who ended the step when it was not the agent stopping itself', () => {
    expect(statuses('agent_failed').at(-1)).toBe('not_made: not made: the agent failed before making it');
    expect(statuses('time_limit').at(-1)).toBe('not_made: not made: the step ended before it was made; nothing answered it');
    // A failed step's first reason is then its first failed check, as for the built-in loop.
    expect(transcriptView(buildTranscript(events('agent_failed'))!).failure).toBe('step 0: answer: no answer');
  });

  it("carry no check's mark: the gateway call after the agent's own tool is the one a check counted", () => {
    const trace = events('answered');
    const evidence = new EvidenceReader(trace[0] as PassStart);
    for (const event of trace.slice(1)) evidence.add(event);
    const transcript = buildTranscript(trace)!;
    const checks = { steps: [[{ called: 'wb__ping' }, { maxCalls: 0 }] satisfies Check[]], missing: null };
    const { marks } = passMarks(transcript, evidence.evidence(), checks, false);
    expect(transcriptView(transcript, { callMarks: marks }).steps[0]!.rounds.flatMap((r) => r.calls.map((c) => `${c.name}: ${c.checks.map((k) => k.text).join('; ')}`))).toEqual([
      'bash: ',
      'mcp__ladder__wb__ping: called wb__ping; maxCalls 0: call 1, the first over the limit',
      'mcp__ladder__wb__ping: ',
    ]);
  });

  it('keep the old words for a format-1 trace, which recorded no tool messages to tell them apart', () => {
    expect(statuses('agent_stopped', 1).at(-1)).toBe('not_made: not made: the harness answered without calling the tool');
  });
});

/**
 * One round of an external agent's step as the gateways record it: the model asked for
 * get-sum with the numbers as strings. `rewrite`: the agent sent them as numbers (another call
 * key, so the gateway could not give the lane's call the model's id); otherwise the agent
 * answered the call itself and nothing reached the lane.
 */
function agentRound(rewrite: boolean): TraceEvent[] {
  const e = (type: string, fields: Record<string, unknown>) => ({ v: 2, type, t: 0, ...fields }) as unknown as TraceEvent;
  const asked = { id: 's1', name: 'mcp__ladder__ev__get-sum', args: { a: '1234', b: '4321' } };
  return [
    e('pass.start', { rung: 'r', arm: 'off', pass: 0, seed: 1, time: '2026-12-02T00:00:00Z', content: 'full' }),
    e('step.start', { step: 0, ceiling: 6, timeLimitMs: 60_000 }),
    e('model.response', {
      step: 0, round: 1, 'gen_ai.usage.input_tokens': 1, 'gen_ai.usage.output_tokens': 1, 'gen_ai.response.finish_reasons': ['tool_calls'], ms: 1,
      attempts: 1, textBytes: 0, toolCalls: [{ 'gen_ai.tool.name': asked.name, key: 'k-strings' }],
      message: { role: 'assistant', content: '', toolCalls: [asked] },
    }),
    ...(rewrite ? [e('tool.call', {
      'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'ev__get-sum', turn: 1, round: 1, server: 'ev', tool: 'get-sum', key: 'k-numbers',
      outcome: 'ok', ms: 88, argBytes: 19, resultBytes: 33,
    })] : []),
    e('message', { step: 0, message: { role: 'tool', toolCallId: 's1', toolName: asked.name, content: rewrite ? 'The sum is 5555.' : 'params/a must be number' } }),
    e('step.end', { step: 0, passed: false, reason: 'agent_failed', failedChecks: [], rounds: 1, calls: rewrite ? 1 : 0, ms: 900 }),
    e('pass.end', { passed: false, steps: 1, ms: 1000 }),
  ];
}

describe('an external agent that changed or answered a call on its way', () => {
  const calls = (rewrite: boolean, external: boolean) => transcriptView(buildTranscript(agentRound(rewrite))!, { external }).steps[0]!.rounds
    .flatMap((r) => r.calls.map((c) => `${c.name} ${c.args.kind === 'text' ? c.args.lines.join(" ") : c.args.says}: ${c.outcome}: ${c.status}`));

  it('is one call, made, with what the model asked for and a note that the agent sent other arguments', () => {
    expect(calls(true, true)).toEqual([
      'mcp__ladder__ev__get-sum {"a":"1234","b":"4321"}: ok: ok in 88 ms; sent with other arguments than these (19 bytes): the agent changed them',
    ]);
  });

  it('is the call the checks counted, with the model\'s arguments, though the gateway could not give it the model\'s id', () => {
    const trace = agentRound(true);
    const evidence = new EvidenceReader(trace[0] as PassStart);
    for (const event of trace.slice(1)) evidence.add(event);
    const calls = evidence.evidence().steps.get(0)!.calls;
    expect(calls).toEqual([{ tool: 'ev__get-sum', key: 'k-numbers', args: { a: '1234', b: '4321' }, outcome: 'ok' }]);
    const transcript = buildTranscript(trace)!;
    const { marks } = passMarks(transcript, evidence.evidence(), { steps: [[{ called: 'ev__get-sum' }]], missing: null }, false);
    expect(transcriptView(transcript, { callMarks: marks, external: true }).steps[0]!.rounds[0]!.calls[0]!.checks).toEqual([{ tone: 'good', text: 'called ev__get-sum' }]);
    // Answered by the agent itself, nothing reached the gateway: no call for the checks.
    const unsent = agentRound(false);
    const none = new EvidenceReader(unsent[0] as PassStart);
    for (const event of unsent.slice(1)) none.add(event);
    expect(none.evidence().steps.get(0)!.calls).toEqual([]);
  });

  it('is a call the agent answered itself, when no call reached the gateway but the model got an answer', () => {
    expect(calls(false, true)).toEqual([
      'mcp__ladder__ev__get-sum {"a":"1234","b":"4321"}: not_made: not sent: the agent answered it itself, without calling the tool through the gateway',
    ]);
    // Ladder's own loop answers such a call itself (the time limit, an interrupt): the old words.
    expect(calls(false, false)[0]).toMatch(/: not made: the harness answered without calling the tool$/);
  });
});
