// `openai:<model>` through the `openai` client on /chat/completions, not streamed. The base
// URL makes it any OpenAI-compatible endpoint: hosted OpenAI, OpenRouter, vLLM, LM Studio,
// llama.cpp's server, Ollama's /v1.
import OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { callContext, callProvider, ModelConfigError } from './call.ts';
import type { AdapterOptions, CallContext } from './call.ts';
import { AttemptFailure } from './retry.ts';
import type { ChatMessage, ModelAdapter, ModelRequest, ModelResponse, SamplingOptions, StopReason, ToolCall, ToolSpec } from './types.ts';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

// Local OpenAI-compatible servers ignore the key, but the client will not start without one.
const LOCAL_PLACEHOLDER_KEY = 'unused';

export function toOpenAIMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant': {
        if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
        const tool_calls = m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function' as const,
          function: { name: c.name, arguments: c.rawArgs ?? JSON.stringify(c.args) },
        }));
        // null, not "", is the documented content of a turn that only calls tools
        return { role: 'assistant', content: m.content === '' ? null : m.content, tool_calls };
      }
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    }
  });
}

export function toOpenAITools(tools: readonly ToolSpec[]): ChatCompletionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: { ...t.inputSchema } },
  }));
}

function parseArgs(text: string): { args: Record<string, unknown>; rawArgs?: string } {
  if (text.trim() === '') return { args: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { args: value as Record<string, unknown> };
  } catch {
    // a model wrote broken JSON: keep its text so the conversation can show it back
  }
  return { args: {}, rawArgs: text };
}

function stopReason(finish: string | null | undefined, calls: number): StopReason {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'content_filter') return 'refusal';
  if (calls > 0 || finish === 'tool_calls' || finish === 'function_call') return 'tool_calls';
  return finish === 'stop' ? 'end' : 'other';
}

export class OpenAIAdapter implements ModelAdapter {
  readonly provider = 'openai' as const;
  readonly spec: string;
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly hosted: boolean;
  private readonly ctx: CallContext;

  constructor(
    readonly model: string,
    options: AdapterOptions = {},
  ) {
    const env = options.env ?? process.env;
    this.spec = `openai:${model}`;
    this.baseUrl = options.baseUrl ?? env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL;
    this.hosted = new URL(this.baseUrl).hostname === 'api.openai.com';
    const key = options.apiKey ?? env.OPENAI_API_KEY;
    if (!key && this.hosted) {
      throw new ModelConfigError(
        `${this.spec}: OPENAI_API_KEY is not set; export it, or give --base-url for a local OpenAI-compatible server`,
      );
    }
    this.apiKey = key || LOCAL_PLACEHOLDER_KEY;
    this.ctx = callContext(this.spec, options, (f) => {
      if (f.kind === 'connection') return `is the server at ${this.baseUrl} running?`;
      if (f.status === 401) return 'check OPENAI_API_KEY';
      if (f.status === 404) return `check the model name and the base URL (${this.baseUrl})`;
      return undefined;
    });
  }

  private body(request: ModelRequest): ChatCompletionCreateParamsNonStreaming {
    const o: SamplingOptions = request.options ?? {};
    return {
      model: this.model,
      messages: toOpenAIMessages(request.messages),
      ...(request.tools.length > 0 ? { tools: toOpenAITools(request.tools) } : {}),
      ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
      ...(o.seed !== undefined ? { seed: o.seed } : {}),
      // OpenAI's reasoning models refuse max_tokens; compatible servers mostly read only it
      ...(o.maxTokens !== undefined ? { [this.hosted ? 'max_completion_tokens' : 'max_tokens']: o.maxTokens } : {}),
    };
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const body = this.body(request);
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
      c.type === 'function' ? [{ id: c.id || `call_${prior + i}`, name: c.function.name, ...parseArgs(c.function.arguments ?? '') }] : [],
    );
    return {
      text: choice.message.content ?? '',
      toolCalls,
      usage: { inputTokens: res.usage?.prompt_tokens ?? null, outputTokens: res.usage?.completion_tokens ?? null },
      latencyMs: call.latencyMs,
      attempts: call.attempts,
      retryWaitMs: call.retryWaitMs,
      stopReason: stopReason(choice.finish_reason, toolCalls.length),
      providerStopReason: choice.finish_reason ?? null,
      ignoredOptions: request.options?.numCtx !== undefined ? ['numCtx'] : [],
      details: { provider: 'openai', id: res.id ?? null, model: res.model ?? null, systemFingerprint: res.system_fingerprint ?? null },
    };
  }
}
