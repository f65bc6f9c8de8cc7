// `ollama:<model>` through the `ollama` client on the native /api/chat, not streamed.
// Tool results go back as `{role: "tool", tool_name}` as Ollama documents; tool-call ids are
// kept when the server sends them (newer servers do) and made from the conversation when
// it does not, so every call in a transcript has one.
//
// Three things are always sent rather than left to the server, because its defaults change
// between versions and hide what was measured: `think` (a thinking model thinks unless told
// not to), `options.num_ctx` (the default depends on the version and the machine's memory), and
// `truncate: false` (otherwise a conversation longer than the context loses its oldest
// messages without a word; with it the server answers 400 and the step says so).
import type { ChatResponse, Message, Ollama as OllamaClient, Tool, ToolCall as OllamaToolCall } from 'ollama';
import { callContext, callProvider, ModelConfigError } from './call.ts';
import type { AdapterOptions, CallContext } from './call.ts';
import { ToolNames } from './names.ts';
import { ProviderError, AttemptFailure } from './retry.ts';
import { adaptSchema } from './schema.ts';
import { recordableUrl } from './settings.ts';
import type {
  Adaptation, ChatMessage, ModelAdapter, ModelRequest, ModelResponse, SamplingOptions, StopReason, ThinkingBlock, ToolCall, ToolSpec,
} from './types.ts';

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

// Measured: the workbench's 14 tools are 7.5 KB of JSON and the longest conversation of the
// shipped rungs' reference solutions 4 KB, about 3,000 tokens at 4 bytes a token. 8192 leaves
// room for a model that takes more rounds than the reference, and for its answer; it costs
// about 1.2 GB of KV cache on qwen3:8b at f16 (36 layers x 8 KV heads x 128 x 2 x 2 bytes a token).
export const DEFAULT_NUM_CTX = 8_192;

/** What every request of this adapter carries; recorded in the manifest. */
export type OllamaSettings = {
  readonly provider: 'ollama';
  /** The host, as it may be recorded (no user or password). */
  readonly baseUrl: string;
  /** Sent as `think: true` or `think: false`. */
  readonly thinking: 'on' | 'off';
  /** Sent as `options.num_ctx` unless a request sets numCtx. */
  readonly numCtx: number;
};

// The client's types predate tool-call ids, `truncate` and `thinking`; the server reads them.
type WireToolCall = OllamaToolCall & { id?: string; function: OllamaToolCall['function'] & { index?: number } };
type WireMessage = Omit<Message, 'tool_calls'> & { tool_calls?: WireToolCall[]; tool_call_id?: string; thinking?: string };

export interface OllamaRequestBody {
  model: string;
  messages: WireMessage[];
  tools?: Tool[];
  think: boolean;
  truncate: false;
  stream: false;
  options: Record<string, number>;
}

export function toOllamaMessages(messages: readonly ChatMessage[], names?: ToolNames): WireMessage[] {
  const wire = (name: string) => names?.toWire(name) ?? name;
  return messages.map((m): WireMessage => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant': {
        const thinking = (m.thinking ?? []).flatMap((b) => (b.type === 'thinking' ? [b.thinking] : [])).join('');
        const reasoning = thinking === '' ? {} : { thinking };
        if (!m.toolCalls?.length) return { role: 'assistant', content: m.content, ...reasoning };
        // arguments go back as an object; a call whose arguments were not one goes back as {}
        const calls = m.toolCalls.map((c, index) => ({ id: c.id, function: { index, name: wire(c.name), arguments: { ...c.args } } }));
        return { role: 'assistant', content: m.content, ...reasoning, tool_calls: calls };
      }
      case 'tool':
        return { role: 'tool', content: m.content, tool_name: wire(m.toolName), tool_call_id: m.toolCallId };
    }
  });
}

export function toOllamaTools(tools: readonly ToolSpec[], names?: ToolNames): { tools: Tool[]; adaptations: Adaptation[] } {
  const adaptations: Adaptation[] = [];
  const out = tools.map((t): Tool => {
    const { schema, changes } = adaptSchema('ollama', t.inputSchema);
    if (changes.length > 0) adaptations.push({ kind: 'schema', tool: t.name, changes });
    return {
      type: 'function',
      function: { name: names?.toWire(t.name) ?? t.name, description: t.description, parameters: schema as Tool['function']['parameters'] },
    };
  });
  return { tools: out, adaptations };
}

/** Ollama's option names: num_ctx always, the rest when set. */
export function toOllamaOptions(o: SamplingOptions, settings: Pick<OllamaSettings, 'numCtx'>): Record<string, number> {
  const out: Record<string, number> = { num_ctx: o.numCtx ?? settings.numCtx };
  if (o.temperature !== undefined) out.temperature = o.temperature;
  if (o.seed !== undefined) out.seed = o.seed;
  if (o.maxTokens !== undefined) out.num_predict = o.maxTokens;
  return out;
}

/** The exact body `complete` sends for a request; pure, so a trace can rebuild it. */
export function buildOllamaRequest(model: string, request: ModelRequest, settings: OllamaSettings) {
  // Ollama takes any name; the table only carries names back unchanged
  const names = new ToolNames(request.tools, undefined);
  const tools = toOllamaTools(request.tools, names);
  const body: OllamaRequestBody = {
    model,
    messages: toOllamaMessages(request.messages, names),
    ...(request.tools.length > 0 ? { tools: tools.tools } : {}),
    think: settings.thinking === 'on',
    truncate: false,
    stream: false,
    options: toOllamaOptions(request.options ?? {}, settings),
  };
  return { body, names, adaptations: tools.adaptations };
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

// Ollama's tool-call parsers fail with HTTP 500 and their own words ("error parsing tool call:
// raw='…'", "failed to parse … tool call", "incomplete GLM tool call": server/routes.go sends a
// parser error as 500, model/parsers/*.go). The same request makes the model write the same
// call again, so it is answered, not retried.
const TOOL_CALL_PARSE = /tool call/i;

export const UNPARSED_CALL_NAME = 'unparsed_tool_call';

export class OllamaAdapter implements ModelAdapter {
  readonly provider = 'ollama' as const;
  readonly spec: string;
  readonly host: string;
  readonly settings: OllamaSettings;
  private readonly ctx: CallContext;

  constructor(
    readonly model: string,
    options: AdapterOptions = {},
  ) {
    this.spec = `ollama:${model}`;
    this.host = options.baseUrl ?? (options.env ?? process.env).OLLAMA_HOST ?? DEFAULT_OLLAMA_HOST;
    if (typeof options.thinking === 'number') {
      throw new ModelConfigError(`${this.spec}: --thinking ${options.thinking}: Ollama takes --thinking on or off, not a token budget`);
    }
    const numCtx = options.numCtx ?? DEFAULT_NUM_CTX;
    if (!Number.isInteger(numCtx) || numCtx < 1) throw new ModelConfigError(`${this.spec}: --num-ctx ${numCtx}: expected a positive integer`);
    this.settings = { provider: 'ollama', baseUrl: recordableUrl(this.host), thinking: options.thinking === 'on' ? 'on' : 'off', numCtx };
    this.ctx = callContext(
      this.spec,
      options,
      (f) => {
        if (f.kind === 'connection') return `is Ollama running at ${this.host}? start it with "ollama serve" or set OLLAMA_HOST`;
        if (f.kind === 'context_length') return `raise --num-ctx (it is ${this.settings.numCtx}) or shorten the rung`;
        if (f.status === 404) return `pull the model with "ollama pull ${model}"`;
        if (f.status === 400 && /does not support thinking/.test(f.detail)) return 'run with --thinking off';
        return undefined;
      },
      (f) => (f.status === 500 && TOOL_CALL_PARSE.test(f.detail) ? new AttemptFailure('model_output', f.detail, f.status) : f),
    );
  }

  async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
    const { body, names, adaptations } = buildOllamaRequest(this.model, request, this.settings);
    // Loaded on the first request, not with the module: a run on another model never pays for it.
    const { Ollama } = await import('ollama');
    const first = priorCallCount(request.messages);
    const started = this.ctx.now();
    let call;
    try {
      call = await callProvider(this.ctx, signal, (fetch) => new Ollama({ host: this.host, fetch }).chat(body as Parameters<OllamaClient['chat']>[0] & { stream: false }));
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'model_output') return this.unparsed(error, first, adaptations, this.ctx.now() - started);
      throw error;
    }
    const res: ChatResponse = call.value;
    const calls = (res.message?.tool_calls ?? []) as WireToolCall[];
    const toolCalls: ToolCall[] = calls.map((c, i) => ({
      id: c.id ?? `ollama_call_${first + i}`,
      name: names.fromWire(c.function.name),
      ...argsObject(c.function.arguments),
    }));
    for (const c of toolCalls) {
      if (c.rawArgs !== undefined) adaptations.push({ kind: 'arguments', tool: c.name, id: c.id, why: 'arguments were not a JSON object; sent back as {}' });
    }
    const reasoning = (res.message as { thinking?: string } | undefined)?.thinking;
    const thinking: ThinkingBlock[] = reasoning ? [{ type: 'thinking', thinking: reasoning }] : [];
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
      ...(thinking.length > 0 ? { thinking } : {}),
      ...(adaptations.length > 0 ? { adaptations } : {}),
    };
  }

  /**
   * The server could not parse the tool call the model wrote: the model gets it back as a failed
   * call quoting what the server saw, as a broken call on any other provider does.
   */
  private unparsed(error: ProviderError, first: number, adaptations: Adaptation[], latencyMs: number): ModelResponse {
    const raw = /raw='([\s\S]*)'/.exec(error.message)?.[1];
    const named = raw === undefined ? undefined : /"name"\s*:\s*"([^"]+)"/.exec(raw)?.[1];
    const name = named ?? UNPARSED_CALL_NAME;
    const id = `ollama_call_${first}`;
    const said = error.message.replace(/^.*?HTTP 500: /, '').slice(0, 300);
    adaptations.push({ kind: 'arguments', tool: name, id, why: `Ollama could not parse the call (${said}); answered as a failed call` });
    return {
      text: '',
      toolCalls: [{
        id, name, args: {}, rawArgs: raw ?? said,
        invalid: `Ollama could not parse this tool call (${said}), so it was not made; write the call again as one JSON object.`,
      }],
      usage: { inputTokens: null, outputTokens: null },
      latencyMs,
      attempts: error.attempts,
      retryWaitMs: 0,
      stopReason: 'tool_calls',
      providerStopReason: null,
      ignoredOptions: [],
      details: {
        provider: 'ollama', model: this.model, promptEvalCount: null, evalCount: null,
        totalDurationNs: null, loadDurationNs: null, promptEvalDurationNs: null, evalDurationNs: null,
      },
      adaptations,
    };
  }
}
