// A local OpenAI-compatible chat server that plays a scripted policy: it reads the step from
// the user messages and its progress from the tool results since the step's prompt, then asks
// for the script's next call or gives the step's answer. It keeps no state between requests,
// so a run driven through it is a real-model run in every respect but the model: the real
// `openai` client, real HTTP, the provider's wire format. Every request body is kept as the
// bytes that arrived. It can answer slowly (`delayMs`, a hosted model's latency) and throttle
// (`throttleEvery`: every n-th request is a 429 with Retry-After, as OpenAI sends one).
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PolicyCall {
  name: string;
  args: Record<string, unknown>;
  /** The arguments' text as sent, when it must not be `args` as JSON (a model's broken JSON). */
  raw?: string;
}

export interface PolicyStep {
  calls: PolicyCall[];
  answer: string;
}

export interface PolicyOptions {
  /** Wait this long before each answer. */
  delayMs?: number;
  /** Answer every n-th request (counting all) with 429 and `retryAfter`. */
  throttleEvery?: number;
  /** The Retry-After header of a 429, in seconds (default '1'). */
  retryAfter?: string;
  /** `usage.prompt_tokens_details.cached_tokens` on every answer. */
  cachedTokens?: number;
}

interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: unknown[];
}

export class PolicyServer {
  /** Each request's body, exactly as it arrived. */
  readonly bodies: string[] = [];
  readonly url: string;
  /** Requests answered 429. */
  throttled = 0;
  /** The most requests the server held at once. */
  mostAtOnce = 0;
  private open = 0;

  private constructor(
    private readonly server: Server,
    port: number,
  ) {
    this.url = `http://127.0.0.1:${port}/v1`;
  }

  static async start(steps: readonly PolicyStep[], options: PolicyOptions = {}): Promise<PolicyServer> {
    let self: PolicyServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const s = self!;
        const text = Buffer.concat(chunks).toString('utf8');
        s.bodies.push(text);
        const n = s.bodies.length;
        s.open += 1;
        s.mostAtOnce = Math.max(s.mostAtOnce, s.open);
        const answer = () => {
          s.open -= 1;
          if (options.throttleEvery !== undefined && n % options.throttleEvery === 0) {
            s.throttled += 1;
            res.writeHead(429, { 'content-type': 'application/json', 'retry-after': options.retryAfter ?? '1' });
            res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } }));
            return;
          }
          const body = JSON.parse(text) as { messages: WireMessage[] };
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply(steps, body.messages, n, options.cachedTokens)));
        };
        if (options.delayMs === undefined) answer();
        else setTimeout(answer, options.delayMs);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new PolicyServer(server, (server.address() as AddressInfo).port);
    return self;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function reply(steps: readonly PolicyStep[], messages: WireMessage[], n: number, cachedTokens?: number): unknown {
  const users = messages.filter((m) => m.role === 'user').length;
  const step = steps[Math.min(users, steps.length) - 1]!;
  const since = messages.slice(messages.findLastIndex((m) => m.role === 'user') + 1);
  const answered = since.filter((m) => m.role === 'tool').length;
  const call = step.calls[answered];
  const message = call === undefined
    ? { role: 'assistant', content: step.answer, refusal: null }
    : {
      role: 'assistant', content: null, refusal: null,
      tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: call.name, arguments: call.raw ?? JSON.stringify(call.args) } }],
    };
  return {
    id: `chatcmpl-${n}`, object: 'chat.completion', created: 1_700_000_000, model: 'scripted-2026', system_fingerprint: 'fp_scripted',
    choices: [{ index: 0, message, finish_reason: call === undefined ? 'stop' : 'tool_calls', logprobs: null }],
    usage: {
      prompt_tokens: 100 + messages.length, completion_tokens: call === undefined ? 12 : 20, total_tokens: 0,
      ...(cachedTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: cachedTokens } }),
    },
  };
}
