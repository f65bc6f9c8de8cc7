// One pass's conversation rebuilt from its trace events: the facts a transcript shows, before
// any wording. Calls join their lane record (`tool.call`) and their tool message by the
// model's call id; a trace without ids (format 1, or `--redact content`, where the assistant
// message is not kept) joins them by call key within the round instead, in order.
//
// The builder takes any sequence of well-formed events without throwing: a reader has already
// left damaged passes out, but a transcript is also what someone reads to find out what went
// wrong, so an event in an unexpected place lands in the nearest step and round instead.
import type { ContentLevel, FailedCheck, JudgedCheck, Outcome, StepEndReason, TraceEvent } from '../../trace/index.ts';

/** Text the trace recorded; when it kept none, its size (and hash) if known. */
export interface Recorded {
  text?: string;
  bytes?: number | undefined;
  hash?: string;
}

/** The lane's record of a call that was made (or answered by a mechanism): the `tool.call` event. */
export interface LaneRecord {
  outcome: Outcome;
  errorType: string | undefined;
  ms: number;
  probe: boolean;
  server: string;
  argBytes: number;
  resultBytes: number;
}

export interface CallRecord {
  id: string | undefined;
  name: string;
  /** Hash of the call key: equal keys are identical calls. */
  key: string | undefined;
  /** The arguments as compact JSON, or as the provider sent them when they were not an object. */
  args: Recorded;
  /** Why the adapter marked the call invalid (cut off, unreadable); such a call is never made. */
  invalid: string | undefined;
  /** An external agent's own tool (its shell, say): the agent ran it, not the MCP gateway. */
  own: boolean;
  lane: LaneRecord | undefined;
  /**
   * The lane's call has other arguments than the model asked for: an external agent rewrote them
   * before sending (Claude Code and Qwen Code turn "1234" into 1234 for a number parameter).
   */
  rewritten: boolean;
  /** The tool message the model got back. */
  result: Recorded | undefined;
  isError: boolean | undefined;
  /** Refused: the round at which the identical call failed earlier in the turn. */
  failedAtRound: number | undefined;
  /** Short-circuited: where the answer pointed at was given, and how often the call was asked. */
  answeredAt: { step: number; round: number } | undefined;
  asked: number;
}

export interface RoundRecord {
  round: number;
  /** Tools offered on the request (undefined when the request was not recorded). */
  tools: number | undefined;
  text: Recorded | undefined;
  tokensIn: number | null;
  tokensOut: number | null;
  ms: number | undefined;
  attempts: number | undefined;
  /** The provider's failure, when no response came. */
  error: string | undefined;
  /** Reasoning that came with the turn; redacted thinking as undefined (the provider sent it sealed). */
  thinking: (string | undefined)[];
  /** The provider's refusal text. */
  refusal: string | undefined;
  /** What the adapter changed for the provider, first recorded on this response. */
  adaptations: Record<string, unknown>[];
  calls: CallRecord[];
}

export interface StepRecord {
  step: number;
  ceiling: number | undefined;
  timeLimitMs: number | undefined;
  prompt: Recorded | undefined;
  /** Tools offered when the turn opened; names when the trace recorded them. */
  tools: { count: number; names: string[] | undefined; failed: string[]; protocols?: Record<string, string> } | undefined;
  rounds: RoundRecord[];
  /** Servers' requests for input during the step, and how each was answered (`elicitation` events); absent: none. */
  asked?: { server: string; message: string; action: string; declared: boolean; content: Record<string, unknown> | undefined }[];
  end: {
    passed: boolean; reason: StepEndReason; failedChecks: FailedCheck[]; judged: JudgedCheck[]; rounds: number; calls: number; ms: number; error: string | undefined;
    /** An external agent's step after the first: whether its first request carried the earlier steps (absent: not read). */
    carried?: boolean;
    agentNotes: string[];
  } | undefined;
}

export interface PassTranscript {
  rung: string;
  arm: string;
  pass: number;
  seed: number;
  /** How much of the conversation the trace holds (`none`: trace format 1). */
  content: ContentLevel;
  system: Recorded | undefined;
  steps: StepRecord[];
  end: { passed: boolean; ms: number; error: string | undefined } | undefined;
}

type Event<T extends TraceEvent['type']> = Extract<TraceEvent, { type: T }>;

function recorded(content: string | undefined, bytes: number | undefined, hash?: string): Recorded {
  if (content !== undefined) return { text: content };
  return hash === undefined ? { bytes } : { bytes, hash };
}

export class TranscriptBuilder {
  readonly transcript: PassTranscript;
  #names: string[] | undefined;
  /** Per turn: the round of the first failure of each call key, and of each tool (the breaker's `tool` form). */
  #failedKeys = new Map<string, number>();
  #failedTools = new Map<string, number>();
  #turn = -1;
  /** Per pass: where each call key was first answered, and how often it was asked. */
  #answered = new Map<string, { step: number; round: number }>();
  #asked = new Map<string, number>();

  constructor(start: Event<'pass.start'>) {
    this.transcript = {
      rung: start.rung, arm: start.arm, pass: start.pass, seed: start.seed,
      content: start.v < 2 ? 'none' : (start.content ?? 'none'), system: undefined, steps: [], end: undefined,
    };
  }

  add(e: TraceEvent): void {
    switch (e.type) {
      case 'step.start': {
        const step = this.#step(e.step);
        step.ceiling = e.ceiling;
        step.timeLimitMs = e.timeLimitMs;
        return;
      }
      case 'message':
        return this.#message(e);
      case 'tools.list': {
        // Absent `offered` means the same tools as the turn before (none recorded before: unknown).
        if (e.offered !== undefined) this.#names = e.offered.map((tool) => tool.name);
        this.#step(e.turn - 1).tools = {
          count: e.tools, names: e.tools === 0 ? [] : this.#names, failed: e.failed, ...(e.protocols === undefined ? {} : { protocols: e.protocols }),
        };
        return;
      }
      case 'model.request':
        this.#round(e.step, e.round).tools = e.tools;
        return;
      case 'model.response':
        return this.#response(e);
      case 'tool.call':
        return this.#call(e);
      case 'elicitation':
        // Asked during turn t, which is step t - 1 (before the first turn: step 0).
        (this.#step(Math.max(0, e.turn - 1)).asked ??= []).push({ server: e.server, message: e.message, action: e.action, declared: e.declared, content: e.content });
        return;
      case 'step.end':
        this.#step(e.step).end = {
          passed: e.passed, reason: e.reason, failedChecks: e.failedChecks, judged: e.judged ?? [], rounds: e.rounds, calls: e.calls, ms: e.ms, error: e.error,
          ...(e.carried === undefined ? {} : { carried: e.carried }),
          agentNotes: e.agentNotes ?? [],
        };
        return;
      case 'pass.end':
        this.transcript.end = { passed: e.passed, ms: e.ms, error: e.error };
        return;
      default:
        return;
    }
  }

  #step(index: number): StepRecord {
    const steps = this.transcript.steps;
    let step = steps.find((s) => s.step === index);
    if (step === undefined) {
      step = { step: index, ceiling: undefined, timeLimitMs: undefined, prompt: undefined, tools: undefined, rounds: [], end: undefined };
      steps.push(step);
      steps.sort((x, y) => x.step - y.step);
    }
    return step;
  }

  #round(stepIndex: number, index: number): RoundRecord {
    const rounds = this.#step(stepIndex).rounds;
    let round = rounds.find((r) => r.round === index);
    if (round === undefined) {
      round = {
        round: index, tools: undefined, text: undefined, tokensIn: null, tokensOut: null, ms: undefined, attempts: undefined, error: undefined,
        thinking: [], refusal: undefined, adaptations: [], calls: [],
      };
      rounds.push(round);
      rounds.sort((x, y) => x.round - y.round);
    }
    return round;
  }

  #message(e: Event<'message'>): void {
    const m = e.message;
    const content = recorded(m.content, e.bytes, e.hash);
    if (m.role === 'system') this.transcript.system = content;
    else if (m.role === 'user') this.#step(e.step).prompt = content;
    else {
      // Without ids on the calls (a redacted trace), a call that was not made joins by name.
      const call = this.#findCall(e.step, (c) => c.id === m.toolCallId) ??
        this.#findCall(e.step, (c) => c.id === undefined && c.lane === undefined && c.name === m.toolName) ??
        this.#newCall(e.step, undefined, m.toolName, m.toolCallId);
      call.id ??= m.toolCallId;
      call.result = content;
      call.isError = m.isError;
    }
  }

  #response(e: Event<'model.response'>): void {
    const round = this.#round(e.step, e.round);
    round.tokensIn = e['gen_ai.usage.input_tokens'];
    round.tokensOut = e['gen_ai.usage.output_tokens'];
    round.ms = e.ms;
    round.attempts = e.attempts;
    round.error = e['error.type'];
    round.adaptations = (e.adaptations ?? []).map((a) => ({ ...a }));
    if (e['error.type'] !== undefined) return;
    const message = e.message;
    round.text = message === undefined ? { bytes: e.textBytes } : { text: message.content };
    round.thinking = (message?.thinking ?? []).map((block) => (block.type === 'thinking' ? block.thinking : undefined));
    round.refusal = message?.refusal;
    if (message?.toolCalls !== undefined) {
      message.toolCalls.forEach((call, i) => {
        const args: Recorded = { text: call.rawArgs ?? JSON.stringify(call.args) };
        const record = newCall(call.id, call.name, e.toolCalls[i]?.key, args);
        record.invalid = call.invalid;
        record.own = e.toolCalls[i]?.own === true;
        round.calls.push(record);
      });
    } else {
      for (const call of e.toolCalls) round.calls.push({ ...newCall(undefined, call['gen_ai.tool.name'], call.key, { bytes: undefined }), own: call.own === true });
    }
  }

  #call(e: Event<'tool.call'>): void {
    const step = e.turn - 1;
    const id = e['gen_ai.tool.call.id'];
    const name = e['gen_ai.tool.name'];
    const byKey = (id === undefined ? undefined : this.#findCall(step, (c) => c.id === id)) ??
      this.#findCall(step, (c) => c.lane === undefined && c.id === undefined && c.key === e.key, e.round);
    // No call of the round has this key: an external agent changed the arguments on the way (the
    // gateway could not pair the call with the model's id either). The round's unmade call of the
    // same tool, under the agent's namespace, is the one it sent.
    const rewritten = byKey === undefined && id === undefined
      ? this.#findCall(step, (c) => c.lane === undefined && c.key !== e.key && namedFor(c.name, name), e.round)
      : undefined;
    if (rewritten !== undefined) rewritten.rewritten = true;
    const call = byKey ?? rewritten ?? this.#newCall(step, e.round, name, id);
    call.id ??= id;
    call.key ??= e.key;
    if (call.args.text === undefined) call.args = { bytes: e.argBytes };
    call.lane = {
      outcome: e.outcome, errorType: e['error.type'], ms: e.ms, probe: e.probe === true, server: e.server, argBytes: e.argBytes,
      resultBytes: e.resultBytes,
    };
    call.result ??= { bytes: e.resultBytes };
    if (e.turn !== this.#turn) {
      this.#turn = e.turn;
      this.#failedKeys = new Map();
      this.#failedTools = new Map();
    }
    const asked = (this.#asked.get(e.key) ?? 0) + 1;
    this.#asked.set(e.key, asked);
    call.asked = asked;
    if (e.outcome === 'refused') call.failedAtRound = this.#failedKeys.get(e.key) ?? this.#failedTools.get(name);
    if (e.outcome === 'short_circuited') call.answeredAt = this.#answered.get(e.key);
    if (e.outcome === 'failed') {
      if (!this.#failedKeys.has(e.key)) this.#failedKeys.set(e.key, e.round);
      if (!this.#failedTools.has(name)) this.#failedTools.set(name, e.round);
    }
    if (e.outcome === 'ok' && !this.#answered.has(e.key)) this.#answered.set(e.key, { step, round: e.round });
  }

  /** A call of the step (of one round when `round` is given) that `match` picks, first first. */
  #findCall(step: number, match: (call: CallRecord) => boolean, round?: number): CallRecord | undefined {
    const record = this.transcript.steps.find((s) => s.step === step);
    for (const r of record?.rounds ?? []) {
      if (round !== undefined && r.round !== round) continue;
      const call = r.calls.find(match);
      if (call !== undefined) return call;
    }
    return undefined;
  }

  /** A call no model response announced: kept in its round, or the step's last. */
  #newCall(step: number, round: number | undefined, name: string, id: string | undefined): CallRecord {
    const rounds = this.#step(step).rounds;
    const target = round !== undefined ? this.#round(step, round) : (rounds.at(-1) ?? this.#round(step, 0));
    const call = newCall(id, name, undefined, { bytes: undefined });
    target.calls.push(call);
    return call;
  }
}

/** The model's name for a gateway tool: the lane's name itself, or under the agent's prefix (`mcp__ladder__`, `mcp_ladder_`). */
export function namedFor(modelName: string, laneName: string): boolean {
  return modelName === laneName || modelName.endsWith(`_${laneName}`);
}

function newCall(id: string | undefined, name: string, key: string | undefined, args: Recorded): CallRecord {
  return {
    id, name, key, args, invalid: undefined, own: false, lane: undefined, rewritten: false, result: undefined, isError: undefined, failedAtRound: undefined, answeredAt: undefined,
    asked: 0,
  };
}

/**
 * The transcript of the last pass in `events` (a file may hold a pass restarted on resume: the
 * last start counts), or undefined when there is no pass.start.
 */
export function buildTranscript(events: Iterable<TraceEvent>): PassTranscript | undefined {
  let builder: TranscriptBuilder | undefined;
  for (const event of events) {
    if (event.type === 'pass.start') builder = new TranscriptBuilder(event);
    else builder?.add(event);
  }
  return builder?.transcript;
}
