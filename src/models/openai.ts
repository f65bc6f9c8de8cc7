// `openai:<model>` through the `openai` client on /chat/completions, not streamed. The base
// URL makes it any OpenAI-compatible endpoint: hosted OpenAI, OpenRouter, vLLM, LM Studio,
// llama.cpp's server, Ollama's /v1.
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { parseToolArguments } from './arguments.ts';
import { callContext, callProvider, ModelConfigError } from './call.ts';
import type { AdapterOptions, CallContext } from './call.ts';
import { FUNCTION_NAME_RULE, ToolNames } from './names.ts';
import { AttemptFailure } from './retry.ts';
import { adaptSchema } from './schema.ts';
import { LOCAL_HOST, recordableUrl } from './settings.ts';
import type { Adaptation, ChatMessage, ModelAdapter, ModelRequest, ModelResponse, SamplingOptions, StopReason, ToolCall, ToolSpec, Usage } from './types.ts';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

// Local OpenAI-compatible servers ignore the key, but the client will not start without one.
const LOCAL_PLACEHOLDER_KEY = 'unused';

/** What every request of this adapter carries; recorded in the manifest. */
export type OpenAISettings = {
  readonly provider: 'openai';
  /** As it may be recorded (no user or password). */
  readonly baseUrl: string;
  /** api.openai.com: `max_completion_tokens` (its reasoning models refuse `max_tokens`). */
  readonly hosted: boolean;
  /** Whether a request's seed is sent as `seed`. */
  readonly seed: boolean;
};

/**
 * The base URL checked before any request: a scheme, and on a local server the /v1 every local
 * OpenAI-compatible server (vLLM, llama.cpp, LM Studio, Ollama) answers under. A remote
 * endpoint keeps its own path (OpenRouter's /api/v1, Gemini's /v1beta/openai); a 404 there
 * says to check it.
 */
function checkBaseUrl(spec: string, baseUrl: string): URL {
  const url = URL.parse(baseUrl);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new ModelConfigError(
      `${spec}: base URL ${JSON.stringify(baseUrl)} has no http:// or https://; give the whole URL, e.g. http://${baseUrl.replace(/^\w+:\/\//, '')}`,
    );
  }
  if (LOCAL_HOST.test(url.hostname) && url.pathname.replace(/\/+$/, '') === '') {
    throw new ModelConfigError(
      `${spec}: base URL ${JSON.stringify(baseUrl)} has no path; OpenAI-compatible servers answer under /v1: use ${url.origin}/v1`,
    );
  }
  return url;
}

/**
 * `seed` goes only where it is known to be taken: the local servers above document it. Hosted
 * OpenAI marks it deprecated (openai-node, ChatCompletionCreateParams.seed: "@deprecated ...
 * Beta"), and strict compatible APIs refuse it as an unknown field (Mistral answers 422
 * "extra_forbidden", as does Azure AI model inference for non-OpenAI models).
 */
export function sendsSeed(baseUrl: URL): boolean {
  return LOCAL_HOST.test(baseUrl.hostname);
}

export function resolveOpenAISettings(spec: string, options: AdapterOptions): OpenAISettings {
  const env = options.env ?? process.env;
  const baseUrl = options.baseUrl ?? env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL;
  const url = checkBaseUrl(spec, baseUrl);
  return { provider: 'openai', baseUrl: recordableUrl(baseUrl), hosted: url.hostname === 'api.openai.com', seed: options.sendSeed ?? sendsSeed(url) };
}

export function toOpenAIMessages(messages: readonly ChatMessage[], names?: ToolNames): ChatCompletionMessageParam[] {
  const wire = (name: string) => names?.toWire(name) ?? name;
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant': {
        const refusal = m.refusal === undefined ? {} : { refusal: m.refusal };
        if (!m.toolCalls?.length) return { role: 'assistant', content: m.content === '' && m.refusal !== undefined ? null : m.content, ...refusal };
        // Arguments that were not JSON go back as {}: a server that parses the history (Ollama's
        // /v1) refuses the whole request over them, and the tool result already quotes them.
        const tool_calls = m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function' as const,
          function: { name: wire(c.name), arguments: JSON.stringify(c.args) },
        }));
        // null, not "", is the documented content of a turn that only calls tools
        return { role: 'assistant', content: m.content === '' ? null : m.content, ...refusal, tool_calls };
      }
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    }
  });
}

export function toOpenAITools(tools: readonly ToolSpec[], names?: ToolNames): { tools: ChatCompletionTool[]; adaptations: Adaptation[] } {
  const adaptations: Adaptation[] = [];
  const out = tools.map((t): ChatCompletionTool => {
    const { schema, changes } = adaptSchema('openai', t.inputSchema);
    if (changes.length > 0) adaptations.push({ kind: 'schema', tool: t.name, changes });
    return { type: 'function', function: { name: names?.toWire(t.name) ?? t.name, description: t.description, parameters: schema } };
  });
  return { tools: out, adaptations };
}

/** The exact body `complete` sends for a request; pure, so a trace can rebuild it. */
export function buildOpenAIRequest(model: string, request: ModelRequest, settings: OpenAISettings) {
  const o: SamplingOptions = request.options ?? {};
  const names = new ToolNames(request.tools, FUNCTION_NAME_RULE);
  const tools = toOpenAITools(request.tools, names);
  const body: ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: toOpenAIMessages(request.messages, names),
    ...(request.tools.length > 0 ? { tools: tools.tools } : {}),
    ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
    ...(o.seed !== undefined && settings.seed ? { seed: o.seed } : {}),
    // OpenAI's reasoning models refuse max_tokens; compatible servers mostly read only it
    ...(o.maxTokens !== undefined ? { [settings.hosted ? 'max_completion_tokens' : 'max_tokens']: o.maxTokens } : {}),
  };
  const ignored: (keyof SamplingOptions)[] = [];
  if (o.seed !== undefined && !settings.seed) ignored.push('seed');
  if (o.numCtx !== undefined) ignored.push('numCtx');
  return { body, names, adaptations: [...names.adaptations, ...tools.adaptations], ignoredOptions: ignored };
}

/** `prompt_tokens` counts cached input too; `cached_tokens` says how much of it was cached. */
function openAIUsage(usage: ChatCompletion['usage']): Usage {
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  return {
    inputTokens: usage?.prompt_tokens ?? null,
    outputTokens: usage?.completion_tokens ?? null,
    ...(typeof cached === 'number' ? { cacheReadTokens: cached } : {}),
  };
}

function stopReason(finish: string | null | undefined, calls: number, refused: boolean): StopReason {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'content_filter' || refused) return 'refusal';
  if (calls > 0 || finish === 'tool_calls' || finish === 'function_call') return 'tool_calls';
  return finish === 'stop' ? 'end' : 'other';
}

export class OpenAIAdapter implements ModelAdapter {
  readonly provider = 'openai' as const;
  readonly spec: string;
  readonly baseUrl: string;
  readonly settings: OpenAISettings;
  private readonly apiKey: string;
  private readonly ctx: CallContext;

  constructor(
    readonly model: string,
    options: AdapterOptions = {},
  ) {
    const env = options.env ?? process.env;
    this.spec = `openai:${model}`;
    if (options.thinking !== undefined) throw new ModelConfigError(`${this.spec}: --thinking applies to anthropic: and ollama: models`);
    this.settings = resolveOpenAISettings(this.spec, options);
    this.baseUrl = options.baseUrl ?? env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL;
    const key = options.apiKey ?? env.OPENAI_API_KEY;
    if (!key && this.settings.hosted) {
      throw new ModelConfigError(
        `${this.spec}: OPENAI_API_KEY is not set; export it, or give --base-url for a local OpenAI-compatible server`,
      );
    }
    this.apiKey = key || LOCAL_PLACEHOLDER_KEY;
    const noVersion = !/\/v\d/.test(new URL(this.baseUrl).pathname);
    this.ctx = callContext(this.spec, options, (f) => {
      if (f.kind === 'connection') return `is the server at ${this.baseUrl} running?`;
      if (f.kind === 'auth') return this.settings.hosted || key ? 'check OPENAI_API_KEY' : 'this server wants a key: set OPENAI_API_KEY';
      if (f.kind === 'context_length') return 'use a model with a longer context, or shorten the rung';
      if (f.status === 404) return `check the model name and the base URL (${this.baseUrl}${noVersion ? ', which has no /v1' : ''})`;
      return undefined;
    });
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const { body, names, adaptations, ignoredOptions } = buildOpenAIRequest(this.model, request, this.settings);
    // Loaded on the first request, not with the module: a run on another model never pays for it.
    const { default: OpenAI } = await import('openai');
    const call = await callProvider(this.ctx, signal, async (fetch) => {
      // the client's own timer is a backstop only: the attempt deadline in callProvider fires first
      const client = new OpenAI({ apiKey: this.apiKey, baseURL: this.baseUrl, maxRetries: 0, timeout: this.ctx.timeoutMs + 1_000, fetch });
      const completion: ChatCompletion = await client.chat.completions.create(body);
      if (!completion.choices?.[0]) throw new AttemptFailure('server', 'response has no choices');
      return completion;
    });
    const res = call.value;
    const choice = res.choices[0]!;
    const prior = request.messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.toolCalls?.length ?? 0) : 0), 0);
    const toolCalls: ToolCall[] = (choice.message.tool_calls ?? []).flatMap((c, i) =>
      c.type === 'function' ? [{ id: c.id || `call_${prior + i}`, name: names.fromWire(c.function.name), ...parseToolArguments(c.function.arguments ?? '') }] : [],
    );
    for (const c of toolCalls) {
      if (c.rawArgs !== undefined) adaptations.push({ kind: 'arguments', tool: c.name, id: c.id, why: 'arguments were not a JSON object; sent back as {}' });
    }
    const refusal = typeof choice.message.refusal === 'string' && choice.message.refusal !== '' ? choice.message.refusal : undefined;
    return {
      text: choice.message.content ?? '',
      toolCalls,
      usage: openAIUsage(res.usage),
      latencyMs: call.latencyMs,
      attempts: call.attempts,
      retryWaitMs: call.retryWaitMs,
      stopReason: stopReason(choice.finish_reason, toolCalls.length, refusal !== undefined),
      providerStopReason: choice.finish_reason ?? null,
      ignoredOptions,
      details: {
        provider: 'openai',
        id: res.id ?? null,
        model: res.model ?? null,
        systemFingerprint: res.system_fingerprint ?? null,
        cachedInputTokens: res.usage?.prompt_tokens_details?.cached_tokens ?? null,
        reasoningTokens: res.usage?.completion_tokens_details?.reasoning_tokens ?? null,
      },
      ...(refusal === undefined ? {} : { refusal }),
      ...(adaptations.length > 0 ? { adaptations } : {}),
    };
  }
}
