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
}

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
}

/** Why the model stopped, in one vocabulary; the provider's own word is in `providerStopReason`. */
export type StopReason = 'end' | 'tool_calls' | 'max_tokens' | 'refusal' | 'other';

/** Token counts as the provider reported them; null when it reported none. */
export interface Usage {
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
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
}

export interface ModelAdapter {
  /** The spec it was made from, e.g. `ollama:qwen3:8b`; never holds a secret. */
  readonly spec: string;
  readonly provider: Provider;
  readonly model: string;
  /**
   * Sends one request. Provider failures that persist after retrying reject with a
   * `ProviderError` (src/models/retry.ts); when `signal` aborts, rejects with its reason.
   */
  complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse>;
}
