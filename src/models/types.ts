// One contract for every model Ladder drives: a provider-neutral request in, a
// provider-neutral response out. Adapters translate to and from each wire format, so the
// agent loop never learns which provider it is talking to.

export type Provider = 'ollama' | 'openai' | 'anthropic' | 'synthetic';

/**
 * A tool call the model asked for. `id` is the provider's own id (OpenAI `call_…`,
 * Anthropic `toolu_…`, Ollama's when it sends one, else one made from the conversation),
 * and must come back unchanged on the matching tool result, or the next request is invalid.
 */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /**
   * The arguments exactly as the provider sent them when they were not a JSON object
   * (OpenAI sends a string a model can get wrong). `args` is then `{}`, and this text is
   * what goes back to the provider on the next round.
   */
  readonly rawArgs?: string;
  /**
   * Set when the call must not be made, saying why in one line the model will read: the
   * response was cut off inside it (Anthropic `max_tokens`), or the provider's server could not
   * parse what the model wrote (Ollama). The loop answers it as a failed call and never sends it.
   */
  readonly invalid?: string;
}

/**
 * One block of the model's reasoning, kept so it goes back to the provider unchanged. Anthropic
 * sends `thinking` blocks with a `signature` and `redacted_thinking` blocks with opaque `data`,
 * and refuses a tool-use turn sent back without them or altered; Ollama sends its reasoning as
 * one text with no signature. Plain JSON, so it round-trips through a trace unchanged.
 */
export type ThinkingBlock =
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature?: string }
  | { readonly type: 'redacted_thinking'; readonly data: string };

export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
}

export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string;
  readonly toolCalls?: readonly ToolCall[];
  /** The reasoning that came with this turn, in the provider's order (see ThinkingBlock). */
  readonly thinking?: readonly ThinkingBlock[];
  /** OpenAI's `refusal`: the model declined, in its own words; sent back as it came. */
  readonly refusal?: string;
}

/** The answer to one tool call; `toolCallId` and `toolName` name the call it answers. */
export interface ToolResultMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: string;
  readonly isError?: boolean;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments, as an MCP server lists it (`type: "object"`). */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** Sampling options; each adapter sends the ones its provider accepts (see `ignoredOptions`). */
export interface SamplingOptions {
  readonly temperature?: number;
  readonly seed?: number;
  /** Context window in tokens; Ollama only (`num_ctx`). */
  readonly numCtx?: number;
  readonly maxTokens?: number;
}

export interface ModelRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
  readonly options?: SamplingOptions;
  /**
   * Where the request stands in its pass, when the conversation cannot say: an external agent's
   * conversation is its own (src/runner/external.ts). Adapters send nothing of it; a replay
   * matches on it, and checks only what the agent cannot vary (src/models/replayExternal.ts).
   */
  readonly at?: { readonly step: number; readonly round: number; readonly gatewayTools: readonly string[]; readonly prompt: string };
}

/** Why the model stopped, in one vocabulary; the provider's own word is in `providerStopReason`. */
export type StopReason = 'end' | 'tool_calls' | 'max_tokens' | 'refusal' | 'other';

/**
 * Token counts as the provider reported them; null when it reported none. `inputTokens` is all
 * of the input, cached or not (OpenTelemetry's `gen_ai.usage.input_tokens`): OpenAI's
 * `prompt_tokens` already is; Anthropic's `input_tokens` is only the uncached part, so its
 * adapter adds the cache reads and writes. The cache counts are present only when the provider
 * reported them, and are part of `inputTokens`; they are what a price table discounts.
 */
export interface Usage {
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  /** Input served from the provider's cache (OpenAI `cached_tokens`, Anthropic `cache_read_input_tokens`). */
  readonly cacheReadTokens?: number;
  /** Input written to the provider's cache (Anthropic `cache_creation_input_tokens`). */
  readonly cacheWriteTokens?: number;
}

/** Ollama's own counters; durations are in nanoseconds, as Ollama reports them. */
export interface OllamaDetails {
  readonly provider: 'ollama';
  readonly model: string;
  readonly promptEvalCount: number | null;
  readonly evalCount: number | null;
  readonly totalDurationNs: number | null;
  readonly loadDurationNs: number | null;
  readonly promptEvalDurationNs: number | null;
  readonly evalDurationNs: number | null;
}

export interface OpenAIDetails {
  readonly provider: 'openai';
  readonly id: string | null;
  readonly model: string | null;
  readonly systemFingerprint: string | null;
  /** `usage.prompt_tokens_details.cached_tokens`: input served from the provider's cache. */
  readonly cachedInputTokens?: number | null;
  /** `usage.completion_tokens_details.reasoning_tokens`: output spent on hidden reasoning. */
  readonly reasoningTokens?: number | null;
}

export interface AnthropicDetails {
  readonly provider: 'anthropic';
  readonly id: string | null;
  readonly model: string | null;
  readonly cacheReadInputTokens: number | null;
  readonly cacheCreationInputTokens: number | null;
}

export interface SyntheticDetails {
  readonly provider: 'synthetic';
  readonly policy: string;
  readonly seed: number;
}

/** A response served from a recorded run (`ladder run --replay`). */
export interface ReplayDetails {
  readonly provider: 'replay';
  /** The recorded pass it came from. */
  readonly source: string;
}

export type ProviderDetails = OllamaDetails | OpenAIDetails | AnthropicDetails | SyntheticDetails | ReplayDetails;

/**
 * Something an adapter changed between the neutral request and the wire, or between the wire
 * and the neutral response, so a trace can say so. Each is deterministic: building the same
 * request again makes the same change. Plain JSON.
 * - `schema`: a tool's input schema was rewritten into a form the provider accepts (what the
 *   MCP server receives is unchanged; only the schema the model is shown differs).
 * - `name`: a tool's name was sent under another name (`sent`), over the provider's length
 *   limit or with characters it refuses; calls under `sent` map back to `tool` exactly.
 * - `arguments`: a tool call in the response could not be used as it came (`why`), so it is
 *   answered as a failed call and sent back in the history with valid JSON arguments.
 * - `message`: a message of the conversation was sent changed or left out (`change`), because
 *   the provider refuses it as it is (whitespace-only text, an empty error result).
 */
export type Adaptation =
  | { readonly kind: 'schema'; readonly tool: string; readonly changes: readonly string[] }
  | { readonly kind: 'name'; readonly tool: string; readonly sent: string }
  | { readonly kind: 'arguments'; readonly tool: string; readonly id: string; readonly why: string }
  | { readonly kind: 'message'; readonly index: number; readonly change: string };

/**
 * What an adapter resolved from flags, environment and defaults, in plain JSON: recorded in the
 * run's manifest, and the third argument of each adapter's request builder.
 */
export type ModelSettings = Readonly<Record<string, string | number | boolean>>;

export interface ModelResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: Usage;
  /** Wall time of the whole `complete` call, retries and back-off waits included. */
  readonly latencyMs: number;
  /** Requests sent to the provider for this response; 1 when the first one answered. */
  readonly attempts: number;
  /** Part of `latencyMs` spent waiting between attempts. */
  readonly retryWaitMs: number;
  readonly stopReason: StopReason;
  readonly providerStopReason: string | null;
  /** Options in the request this provider has no parameter for, so they were not sent. */
  readonly ignoredOptions: readonly (keyof SamplingOptions)[];
  readonly details: ProviderDetails;
  /** The model's reasoning blocks, when the provider returned any; they go back with the turn. */
  readonly thinking?: readonly ThinkingBlock[];
  /** The provider's refusal text (OpenAI `message.refusal`); `stopReason` is then `refusal`. */
  readonly refusal?: string;
  /** What the adapter changed for this request and response; absent when nothing. */
  readonly adaptations?: readonly Adaptation[];
}

export interface ModelAdapter {
  /** The spec it was made from, e.g. `ollama:qwen3:8b`; never holds a secret. */
  readonly spec: string;
  readonly provider: Provider;
  readonly model: string;
  /** What the adapter resolved (endpoint, thinking, context...); absent for synthetic agents. */
  readonly settings?: ModelSettings;
  /**
   * Sends one request. Provider failures that persist after retrying reject with a
   * `ProviderError` (src/models/retry.ts); when `signal` aborts, rejects with its reason.
   */
  complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse>;
}
