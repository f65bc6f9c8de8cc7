// Trace events: one JSONL line each, written as they happen (docs/runner.md, "The results folder").
// The types are inferred from the zod shapes in schema.ts, which readers validate against, so
// what the writer may write and what a reader accepts cannot drift apart.
//
// Secrets never enter an event as written: the writer scrubs the values of environment
// variables given to servers or named like a key, token, secret or password, and the pass's
// temporary workspace path (written `{workspace}`, as rung files write it), from every string
// (scrub.ts). `--redact content` keeps only hashes and byte counts of the conversation
// (redact.ts).
import type { z } from 'zod';
import type { RosterCounters } from '../reliability/roster.ts';
import { EVENT_SHAPES, EVENT_TYPES, OUTCOMES } from './schema.ts';
import type { CONTENT_LEVELS, EventType, STEP_END_REASONS } from './schema.ts';

export { TRACE_VERSION, OLDEST_TRACE_VERSION, EVENT_TYPES, OUTCOMES, STEP_END_REASONS, CONTENT_LEVELS } from './schema.ts';
export type { EventType, ContentLevel } from './schema.ts';

/** What happened to one tool call (README, "The reliability layer"). */
export type Outcome = (typeof OUTCOMES)[number];
export type StepEndReason = (typeof STEP_END_REASONS)[number];
export type Content = (typeof CONTENT_LEVELS)[number];

type Shape<T extends EventType> = z.infer<(typeof EVENT_SHAPES)[T]>;

export type RunStart = Shape<'run.start'>;
export type PassStart = Shape<'pass.start'>;
export type StepStart = Shape<'step.start'>;
export type MessageEvent = Shape<'message'>;
export type ModelRequest = Shape<'model.request'>;
export type ModelResponse = Shape<'model.response'>;
export type ModelToolCall = ModelResponse['toolCalls'][number];
/** The six counters are the roster cache's own, so the trace cannot drift from what the cache counts. */
export type ToolsList = Shape<'tools.list'> & RosterCounters;
export type ToolCallEvent = Shape<'tool.call'>;
export type ElicitationEvent = Shape<'elicitation'>;
export type StepEnd = Shape<'step.end'>;
export type FailedCheck = StepEnd['failedChecks'][number];
export type JudgedCheck = NonNullable<StepEnd['judged']>[number];
export type PassEnd = Shape<'pass.end'>;
export type RunEnd = Shape<'run.end'>;

/** A message as a `message` event records it (the assistant's are on model.response). */
export type RecordedMessage = MessageEvent['message'];
export type RecordedAssistantMessage = NonNullable<ModelResponse['message']>;
export type RecordedToolSpec = NonNullable<ToolsList['offered']>[number];

export type TraceEvent =
  | RunStart
  | PassStart
  | StepStart
  | MessageEvent
  | ModelRequest
  | ModelResponse
  | ToolsList
  | ToolCallEvent
  | ElicitationEvent
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
