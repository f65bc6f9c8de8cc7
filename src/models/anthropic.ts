// `anthropic:<model>` through @anthropic-ai/sdk on /v1/messages, not streamed. System text
// goes in `system`; a turn's tool calls are `tool_use` blocks and their answers go back as
// `tool_result` blocks, first in the one user message that follows. Thinking blocks come back
// with the turn they belong to, unchanged and first, as the API requires of a tool-use turn.
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  ThinkingConfigParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import { callContext, callProvider, ModelConfigError } from './call.ts';
import type { AdapterOptions, CallContext } from './call.ts';
import { FUNCTION_NAME_RULE, ToolNames } from './names.ts';
import { adaptSchema } from './schema.ts';
import { recordableUrl } from './settings.ts';
import type { ThinkingSetting } from './settings.ts';
import type {
  Adaptation, ChatMessage, ModelAdapter, ModelRequest, ModelResponse, SamplingOptions, StopReason, ThinkingBlock, ToolCall, ToolSpec, Usage,
} from './types.ts';

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

// The API requires max_tokens; this covers a tool call or a few paragraphs of answer. Thinking
// counts toward max_tokens, so its budget is added on top of this, never taken from it.
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4_096;

// `--thinking on` is adaptive thinking (the model decides how much); its room in max_tokens.
export const ADAPTIVE_THINKING_ROOM = 8_192;

// Not sent: no seed or context knob exists, and temperature is refused with thinking on and by
// newer models at all; the runner never sets it.
const UNSUPPORTED: readonly (keyof SamplingOptions)[] = ['temperature', 'seed', 'numCtx'];

// The API refuses an error result with no content, and a text block that is empty or only
// whitespace ("messages: text content blocks must contain non-whitespace text").
const EMPTY_ERROR_TEXT = '(the tool reported an error with no text)';

/** What every request of this adapter carries; recorded in the manifest. */
export type AnthropicSettings = {
  readonly provider: 'anthropic';
  /** As it may be recorded (no user or password). */
  readonly baseUrl: string;
  /** off: `{type: "disabled"}`; on: `{type: "adaptive"}`; a number: `{type: "enabled", budget_tokens}`. */
  readonly thinking: ThinkingSetting;
  /** max_tokens for the answer; the thinking room is added to it. */
  readonly maxTokens: number;
};

export interface AnthropicWire {
  readonly system?: string;
  readonly messages: MessageParam[];
  readonly adaptations: Adaptation[];
}

const blank = (text: string) => text.trim() === '';

/**
 * Neutral messages as Anthropic wants them: user and assistant turns of content blocks. With
 * thinking off, thinking blocks stay out (the API refuses them in the final assistant turn
 * then), as do unsigned ones, which only Anthropic's own blocks are not.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[], names?: ToolNames, keepThinking = true): AnthropicWire {
  const wire = (name: string) => names?.toWire(name) ?? name;
  const system: string[] = [];
  const out: MessageParam[] = [];
  const adaptations: Adaptation[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    const last = out.at(-1);
    // consecutive same-role content is one turn, roles alternating: tool results and the next
    // prompt share a user message, the results first as the API requires
    if (last?.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const [index, m] of messages.entries()) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user':
        if (blank(m.content)) adaptations.push({ kind: 'message', index, change: 'left out a user message with no text' });
        else push('user', [{ type: 'text', text: m.content }]);
        break;
      case 'assistant': {
        const calls: ContentBlockParam[] = (m.toolCalls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: wire(c.name), input: { ...c.args } }));
        const text: ContentBlockParam[] = blank(m.content) ? [] : [{ type: 'text', text: m.content }];
        if (text.length === 0 && m.content !== '') adaptations.push({ kind: 'message', index, change: 'left out whitespace-only assistant text' });
        if (calls.length === 0 && text.length === 0) {
          // the API rejects an empty assistant turn; an empty answer carries nothing to keep
          if (m.thinking?.length) adaptations.push({ kind: 'message', index, change: 'left out an assistant turn with only thinking' });
          break;
        }
        const kept = keepThinking ? (m.thinking ?? []).filter((b) => b.type === 'redacted_thinking' || b.signature !== undefined) : [];
        if (kept.length < (m.thinking?.length ?? 0)) {
          adaptations.push({ kind: 'message', index, change: keepThinking ? 'left out unsigned thinking' : 'left out thinking, as thinking is off' });
        }
        const thinking = kept.map((b): ContentBlockParam =>
          b.type === 'thinking' ? { type: 'thinking', thinking: b.thinking, signature: b.signature! } : { type: 'redacted_thinking', data: b.data },
        );
        push('assistant', [...thinking, ...text, ...calls]);
        break;
      }
      case 'tool': {
        let content = m.content;
        if (m.isError && blank(content)) {
          content = EMPTY_ERROR_TEXT;
          adaptations.push({ kind: 'message', index, change: 'gave an error result with no text a placeholder' });
        }
        const body = blank(content) ? {} : { content };
        push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, ...body, ...(m.isError ? { is_error: true } : {}) }]);
        break;
      }
    }
  }
  return { ...(system.length > 0 ? { system: system.join('\n\n') } : {}), messages: out, adaptations };
}

export function toAnthropicTools(tools: readonly ToolSpec[], names?: ToolNames): { tools: Tool[]; adaptations: Adaptation[] } {
  const adaptations: Adaptation[] = [];
  const out = tools.map((t): Tool => {
    const { schema, changes } = adaptSchema('anthropic', t.inputSchema);
    if (changes.length > 0) adaptations.push({ kind: 'schema', tool: t.name, changes });
    return { name: names?.toWire(t.name) ?? t.name, description: t.description, input_schema: schema as Tool['input_schema'] };
  });
  return { tools: out, adaptations };
}

/** `thinking` and `max_tokens` for a setting: thinking tokens count toward max_tokens. */
export function thinkingParams(thinking: ThinkingSetting, answerTokens: number): { thinking: ThinkingConfigParam; max_tokens: number } {
  if (thinking === 'off') return { thinking: { type: 'disabled' }, max_tokens: answerTokens };
  if (thinking === 'on') return { thinking: { type: 'adaptive' }, max_tokens: answerTokens + ADAPTIVE_THINKING_ROOM };
  return { thinking: { type: 'enabled', budget_tokens: thinking }, max_tokens: answerTokens + thinking };
}

/** The exact body `complete` sends for a request; pure, so a trace can rebuild it. */
export function buildAnthropicRequest(model: string, request: ModelRequest, settings: AnthropicSettings) {
  const names = new ToolNames(request.tools, FUNCTION_NAME_RULE);
  const tools = toAnthropicTools(request.tools, names);
  const { adaptations: messageChanges, ...conversation } = toAnthropicMessages(request.messages, names, settings.thinking !== 'off');
  const { thinking, max_tokens } = thinkingParams(settings.thinking, request.options?.maxTokens ?? settings.maxTokens);
  const body: MessageCreateParamsNonStreaming = {
    model,
    max_tokens,
    thinking,
    ...conversation,
    ...(request.tools.length > 0 ? { tools: tools.tools } : {}),
  };
  return { body, names, adaptations: [...names.adaptations, ...tools.adaptations, ...messageChanges] };
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

/** Said to the model for a tool_use the response was cut off inside. */
export const CUT_OFF_TEXT =
  'The response reached its token limit inside this call, so its arguments may be incomplete and it was not made; make the call again.';

/**
 * Anthropic's `input_tokens` leaves out what was read from or written to the prompt cache (the
 * three are disjoint, and all three are billed); Ladder's input count is all of it, as
 * OpenTelemetry's `gen_ai.usage.input_tokens` is and OpenAI's `prompt_tokens` already is.
 */
function anthropicUsage(usage: Message['usage'] | undefined): Usage {
  const read = usage?.cache_read_input_tokens ?? 0;
  const write = usage?.cache_creation_input_tokens ?? 0;
  const input = usage?.input_tokens;
  return {
    inputTokens: typeof input === 'number' ? input + read + write : null,
    outputTokens: usage?.output_tokens ?? null,
    ...(typeof usage?.cache_read_input_tokens === 'number' ? { cacheReadTokens: read } : {}),
    ...(typeof usage?.cache_creation_input_tokens === 'number' ? { cacheWriteTokens: write } : {}),
  };
}

export class AnthropicAdapter implements ModelAdapter {
  readonly provider = 'anthropic' as const;
  readonly spec: string;
  readonly baseUrl: string;
  readonly settings: AnthropicSettings;
  private readonly apiKey: string;
  private readonly ctx: CallContext;

  constructor(
    readonly model: string,
    options: AdapterOptions = {},
  ) {
    const env = options.env ?? process.env;
    this.spec = `anthropic:${model}`;
    this.baseUrl = options.baseUrl ?? env.ANTHROPIC_BASE_URL ?? DEFAULT_ANTHROPIC_BASE_URL;
    if (/\/v1\/?$/.test(this.baseUrl)) {
      // the SDK appends /v1/messages itself
      throw new ModelConfigError(`${this.spec}: base URL ${JSON.stringify(this.baseUrl)} ends in /v1, which the client adds itself; drop it`);
    }
    if (options.numCtx !== undefined) throw new ModelConfigError(`${this.spec}: --num-ctx applies to ollama: models`);
    const key = options.apiKey ?? env.ANTHROPIC_API_KEY;
    // Passing the key explicitly also stops the SDK from looking for credential files.
    if (!key) throw new ModelConfigError(`${this.spec}: ANTHROPIC_API_KEY is not set; export it and run again`);
    this.apiKey = key;
    this.settings = { provider: 'anthropic', baseUrl: recordableUrl(this.baseUrl), thinking: options.thinking ?? 'off', maxTokens: DEFAULT_ANTHROPIC_MAX_TOKENS };
    this.ctx = callContext(this.spec, options, (f) => {
      if (f.kind === 'connection') return `is ${this.baseUrl} reachable from here?`;
      if (f.kind === 'auth') return 'check ANTHROPIC_API_KEY';
      if (f.kind === 'context_length') return 'the conversation no longer fits this model; shorten the rung';
      if (f.status === 404) return 'check the model name';
      if (f.status === 400 && /thinking\.type|thinking[^.]*not supported|not supported[^.]*thinking/i.test(f.detail)) {
        return `this model takes thinking differently (--thinking is ${this.settings.thinking}); try --thinking on, off or a token budget`;
      }
      return undefined;
    });
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const { body, names, adaptations } = buildAnthropicRequest(this.model, request, this.settings);
    // Loaded on the first request, not with the module: a run on another model never pays for it.
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const call = await callProvider(this.ctx, signal, (fetch) => {
      // the client's own timer is a backstop only: the attempt deadline in callProvider fires first
      const client = new Anthropic({ apiKey: this.apiKey, baseURL: this.baseUrl, maxRetries: 0, timeout: this.ctx.timeoutMs + 1_000, fetch });
      return client.messages.create(body) as Promise<Message>;
    });
    const res = call.value;
    let text = '';
    const toolCalls: ToolCall[] = [];
    const thinking: ThinkingBlock[] = [];
    for (const block of res.content ?? []) {
      if (block.type === 'text') text += block.text;
      if (block.type === 'thinking') thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
      if (block.type === 'redacted_thinking') thinking.push({ type: 'redacted_thinking', data: block.data });
      if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: names.fromWire(block.name), args: (block.input ?? {}) as Record<string, unknown> });
    }
    const reason = stopReason(res.stop_reason);
    const last = res.content?.at(-1);
    if (reason === 'max_tokens' && last?.type === 'tool_use') {
      // Docs, tool use: a tool_use cut off by max_tokens is incomplete; it is never made
      const cut = toolCalls.pop()!;
      toolCalls.push({ ...cut, invalid: CUT_OFF_TEXT });
      adaptations.push({ kind: 'arguments', tool: cut.name, id: cut.id, why: `the response stopped (${res.stop_reason}) inside this call; not made` });
    }
    return {
      text,
      toolCalls,
      usage: anthropicUsage(res.usage),
      latencyMs: call.latencyMs,
      attempts: call.attempts,
      retryWaitMs: call.retryWaitMs,
      stopReason: reason,
      providerStopReason: res.stop_reason ?? null,
      ignoredOptions: UNSUPPORTED.filter((k) => request.options?.[k] !== undefined),
      details: {
        provider: 'anthropic',
        id: res.id ?? null,
        model: res.model ?? null,
        cacheReadInputTokens: res.usage?.cache_read_input_tokens ?? null,
        cacheCreationInputTokens: res.usage?.cache_creation_input_tokens ?? null,
      },
      ...(thinking.length > 0 ? { thinking } : {}),
      ...(adaptations.length > 0 ? { adaptations } : {}),
    };
  }
}
