// Writes one pass's events from a terse script, the way the agent loop and the lane emit them
// (src/agent/loop.ts, src/agent/calls.ts, src/lane/lane.ts): a user message, then per round a
// model.request, a model.response carrying the assistant message, and per call a tool.call
// joined by its id and the tool message the model got back. Calls the harness did not make
// (the ceiling) get only their tool message, as in the loop.
import { toolCallKey } from '../../src/agent/events.ts';
import type { FailedCheck, JudgedCheck, Outcome, StepEndReason, TraceEvent } from '../../src/trace/index.ts';

export interface ScriptCall {
  name?: string;
  args?: Record<string, unknown>;
  /** Absent: the harness did not make the call (no tool.call event). */
  outcome?: Outcome;
  errorType?: string;
  result?: string;
  ms?: number;
  probe?: true;
  server?: string;
  /** The adapter marked the call invalid: never made, answered with this text. */
  invalid?: string;
}

export interface ScriptRound {
  text?: string;
  calls?: ScriptCall[];
  /** The provider failed: no assistant message. */
  error?: string;
  /** Thinking blocks; null: a block the provider sealed (redacted_thinking). */
  thinking?: (string | null)[];
  refusal?: string;
  adaptations?: Record<string, unknown>[];
}

export interface ScriptStep {
  prompt?: string;
  rounds: ScriptRound[];
  passed?: boolean;
  reason?: StepEndReason;
  failedChecks?: FailedCheck[];
  judged?: JudgedCheck[];
  tools?: string[];
}

export function scriptedPass(steps: ScriptStep[], options: { rung?: string; arm?: string; pass?: number; end?: boolean } = {}): TraceEvent[] {
  let t = 0;
  const events: TraceEvent[] = [];
  const emit = (event: Record<string, unknown>): void => void events.push({ v: 2, t: (t += 1), ...event } as TraceEvent);
  emit({ type: 'pass.start', rung: options.rung ?? 'r', arm: options.arm ?? 'on', pass: options.pass ?? 0, seed: 7, time: '2026-01-01T00:00:00.000Z', content: 'full' });
  steps.forEach((step, s) => {
    emit({ type: 'step.start', step: s, ceiling: 8, timeLimitMs: 60_000 });
    emit({ type: 'message', step: s, message: { role: 'user', content: step.prompt ?? `Prompt of step ${s}.` } });
    const tools = step.tools ?? ['wb__read', 'wb__browse'];
    emit({ type: 'tools.list', 'mcp.method.name': 'tools/list', turn: s + 1, configured: 1, reached: 1, listed: 1, registered: 1, unavailable: 0,
      cached: 0, tools: tools.length, failed: [], ms: 1, offered: tools.map((name) => ({ name, description: name, inputSchema: { type: 'object' } })) });
    step.rounds.forEach((round, i) => {
      const r = i + 1;
      emit({ type: 'model.request', step: s, round: r, 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'synthetic',
        'gen_ai.request.model': 'x', tools: tools.length, messages: 1, messageBytes: 10 });
      const calls = (round.calls ?? []).map((c, n) => ({ ...c, id: `call_${s}_${r}_${n}`, name: c.name ?? 'wb__read', args: c.args ?? { path: 'a.md' } }));
      if (round.error !== undefined) {
        emit({ type: 'model.response', step: s, round: r, 'gen_ai.usage.input_tokens': null, 'gen_ai.usage.output_tokens': null,
          'gen_ai.response.finish_reasons': [], ms: 1, attempts: 3, textBytes: 0, toolCalls: [], 'error.type': round.error });
        return;
      }
      const text = round.text ?? '';
      emit({ type: 'model.response', step: s, round: r, 'gen_ai.usage.input_tokens': 1000 + r, 'gen_ai.usage.output_tokens': 10,
        'gen_ai.response.finish_reasons': [calls.length === 0 ? 'end' : 'tool_calls'], ms: 1, attempts: 1, textBytes: Buffer.byteLength(text),
        toolCalls: calls.map((c) => ({ 'gen_ai.tool.name': c.name, key: toolCallKey(c) })),
        ...(round.adaptations === undefined ? {} : { adaptations: round.adaptations }),
        message: {
          role: 'assistant', content: text,
          ...(calls.length === 0 ? {} : { toolCalls: calls.map((c) => ({ id: c.id, name: c.name, args: c.args, ...(c.invalid === undefined ? {} : { invalid: c.invalid }) })) }),
          ...(round.thinking === undefined ? {} : {
            thinking: round.thinking.map((t) => (t === null ? { type: 'redacted_thinking', data: 'sealed' } : { type: 'thinking', thinking: t })),
          }),
          ...(round.refusal === undefined ? {} : { refusal: round.refusal }),
        } });
      for (const c of calls) {
        const result = c.invalid ?? c.result ?? `result of ${c.name}`;
        if (c.outcome !== undefined) {
          const [server, tool] = c.name.split('__') as [string, string];
          emit({ type: 'tool.call', 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': c.name, turn: s + 1, round: r, server: c.server ?? server, tool,
            key: toolCallKey(c), outcome: c.outcome, ms: c.ms ?? 5, argBytes: Buffer.byteLength(JSON.stringify(c.args)), resultBytes: Buffer.byteLength(result),
            ...(c.errorType === undefined ? {} : { 'error.type': c.errorType }), ...(c.probe === undefined ? {} : { probe: true }), 'gen_ai.tool.call.id': c.id });
        }
        emit({ type: 'message', step: s, message: { role: 'tool', toolCallId: c.id, toolName: c.name, content: result,
          isError: c.outcome !== 'ok' && c.outcome !== 'short_circuited' } });
      }
    });
    const passed = step.passed ?? true;
    emit({ type: 'step.end', step: s, passed, reason: step.reason ?? 'answered', failedChecks: step.failedChecks ?? [],
      ...(step.judged === undefined ? {} : { judged: step.judged }),
      rounds: step.rounds.length, calls: step.rounds.reduce((n, r) => n + (r.calls ?? []).filter((c) => c.outcome !== undefined).length, 0), ms: 40 });
  });
  if (options.end !== false) emit({ type: 'pass.end', passed: steps.every((s) => s.passed ?? true), steps: steps.length, ms: 100 });
  return events;
}
