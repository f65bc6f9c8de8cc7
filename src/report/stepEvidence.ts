// What a pass's trace says each of its steps did, in the terms a step's checks read
// (src/rungs/checks.ts StepRecord, less the workspace), for `ladder rescore`. The calls are
// rebuilt as the agent loop listed them (src/agent/calls.ts): every call the model asked for
// while the ceiling allowed, sent or answered by the harness, including a call whose arguments
// were not a JSON object (never sent, so it has no tool.call event).
//
// Kept in step with src/agent/calls.ts runCalls: a change to which calls it lists must change
// callsAsAsked too, or rescoring an unchanged rung stops reproducing the run.
// From its own module: the agent's index loads the loop and every provider's client with it.
import { toolCallKey } from '../agent/events.ts';
import type { StepCall } from '../rungs/checks.ts';
import type { ContentLevel, ModelResponse, PassStart, ToolCallEvent, TraceEvent } from '../trace/index.ts';
import { readCountedAttempt } from './attempt.ts';
import { namedFor } from './transcript/build.ts';
import type { PassRecord } from './passes.ts';

export interface StepEvidence {
  step: number;
  /** The step's prompt as recorded (content `full` only). */
  prompt: string | undefined;
  /** Text of the step's last model response ('' when none came); undefined when the trace holds no text. */
  answer: string | undefined;
  /** Each model response of the step, in order: its `t`, and its text when recorded. */
  responses: { t: number; text: string | undefined }[];
  calls: StepCall[];
  /** Whether the calls carry their arguments: only a trace that holds the conversation has them. */
  callArgs: boolean;
  /** Model requests of the step. */
  rounds: number;
  toolsOfferedPerRound: number[];
  serversConfigured: number;
}

export interface PassEvidence {
  content: ContentLevel;
  steps: Map<number, StepEvidence>;
}

/**
 * One attempt at a pass in its trace file, held until its pass.end says it is the one (a
 * pass.end adds nothing); `evidence()` says what its steps did.
 */
export class EvidenceReader {
  readonly prompts = new Map<number, string>();
  readonly responses: ModelResponse[] = [];
  readonly requests: { step: number; tools: number }[] = [];
  readonly toolCalls: ToolCallEvent[] = [];
  readonly ceilings = new Map<number, number>();
  readonly steps = new Set<number>();
  configured = 0;

  constructor(readonly start: PassStart) {}

  add(e: TraceEvent): void {
    switch (e.type) {
      case 'step.start':
        this.steps.add(e.step);
        this.ceilings.set(e.step, e.ceiling);
        break;
      case 'message':
        if (e.message.role === 'user' && e.message.content !== undefined && !this.prompts.has(e.step)) this.prompts.set(e.step, e.message.content);
        break;
      case 'model.request':
        this.requests.push({ step: e.step, tools: e.tools });
        break;
      case 'model.response':
        this.responses.push(e);
        break;
      case 'tools.list':
        this.configured = e.configured;
        break;
      case 'tool.call':
        this.toolCalls.push(e);
        break;
      default:
        break;
    }
  }

  get content(): ContentLevel {
    return this.start.v < 2 ? 'none' : (this.start.content ?? 'none');
  }

  evidence(): PassEvidence {
    return evidenceOf(this);
  }
}

/** The evidence of the pass a report counted (its attempt as src/report/attempt.ts reads it). */
export async function readPassEvidence(dir: string, pass: PassRecord): Promise<PassEvidence> {
  return (await readCountedAttempt(dir, pass, (start) => new EvidenceReader(start))).evidence();
}

function evidenceOf(attempt: EvidenceReader): PassEvidence {
  const full = attempt.content === 'full';
  // The lane's turn for step s is s + 1; a call joins its model.response by round and the model's
  // id. A call the gateway could not give the model's id (an external agent sent other arguments
  // than the model's) waits, by round, for the model's call of its tool that no id claimed.
  // The lane's calls by `turn:round:id`, and those without an id by `turn:round`.
  const lanesCalls = new Map<string, ToolCallEvent[]>();
  for (const call of attempt.toolCalls) {
    const id = call['gen_ai.tool.call.id'];
    const key = id === undefined ? `${call.turn}:${call.round}` : `${call.turn}:${call.round}:${id}`;
    lanesCalls.set(key, [...(lanesCalls.get(key) ?? []), call]);
  }
  const steps = new Map<number, StepEvidence>();
  for (const step of attempt.steps) {
    const responses = attempt.responses.filter((r) => r.step === step);
    const answered = responses.filter((r) => r.message !== undefined);
    steps.set(step, {
      step,
      prompt: attempt.prompts.get(step),
      answer: full ? (answered.at(-1)?.message?.content ?? '') : undefined,
      responses: responses.filter((r) => r['error.type'] === undefined).map((r) => ({ t: r.t, text: r.message?.content })),
      calls: full ? callsAsAsked(step, answered, attempt.ceilings.get(step) ?? 0, lanesCalls) : callsAsSent(step, attempt.toolCalls),
      callArgs: full,
      rounds: attempt.requests.filter((r) => r.step === step).length,
      toolsOfferedPerRound: attempt.requests.filter((r) => r.step === step).map((r) => r.tools),
      serversConfigured: attempt.configured,
    });
  }
  return { content: attempt.content, steps };
}

/**
 * The calls of a step as the loop recorded them, from the model's tool calls: while the
 * ceiling allowed, one that reached the lane (its tool.call, found by id) or one not sent for
 * arguments that were not a JSON object (or that the adapter marked invalid). A call with
 * neither was not made: the step stopped first.
 */
function callsAsAsked(step: number, responses: ModelResponse[], ceiling: number, lanesCalls: Map<string, ToolCallEvent[]>): StepCall[] {
  const calls: StepCall[] = [];
  for (const response of responses) {
    const asked = response.message?.toolCalls ?? [];
    for (const call of asked) {
      if (calls.length >= ceiling) break;
      const sent = lanesCalls.get(`${step + 1}:${response.round}:${call.id}`)?.shift() ?? unclaimed(lanesCalls.get(`${step + 1}:${response.round}`), call.name);
      // Its arguments are the model's: the call reached the lane under this id only with these.
      if (sent !== undefined) calls.push({ tool: sent['gen_ai.tool.name'], key: sent.key, args: call.args, outcome: asRecorded(sent) });
      // Answered without being sent, keyed as the loop keys it: the tool with no arguments.
      else if (call.rawArgs !== undefined || call.invalid !== undefined) calls.push({ tool: call.name, key: toolCallKey({ name: call.name, args: {} }), outcome: 'invalid_arguments' });
    }
  }
  return calls;
}

/** The first call of the round without the model's id that is the model's call of `name` (under an agent's prefix, too), taken. */
function unclaimed(idless: ToolCallEvent[] | undefined, name: string): ToolCallEvent | undefined {
  const at = idless?.findIndex((sent) => namedFor(name, sent['gen_ai.tool.name'])) ?? -1;
  return at < 0 ? undefined : idless!.splice(at, 1)[0];
}

/** Without the conversation (format 1, redacted): the calls that reached the lane, in order. */
function callsAsSent(step: number, toolCalls: ToolCallEvent[]): StepCall[] {
  return toolCalls.filter((c) => c.turn === step + 1).map((c) => ({ tool: c['gen_ai.tool.name'], key: c.key, outcome: asRecorded(c) }));
}

/** A call's outcome as the loop records it: a call its step stopped is `abandoned` there (src/agent/calls.ts). */
const asRecorded = (call: ToolCallEvent): string => (call['error.type'] === 'abandoned' ? 'abandoned' : call.outcome);
