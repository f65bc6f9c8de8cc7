// `anthropic:<model>` through @anthropic-ai/sdk on /v1/messages, not streamed. System text
// goes in `system`; a turn's tool calls are `tool_use` blocks and their answers go back as
// `tool_result` blocks, all in the one user message that follows.
import Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import { callContext, callProvider, ModelConfigError } from './call.ts';
import type { AdapterOptions, CallContext } from './call.ts';
import type { ChatMessage, ModelAdapter, ModelRequest, ModelResponse, SamplingOptions, StopReason, ToolCall, ToolSpec } from './types.ts';

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

// The API requires max_tokens; this covers a tool call or a few paragraphs of answer.
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4_096;

// The Messages API version this SDK speaks has no temperature or seed, and no context knob.
const UNSUPPORTED: readonly (keyof SamplingOptions)[] = ['temperature', 'seed', 'numCtx'];

export interface AnthropicWire {
  readonly system?: string;
  readonly messages: MessageParam[];
}

/** Neutral messages as Anthropic wants them: user and assistant turns of content blocks. */
export function toAnthropicMessages(messages: readonly ChatMessage[]): AnthropicWire {
  const system: string[] = [];
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    const last = out.at(-1);
    // consecutive same-role content is one turn: tool results and the next prompt share a user message
    if (last?.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user':
        push('user', [{ type: 'text', text: m.content }]);
        break;
      case 'assistant': {
        const blocks: ContentBlockParam[] = m.content === '' ? [] : [{ type: 'text', text: m.content }];
        for (const c of m.toolCalls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: { ...c.args } });
        // the API rejects an empty assistant turn; an empty answer carries nothing to keep
        if (blocks.length > 0) push('assistant', blocks);
        break;
      }
      case 'tool':
        push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content, ...(m.isError ? { is_error: true } : {}) }]);
        break;
    }
  }
  return { ...(system.length > 0 ? { system: system.join('\n\n') } : {}), messages: out };
}

export function toAnthropicTools(tools: readonly ToolSpec[]): Tool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: { type: 'object', ...t.inputSchema } }));
}

function stopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'end';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'refusal':
      return 'refusal';
    default:
      return 'other';
  }
}

export class AnthropicAdapter implements ModelAdapter {
  readonly provider = 'anthropic' as const;
  readonly spec: string;
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly ctx: CallContext;

  constructor(
    readonly model: string,
    options: AdapterOptions = {},
  ) {
    const env = options.env ?? process.env;
    this.spec = `anthropic:${model}`;
    this.baseUrl = options.baseUrl ?? env.ANTHROPIC_BASE_URL ?? DEFAULT_ANTHROPIC_BASE_URL;
    const key = options.apiKey ?? env.ANTHROPIC_API_KEY;
    // Passing the key explicitly also stops the SDK from looking for credential files.
    if (!key) throw new ModelConfigError(`${this.spec}: ANTHROPIC_API_KEY is not set; export it and run again`);
    this.apiKey = key;
    this.ctx = callContext(this.spec, options, (f) => {
      if (f.kind === 'connection') return `is ${this.baseUrl} reachable from here?`;
      if (f.status === 401) return 'check ANTHROPIC_API_KEY';
      if (f.status === 404) return 'check the model name';
      return undefined;
    });
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const o = request.options ?? {};
    const body: MessageCreateParamsNonStreaming = {
      model: this.model,
      max_tokens: o.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
      ...toAnthropicMessages(request.messages),
      ...(request.tools.length > 0 ? { tools: toAnthropicTools(request.tools) } : {}),
    };
    const call = await callProvider(this.ctx, signal, (fetch) => {
      // the client's own timer is a backstop only: the attempt deadline in callProvider fires first
      const client = new Anthropic({ apiKey: this.apiKey, baseURL: this.baseUrl, maxRetries: 0, timeout: this.ctx.timeoutMs + 1_000, fetch });
      return client.messages.create(body) as Promise<Message>;
    });
    const res = call.value;
    let text = '';
    const toolCalls: ToolCall[] = [];
    for (const block of res.content ?? []) {
      if (block.type === 'text') text += block.text;
      if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, args: (block.input ?? {}) as Record<string, unknown> });
    }
    return {
      text,
      toolCalls,
      usage: { inputTokens: res.usage?.input_tokens ?? null, outputTokens: res.usage?.output_tokens ?? null },
      latencyMs: call.latencyMs,
      attempts: call.attempts,
      retryWaitMs: call.retryWaitMs,
      stopReason: stopReason(res.stop_reason),
      providerStopReason: res.stop_reason ?? null,
      ignoredOptions: UNSUPPORTED.filter((k) => o[k] !== undefined),
      details: {
        provider: 'anthropic',
        id: res.id ?? null,
        model: res.model ?? null,
        cacheReadInputTokens: res.usage?.cache_read_input_tokens ?? null,
        cacheCreationInputTokens: res.usage?.cache_creation_input_tokens ?? null,
      },
    };
  }
}
