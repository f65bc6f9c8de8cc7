// Trace events: one JSONL line each, written as they happen (DESIGN.md "Results and traces").
//
// Field names: where OpenTelemetry's GenAI or MCP semantic conventions name an attribute, the
// event carries it under that dotted name (`gen_ai.tool.name`, `mcp.method.name`,
// `gen_ai.usage.input_tokens`, `error.type`, ...), so a trace maps onto spans without a
// lookup table. The fields DESIGN.md names (`turn`, `round`, `server`, `tool`, `key`, `outcome`,
// `ms`, ...) keep those short names: they have no OpenTelemetry equivalent, and the report
// layer reads them. No field holds a secret: environment values, headers, API keys and
// argument values never enter an event (arguments appear only as a hash and a byte count).

import type { RosterCounters } from '../reliability/roster.ts';

/** Bumped when a field changes meaning or disappears; adding an optional field does not. */
export const TRACE_VERSION = 1;

export const EVENT_TYPES = [
  'run.start',
  'pass.start',
  'step.start',
  'model.request',
  'model.response',
  'tools.list',
  'tool.call',
  'step.end',
  'pass.end',
  'run.end',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const OUTCOMES = ['ok', 'failed', 'timeout', 'refused', 'unavailable', 'short_circuited'] as const;
/** What happened to one tool call (DESIGN.md "Reliability contracts"). */
export type Outcome = (typeof OUTCOMES)[number];

export type StepEndReason = 'answered' | 'ceiling' | 'time_limit' | 'errored';

interface Stamp<T extends EventType> {
  /** Format version, TRACE_VERSION when written. */
  v: number;
  type: T;
  /** Milliseconds since the pass started (for run.start and run.end, since the run started). */
  t: number;
}

export interface RunStart extends Stamp<'run.start'> {
  runId: string;
  /** Wall-clock start, ISO 8601; `t` is relative to it. */
  time: string;
  ladderVersion: string;
  /** The model spec, e.g. `ollama:qwen3:8b`; never an API key. */
  'gen_ai.request.model': string;
  arms: string[];
  passes: number;
  seed: number;
  rungs: string[];
}

export interface PassStart extends Stamp<'pass.start'> {
  rung: string;
  /** The arm in canonical form (src/lane/arm.ts formatArm). */
  arm: string;
  /** 0-based index of the pass within its rung and arm. */
  pass: number;
  seed: number;
  time: string;
}

export interface StepStart extends Stamp<'step.start'> {
  /** 0-based step index; the lane's turn for this step is `step + 1`. */
  step: number;
  ceiling: number;
  timeLimitMs: number;
}

export interface ModelRequest extends Stamp<'model.request'> {
  step: number;
  round: number;
  'gen_ai.operation.name': 'chat';
  'gen_ai.provider.name': string;
  'gen_ai.request.model': string;
  /** Tools offered on this request; 0 while servers are configured is a zero-tool round. */
  tools: number;
  messages: number;
  messageBytes: number;
}

export interface ModelToolCall {
  /** The qualified name the model asked for. */
  'gen_ai.tool.name': string;
  /** Hash of the call key, the same as the matching tool.call's `key`. */
  key: string;
}

export interface ModelResponse extends Stamp<'model.response'> {
  step: number;
  round: number;
  'gen_ai.usage.input_tokens': number | null;
  'gen_ai.usage.output_tokens': number | null;
  'gen_ai.response.finish_reasons': string[];
  ms: number;
  attempts: number;
  textBytes: number;
  toolCalls: ModelToolCall[];
  /** Set when the provider failed after its retries; the step then ends `errored`. */
  'error.type'?: string;
}

/** One turn's roster, as the lane fixed it when the turn opened (DESIGN.md "Roster cache"). */
// The six counters are the roster cache's own (configured, reached, listed, registered,
// unavailable, cached), so the trace cannot drift from what the cache counts.
export interface ToolsList extends Stamp<'tools.list'>, RosterCounters {
  'mcp.method.name': 'tools/list';
  turn: number;
  /** Tools offered to the model, `harness__refresh_tools` included when offered. */
  tools: number;
  /** Servers whose listing was attempted this turn and failed. */
  failed: string[];
  ms: number;
}

export interface ToolCallEvent extends Stamp<'tool.call'> {
  'mcp.method.name': 'tools/call';
  /** The qualified name the model called (`server__tool`). */
  'gen_ai.tool.name': string;
  turn: number;
  round: number;
  /** The configured server name ('' when the name routes to no server). */
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  /** sha256 of the call key, first 16 hex digits: equal keys are identical calls. */
  key: string;
  outcome: Outcome;
  ms: number;
  /** UTF-8 bytes of the arguments as JSON. */
  argBytes: number;
  /** UTF-8 bytes of the text the model got back. */
  resultBytes: number;
  /** Present when outcome is not ok: `tool_error`, `timeout`, an MCP error code, or the mechanism. */
  'error.type'?: string;
  /** The call was the one probe let through a half-open circuit. */
  probe?: true;
  /** The tool is deterministic (rung config or a trusted server hint): the report splits repeat rates on it. */
  deterministic?: boolean;
}

export interface FailedCheck {
  check: string;
  why: string;
}

export interface StepEnd extends Stamp<'step.end'> {
  step: number;
  passed: boolean;
  reason: StepEndReason;
  failedChecks: FailedCheck[];
  rounds: number;
  calls: number;
  ms: number;
  /** `t` of the first model response whose text would already pass the step's answer checks. */
  answeredAt?: number;
}

export interface PassEnd extends Stamp<'pass.end'> {
  /** Every step passed. */
  passed: boolean;
  steps: number;
  ms: number;
  /** A harness failure that ended the pass early (not a model failure). */
  error?: string;
}

export interface RunEnd extends Stamp<'run.end'> {
  status: 'complete' | 'interrupted' | 'failed';
  passes: number;
  ms: number;
}

export type TraceEvent =
  | RunStart
  | PassStart
  | StepStart
  | ModelRequest
  | ModelResponse
  | ToolsList
  | ToolCallEvent
  | StepEnd
  | PassEnd
  | RunEnd;

type WithoutStamp<E> = E extends unknown ? Omit<E, 'v' | 't'> : never;

/** An event as a producer emits it; the trace stamps `v` and `t`. */
export type TraceEventInput = WithoutStamp<TraceEvent>;

/** Where producers (the lane, the agent loop, the runner) send events. Must not throw. */
export type Emit = (event: TraceEventInput) => void;

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}
