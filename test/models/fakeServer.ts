// A scripted HTTP server on 127.0.0.1 standing in for a model provider. Each request is
// recorded as the client sent it and answered by the next scripted reply, so tests check the
// wire in both directions with the real client libraries in between. It is strict: a request
// the real service would refuse is answered with that service's error (strict/*.ts) and uses
// up no scripted reply.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ANTHROPIC_RULES } from './strict/anthropic.ts';
import { OLLAMA_RULES, quietly } from './strict/ollama.ts';
import { EXTRA_FORBIDDEN_RULES, OLLAMA_OPENAI_RULES, OPENAI_RULES } from './strict/openai.ts';
import { DEFAULT_SERVER_MODEL, firstBroken } from './strict/rules.ts';
import type { Refusal, Rule, ServerModel } from './strict/rules.ts';

export interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: any;
  /** The body exactly as it arrived. */
  readonly raw: string;
  /** The rule the request broke and what it was answered, when it broke one. */
  readonly refused?: { readonly rule: string; readonly refusal: Refusal };
  /** What the service would have changed without saying so (Ollama). */
  readonly notes: readonly string[];
}

/**
 * Whose rules the server enforces: hosted OpenAI, Ollama's /v1, a compatible API that refuses
 * unknown fields, Anthropic, Ollama's native API; `auto` picks by path, `off` checks nothing.
 */
export type StrictProfile = 'openai' | 'ollama-openai' | 'extra-forbidden' | 'anthropic' | 'ollama';

const PROFILES: Record<StrictProfile, readonly Rule[]> = {
  openai: OPENAI_RULES,
  'ollama-openai': OLLAMA_OPENAI_RULES,
  'extra-forbidden': [...EXTRA_FORBIDDEN_RULES, ...OPENAI_RULES],
  anthropic: ANTHROPIC_RULES,
  ollama: OLLAMA_RULES,
};

function profileOf(path: string): StrictProfile | undefined {
  if (path.endsWith('/api/chat')) return 'ollama';
  if (path.endsWith('/v1/messages')) return 'anthropic';
  if (path.endsWith('/chat/completions')) return 'openai';
  return undefined;
}

export interface FakeOptions {
  readonly strict?: StrictProfile | 'auto' | 'off';
  /** The model behind the server: capabilities and defaults some rules depend on. */
  readonly model?: Partial<ServerModel>;
}

export type Reply =
  | { readonly status?: number; readonly headers?: Record<string, string>; readonly json: unknown }
  /** Close the socket before any response is written. */
  | 'drop'
  /** Send headers and part of the body, then close the socket. */
  | 'drop-mid-body'
  /** Never answer. */
  | 'hang';

export class FakeProvider {
  readonly seen: Seen[] = [];
  private readonly queue: Reply[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(options: FakeOptions = {}): Promise<FakeProvider> {
    let fake: FakeProvider | undefined;
    const model = { ...DEFAULT_SERVER_MODEL, ...options.model };
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '';
        const body = text ? JSON.parse(text) : undefined;
        const profile = options.strict === 'off' ? undefined : options.strict === undefined || options.strict === 'auto' ? profileOf(path) : options.strict;
        const broken = profile === undefined ? undefined : firstBroken(PROFILES[profile], body, model);
        const notes = profile === 'ollama' && broken === undefined ? quietly(body, model) : [];
        fake!.seen.push({
          method: req.method ?? '', path, headers: req.headers, body, raw: text, notes,
          ...(broken ? { refused: { rule: broken.rule.id, refusal: broken.refusal } } : {}),
        });
        if (broken) {
          res.writeHead(broken.refusal.status, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify(broken.refusal.json));
        }
        const reply = fake!.queue.shift() ?? { status: 599, json: { error: 'no scripted reply left' } };
        if (reply === 'hang') return;
        if (reply === 'drop') return void req.socket.destroy();
        if (reply === 'drop-mid-body') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
          res.write('{"model":"m","message":{"role":"assis');
          setTimeout(() => req.socket.destroy(), 10);
          return;
        }
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.json));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeProvider(server, `http://127.0.0.1:${port}`);
    return fake;
  }

  /** Posts `body` as a client would, for requests no adapter makes any more. */
  async post(path: string, body: unknown): Promise<{ status: number; json: any }> {
    const response = await fetch(`${this.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, json: await response.json() };
  }

  /** The last request's broken rule, or undefined when it broke none. */
  get lastRefused(): string | undefined {
    return this.seen.at(-1)?.refused?.rule;
  }

  /** Queues replies, answered in order, one per request. */
  reply(...replies: Reply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Drops the replies not yet served (more were queued than a test's requests used). */
  dropReplies(): void {
    this.queue.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A port nothing listens on: one that was just free. */
export async function closedPort(): Promise<string> {
  const fake = await FakeProvider.start();
  await fake.close();
  return fake.url;
}

/** Records the waits a retry asks for instead of waiting. */
export function recordingSleep(): { waits: number[]; sleep: (ms: number) => Promise<void> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

// ---- replies in each provider's documented shape ----

export interface FakeCall {
  readonly id?: string;
  readonly name: string;
  readonly args: Record<string, unknown> | string;
}

export function ollamaReply(content: string, calls: FakeCall[] = [], extra: Record<string, unknown> = {}, thinking?: string) {
  const tool_calls = calls.map((c, index) => ({
    ...(c.id ? { id: c.id } : {}),
    function: { index, name: c.name, arguments: c.args },
  }));
  return {
    json: {
      model: 'm',
      created_at: '2026-01-01T00:00:00Z',
      message: { role: 'assistant', content, ...(thinking === undefined ? {} : { thinking }), ...(calls.length ? { tool_calls } : {}) },
      done: true,
      done_reason: 'stop',
      total_duration: 900_000_000,
      load_duration: 100_000_000,
      prompt_eval_count: 40,
      prompt_eval_duration: 200_000_000,
      eval_count: 12,
      eval_duration: 600_000_000,
      ...extra,
    },
  };
}

export function openaiReply(content: string | null, calls: FakeCall[] = [], extra: Record<string, unknown> = {}) {
  const tool_calls = calls.map((c) => ({
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
  }));
  return {
    json: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'm-2026',
      system_fingerprint: 'fp_1',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null, ...(calls.length ? { tool_calls } : {}) },
          finish_reason: calls.length ? 'tool_calls' : 'stop',
          logprobs: null,
        },
      ],
      usage: {
        prompt_tokens: 30,
        completion_tokens: 9,
        total_tokens: 39,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
      service_tier: 'default',
      ...extra,
    },
  };
}

/** `thinking`: blocks made by thinkingBlock / redactedBlock (strict/anthropic.ts), first as the API sends them. */
export function anthropicReply(text: string, calls: FakeCall[] = [], extra: Record<string, unknown> = {}, thinking: object[] = []) {
  const content = [
    ...thinking,
    ...(text ? [{ type: 'text', text }] : []),
    ...calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.args })),
  ];
  return {
    json: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'm-2026',
      content,
      stop_reason: calls.length ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 50, output_tokens: 7, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      ...extra,
    },
  };
}

/** An error reply with the body each provider documents. */
export function errorReply(provider: 'ollama' | 'openai' | 'anthropic', status: number, message: string, headers: Record<string, string> = {}) {
  const json =
    provider === 'ollama'
      ? { error: message }
      : provider === 'openai'
        ? { error: { message, type: 'error', param: null, code: null } }
        : { type: 'error', error: { type: 'api_error', message } };
  return { status, headers, json };
}
