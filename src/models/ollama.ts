// `ollama:<model>` through the `ollama` client on the native /api/chat, not streamed.
// Tool results go back as `{role: "tool", tool_name}` as Ollama documents; tool-call ids are
// kept when the server sends them (newer servers do) and made from the conversation when
// it does not, so every call in a transcript has one.
import { Ollama } from 'ollama';
import type { ChatResponse, Message, Tool, ToolCall as OllamaToolCall } from 'ollama';
import { callContext, callProvider } from './call.ts';
import type { AdapterOptions, CallContext } from './call.ts';
import type { ChatMessage, ModelAdapter, ModelRequest, ModelResponse, SamplingOptions, StopReason, ToolCall, ToolSpec } from './types.ts';

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

// The client's types predate tool-call ids; the server reads them when present.
type WireToolCall = OllamaToolCall & { id?: string; function: OllamaToolCall['function'] & { index?: number } };
type WireMessage = Omit<Message, 'tool_calls'> & { tool_calls?: WireToolCall[]; tool_call_id?: string };

export function toOllamaMessages(messages: readonly ChatMessage[]): WireMessage[] {
  return messages.map((m): WireMessage => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant': {
        if (!m.toolCalls?.length) return { role: 'assistant', content: m.content };
        const calls = m.toolCalls.map((c, index) => ({ id: c.id, function: { index, name: c.name, arguments: { ...c.args } } }));
        return { role: 'assistant', content: m.content, tool_calls: calls };
      }
      case 'tool':
        return { role: 'tool', content: m.content, tool_name: m.toolName, tool_call_id: m.toolCallId };
    }
  });
}

export function toOllamaTools(tools: readonly ToolSpec[]): Tool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.inputSchema as Tool['function']['parameters'] },
  }));
}

/** Only the options that are set, under Ollama's names; unset ones keep the model's defaults. */
export function toOllamaOptions(o: SamplingOptions = {}): Record<string, number> {
  const out: Record<string, number> = {};
  if (o.temperature !== undefined) out.temperature = o.temperature;
  if (o.seed !== undefined) out.seed = o.seed;
  if (o.numCtx !== undefined) out.num_ctx = o.numCtx;
  if (o.maxTokens !== undefined) out.num_predict = o.maxTokens;
  return out;
}

function argsObject(value: unknown): { args: Record<string, unknown>; rawArgs?: string } {
  if (typeof value === 'string') {
    try {
      return argsObject(JSON.parse(value));
    } catch {
      return { args: {}, rawArgs: value };
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { args: value as Record<string, unknown> };
  return { args: {}, rawArgs: JSON.stringify(value) };
}

/** Ids for calls the server sent without one: unique and stable within the conversation. */
function priorCallCount(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.toolCalls?.length ?? 0) : 0), 0);
}

function stopReason(doneReason: string | undefined, calls: number): StopReason {
  if (doneReason === 'length') return 'max_tokens';
  if (calls > 0) return 'tool_calls';
  return doneReason === 'stop' ? 'end' : 'other';
}

const count = (n: number | undefined): number | null => (typeof n === 'number' ? n : null);

export class OllamaAdapter implements ModelAdapter {
  readonly provider = 'ollama' as const;
  readonly spec: string;
  readonly host: string;
  private readonly ctx: CallContext;

  constructor(
    readonly model: string,
    options: AdapterOptions = {},
  ) {
    this.spec = `ollama:${model}`;
    this.host = options.baseUrl ?? (options.env ?? process.env).OLLAMA_HOST ?? DEFAULT_OLLAMA_HOST;
    this.ctx = callContext(this.spec, options, (f) => {
      if (f.kind === 'connection') return `is Ollama running at ${this.host}? start it with "ollama serve" or set OLLAMA_HOST`;
      if (f.status === 404) return `pull the model with "ollama pull ${model}"`;
      return undefined;
    });
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const options = toOllamaOptions(request.options);
    const body = {
      model: this.model,
      messages: toOllamaMessages(request.messages) as Message[],
      stream: false as const,
      ...(request.tools.length > 0 ? { tools: toOllamaTools(request.tools) } : {}),
      ...(Object.keys(options).length > 0 ? { options } : {}),
    };
    const call = await callProvider(this.ctx, signal, (fetch) => new Ollama({ host: this.host, fetch }).chat(body));
    const res: ChatResponse = call.value;
    const first = priorCallCount(request.messages);
    const calls = (res.message?.tool_calls ?? []) as WireToolCall[];
    const toolCalls: ToolCall[] = calls.map((c, i) => ({
      id: c.id ?? `ollama_call_${first + i}`,
      name: c.function.name,
      ...argsObject(c.function.arguments),
    }));
    return {
      text: res.message?.content ?? '',
      toolCalls,
      usage: { inputTokens: count(res.prompt_eval_count), outputTokens: count(res.eval_count) },
      latencyMs: call.latencyMs,
      attempts: call.attempts,
      retryWaitMs: call.retryWaitMs,
      stopReason: stopReason(res.done_reason, toolCalls.length),
      providerStopReason: res.done_reason ?? null,
      ignoredOptions: [],
      details: {
        provider: 'ollama',
        model: res.model,
        promptEvalCount: count(res.prompt_eval_count),
        evalCount: count(res.eval_count),
        totalDurationNs: count(res.total_duration),
        loadDurationNs: count(res.load_duration),
        promptEvalDurationNs: count(res.prompt_eval_duration),
        evalDurationNs: count(res.eval_duration),
      },
    };
  }
}
