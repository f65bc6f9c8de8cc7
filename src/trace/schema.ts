// The trace format as zod shapes: the writer's event types are inferred from them, and every
// reader validates each line against them, so a trace that breaks the format is named where
// it breaks (file, line, field) instead of surfacing later as a TypeError in a report.
//
// Versions. 1: counts only (arguments and results as a hash and a byte count, the model's text
// as a byte count). 2 adds the conversation, so each request the model was sent can be
// rebuilt exactly: `message` events (system, user and tool messages), the assistant message on
// `model.response`, the offered tools on `tools.list`, the request hash and sampling options
// on `model.request`, the tool-call id on `tool.call`, and how much content the pass recorded
// on `pass.start`. Every version-2 field is optional in the shape, so one shape per event type
// reads both versions; what a missing field means is decided by the pass's `content`.
//
// Field names: where OpenTelemetry's GenAI or MCP semantic conventions name an attribute, the
// event carries it under that dotted name (`gen_ai.tool.name`, `mcp.method.name`,
// `gen_ai.usage.input_tokens`, `error.type`, ...), so a trace maps onto spans without a
// lookup table. Ladder's own fields (`turn`, `round`, `server`, `tool`, `key`, `outcome`,
// `ms`, ...) keep those short names: they have no OpenTelemetry equivalent.
import { z } from 'zod';

/** Bumped when a field changes meaning or disappears; adding an optional field does not. */
export const TRACE_VERSION = 2;
/** The oldest format every reader still reads. */
export const OLDEST_TRACE_VERSION = 1;

export const EVENT_TYPES = [
  'run.start',
  'pass.start',
  'step.start',
  'message',
  'model.request',
  'model.response',
  'tools.list',
  'tool.call',
  'elicitation',
  'step.end',
  'pass.end',
  'run.end',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const OUTCOMES = ['ok', 'failed', 'timeout', 'refused', 'unavailable', 'short_circuited'] as const;
/**
 * How a step ended. `agent_failed`: an external agent's own failure (it crashed, exited
 * non-zero, printed nothing, was not installed): the step failed, and counts as failed.
 * `agent_stopped`: an external agent's own guard stopped it (Qwen Code's loop detection, which
 * cannot be switched off), its message in `error`; the step failed, and counts as failed.
 */
export const STEP_END_REASONS = ['answered', 'ceiling', 'time_limit', 'errored', 'agent_failed', 'agent_stopped'] as const;
/**
 * How much of the conversation a pass recorded: `full` (version 2, the default), `redacted`
 * (`--redact content`: hashes and byte counts only), `none` (a version-1 trace).
 */
export const CONTENT_LEVELS = ['full', 'redacted', 'none'] as const;
export type ContentLevel = (typeof CONTENT_LEVELS)[number];

const count = z.number().int().nonnegative();
const ms = z.number().nonnegative();
const text = z.string();
/** First 16 hex digits of a sha256. */
const hash16 = z.string().regex(/^[0-9a-f]{16}$/);

const stamp = <T extends EventType>(type: T) => ({
  v: z.number().int().min(OLDEST_TRACE_VERSION),
  type: z.literal(type),
  t: z.number(),
});

// ---- the conversation, in Ladder's provider-neutral form (src/models/types.ts) ----

export const toolCallShape = z.object({
  id: text,
  name: text,
  args: z.record(z.string(), z.unknown()),
  /** The arguments as the provider sent them when they were not a JSON object. */
  rawArgs: text.optional(),
  /** Why the call was not made (cut off by max_tokens, unreadable to the provider's server). */
  invalid: text.optional(),
});

/** Reasoning that came with a turn, kept so it goes back to the provider unchanged. */
export const thinkingShape = z.discriminatedUnion('type', [
  z.object({ type: z.literal('thinking'), thinking: text, signature: text.optional() }),
  z.object({ type: z.literal('redacted_thinking'), data: text }),
]);

/**
 * The assistant's turn as it went back into the conversation. A provider's extra
 * parts of a turn (thinking blocks, say) are kept: readers validate, they never strip.
 */
export const assistantMessageShape = z.object({
  role: z.literal('assistant'),
  content: text,
  toolCalls: z.array(toolCallShape).readonly().optional(),
  thinking: z.array(thinkingShape).readonly().optional(),
  /** The provider's refusal text, sent back as it came. */
  refusal: text.optional(),
});

/**
 * What an adapter changed so a provider would take the request (a schema rewritten, a name
 * shortened, arguments that were not JSON, a message the provider refuses as it was); the
 * adapter's Adaptation (src/models/types.ts). Loose by kind, so a new kind reads as one.
 */
export const adaptationShape = z.object({ kind: text, tool: text.optional() }).catchall(z.unknown());

/** The messages a `message` event carries; the assistant's come on `model.response`. */
export const recordedMessageShape = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: text.optional() }),
  z.object({ role: z.literal('user'), content: text.optional() }),
  z.object({
    role: z.literal('tool'),
    toolCallId: text,
    toolName: text,
    content: text.optional(),
    isError: z.boolean().optional(),
  }),
]);

export const toolSpecShape = z.object({
  name: text,
  description: text,
  inputSchema: z.record(z.string(), z.unknown()),
});

export const samplingShape = z.object({
  temperature: z.number().optional(),
  seed: z.number().optional(),
  numCtx: z.number().optional(),
  maxTokens: z.number().optional(),
});

// ---- events ----

export const runStartShape = z.object({
  ...stamp('run.start'),
  runId: text,
  /** Wall-clock start, ISO 8601; `t` is relative to it. */
  time: text,
  ladderVersion: text,
  /** The model spec, e.g. `ollama:qwen3:8b`; never an API key. */
  'gen_ai.request.model': text,
  arms: z.array(text),
  passes: count,
  seed: z.number().int(),
  rungs: z.array(text),
  /** v2: how much content the run's passes record. */
  content: z.enum(CONTENT_LEVELS).optional(),
  /** v2: the run whose recorded model responses this run replays. */
  replayOf: text.optional(),
});

export const passStartShape = z.object({
  ...stamp('pass.start'),
  rung: text,
  /** The arm in canonical form (src/lane/arm.ts formatArm). */
  arm: text,
  /** 0-based index of the pass within its rung and arm. */
  pass: count,
  seed: z.number().int(),
  time: text,
  /** v2: `full` or `redacted`; absent in version 1, which recorded no content. */
  content: z.enum(CONTENT_LEVELS).optional(),
});

export const stepStartShape = z.object({
  ...stamp('step.start'),
  /** 0-based step index; the lane's turn for this step is `step + 1`. */
  step: count,
  ceiling: count,
  timeLimitMs: ms,
  /**
   * The tools the rung's reference solution calls in this step, in its order (qualified
   * `server__tool`, one per call): what the report's tool-selection metrics compare the step's
   * calls with. One-shot: the first step's start holds every step's. Absent in traces written
   * before it was recorded, whose steps those metrics leave out.
   */
  reference: z.array(text).optional(),
});

/**
 * v2: one message added to the conversation (system prompt, step prompt, tool result as the
 * model saw it), in the order it was added. When content is redacted, `message.content` is
 * left out and `bytes` and `hash` stand for it.
 */
export const messageShape = z.object({
  ...stamp('message'),
  step: count,
  message: recordedMessageShape,
  /** Redacted only: UTF-8 bytes and hash of the content left out. */
  bytes: count.optional(),
  hash: hash16.optional(),
});

export const modelRequestShape = z.object({
  ...stamp('model.request'),
  step: count,
  round: count,
  'gen_ai.operation.name': z.literal('chat'),
  'gen_ai.provider.name': text,
  'gen_ai.request.model': text,
  /** Tools offered on this request; 0 while servers are configured is a zero-tool round. */
  tools: count,
  messages: count,
  messageBytes: count,
  /** v2: hash of the request (messages, tools, options) as recorded; replay checks it. */
  hash: hash16.optional(),
  /** v2: sampling options sent with the request, when any were set. */
  options: samplingShape.optional(),
  /** An external agent's request: the wire format it spoke to the model gateway (openai-responses, anthropic-messages, ...). */
  wire: text.optional(),
  /**
   * An external agent's request that does not go on from the conversation recorded before it
   * (an agent started again, or one that re-sent its history changed): its messages are the
   * `message` events since the last `model.response`, recorded whole, and nothing before them.
   * Absent: the request is everything recorded before it in the pass (conversation.ts).
   */
  restart: z.literal(true).optional(),
});

export const modelToolCallShape = z.object({
  /** The qualified name the model asked for. */
  'gen_ai.tool.name': text,
  /** Hash of the call key, the same as the matching tool.call's `key`. */
  key: text,
  /** An external agent's own tool (its shell, its file editor): the MCP gateway never sees the call. */
  own: z.literal(true).optional(),
});

export const modelResponseShape = z.object({
  ...stamp('model.response'),
  step: count,
  round: count,
  'gen_ai.usage.input_tokens': count.nullable(),
  'gen_ai.usage.output_tokens': count.nullable(),
  /**
   * Of the input tokens, those read from and written to the provider's prompt cache, when it
   * reported them (OpenTelemetry GenAI names; both are included in `input_tokens`).
   */
  'gen_ai.usage.cache_read.input_tokens': count.optional(),
  'gen_ai.usage.cache_creation.input_tokens': count.optional(),
  'gen_ai.response.finish_reasons': z.array(text),
  ms,
  attempts: count,
  textBytes: count,
  toolCalls: z.array(modelToolCallShape),
  /** Set when the provider failed after its retries; the step then ends `errored`. */
  'error.type': text.optional(),
  /** v2, content `full`: the assistant message exactly as it went into the conversation. */
  message: assistantMessageShape.optional(),
  /** v2: what the adapter changed for the provider, each change once per pass (the first response it applied to). */
  adaptations: z.array(adaptationShape).optional(),
});

const rosterCounters = {
  configured: count,
  reached: count,
  listed: count,
  registered: count,
  unavailable: count,
  cached: count,
};

/** One turn's roster, as the lane fixed it when the turn opened (README, "The reliability layer"). */
export const toolsListShape = z.object({
  ...stamp('tools.list'),
  'mcp.method.name': z.literal('tools/list'),
  turn: z.number().int().positive(),
  ...rosterCounters,
  /** Tools offered to the model, `harness__refresh_tools` included when offered. */
  tools: count,
  /** Servers whose listing was attempted this turn and failed. */
  failed: z.array(text),
  ms,
  /**
   * v2, content `full`: the tools offered, as the model was given them, when they differ from
   * the pass's previous turn; absent means the same tools as the turn before.
   */
  offered: z.array(toolSpecShape).optional(),
  /**
   * The MCP revision each connected server spoke (`{"wb": "2025-11-25", "v2": "2026-07-28"}`), on
   * a pass's first listing and whenever it changes (a reconnect may land in another era); absent
   * means as before, and in traces written before it was recorded.
   */
  protocols: z.record(z.string(), text).optional(),
  /**
   * With the roster cache on: per server, the rule that decided its listing as the turn opened
   * (`stale`, `backoff`, `server-ttl`, `server-ttl-expired`, `server-zero`, `own-ttl`,
   * `own-ttl-expired`; src/reliability/roster.ts). Absent with it off (every server is listed
   * every turn), and in traces written before it was recorded.
   */
  rules: z.record(z.string(), text).optional(),
});

/**
 * A server asked for input (`elicitation/create` in 2025, an `input_required` result's embedded
 * request in 2026-07-28), and how the lane answered it: from the rung's declared answers
 * (`declared`), or declined when none matched (src/lane/elicit.ts).
 */
export const elicitationShape = z.object({
  ...stamp('elicitation'),
  'mcp.method.name': z.literal('elicitation/create'),
  server: text,
  /** The turn open when it was asked (0 before the first). */
  turn: z.number().int().nonnegative(),
  /** What the server asked; `sha256:<16 hex>` of it in a redacted trace, which drops `content`. */
  message: z.string(),
  action: z.enum(['accept', 'decline', 'cancel']),
  declared: z.boolean(),
  content: z.record(z.string(), z.unknown()).optional(),
});

export const toolCallShapeEvent = z.object({
  ...stamp('tool.call'),
  'mcp.method.name': z.literal('tools/call'),
  /** The qualified name the model called (`server__tool`). */
  'gen_ai.tool.name': text,
  turn: z.number().int().positive(),
  round: z.number().int().nonnegative(),
  /** The configured server name ('' when the name routes to no server). */
  server: text,
  /** The tool's own name on its server. */
  tool: text,
  /** sha256 of the call key, first 16 hex digits: equal keys are identical calls. */
  key: text,
  outcome: z.enum(OUTCOMES),
  ms,
  /** UTF-8 bytes of the arguments as JSON. */
  argBytes: count,
  /** UTF-8 bytes of the text the model got back. */
  resultBytes: count,
  /** Present when outcome is not ok: `tool_error`, `timeout`, an MCP error code, or the mechanism. */
  'error.type': text.optional(),
  /** The call was the one probe let through a half-open circuit. */
  probe: z.literal(true).optional(),
  /** The tool is deterministic (rung config or a trusted server hint): the report splits repeat rates on it. */
  deterministic: z.boolean().optional(),
  /** v2: the model's id for this call, as on its tool message (OpenTelemetry's gen_ai.tool.call.id). */
  'gen_ai.tool.call.id': text.optional(),
});

export const failedCheckShape = z.object({ check: text, why: text });

export const stepEndShape = z.object({
  ...stamp('step.end'),
  step: count,
  passed: z.boolean(),
  reason: z.enum(STEP_END_REASONS),
  failedChecks: z.array(failedCheckShape),
  /** Every judge check's verdict, passed ones too, with the model that gave it: a judged verdict is never shown as a computed one. */
  judged: z.array(z.object({
    check: text, passed: z.boolean(), model: text,
    /** US dollars, when the verdict was bought for this step (absent: served kept); null when the judge model is unpriced. */
    usd: z.number().nonnegative().nullable().optional(),
  })).optional(),
  rounds: count,
  calls: count,
  ms,
  /** `t` of the first model response whose text would already pass the step's answer checks. */
  answeredAt: z.number().optional(),
  /**
   * One line, when reason is `errored` (the provider's failure, or a replay that diverged),
   * `agent_failed` (the agent's failure) or `agent_stopped` (the agent's own message).
   */
  error: text.optional(),
  /**
   * An external agent's start-up within the step: from starting its process to its first model
   * request, or to the step's end when it made none (exec: every step; acp: the session's first).
   */
  agentStartupMs: ms.optional(),
  /**
   * An external agent's step after the first: whether its first model request carried the
   * earlier steps (their prompts and tool results; src/trace/continuity.ts). `false`: the step
   * ran as a new conversation. Absent for the first step, a step whose agent never asked the
   * model, the built-in loop (one conversation by construction), and traces written before it.
   */
  carried: z.boolean().optional(),
  /**
   * What an external agent said beside its answer, at most five lines: stderr warnings, ACP
   * notices, and what an acp agent does over ACP only (a permission it asked, its plan, a session
   * title, its slash commands).
   */
  agentNotes: z.array(text).optional(),
});

export const passEndShape = z.object({
  ...stamp('pass.end'),
  /** Every step passed. */
  passed: z.boolean(),
  steps: count,
  ms,
  /** A harness failure that ended the pass early (not a model failure). */
  error: text.optional(),
});

export const runEndShape = z.object({
  ...stamp('run.end'),
  status: z.enum(['complete', 'interrupted', 'failed']),
  passes: count,
  ms,
});

export const EVENT_SHAPES = {
  'run.start': runStartShape,
  'pass.start': passStartShape,
  'step.start': stepStartShape,
  message: messageShape,
  'model.request': modelRequestShape,
  'model.response': modelResponseShape,
  'tools.list': toolsListShape,
  'tool.call': toolCallShapeEvent,
  elicitation: elicitationShape,
  'step.end': stepEndShape,
  'pass.end': passEndShape,
  'run.end': runEndShape,
} as const satisfies Record<EventType, z.ZodType>;

/** Event types that version 1 did not have. */
export const SINCE_V2: ReadonlySet<EventType> = new Set(['message']);
