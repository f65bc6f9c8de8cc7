// A tiny Anthropic Messages endpoint for the real-agent suite: every POST .../v1/messages is
// answered, streamed, with one assistant text message (message_start, content_block_start,
// content_block_delta, content_block_stop, message_delta with usage, message_stop), and every
// request is kept for the test to read. It refuses what the real API refuses for the model
// behind it, in the API's words: a {"role": "system"} entry of `messages` (a model without
// mid-conversation system messages), which is what Claude Code's fallback reads.
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface SeenRequest {
  method: string;
  path: string;
  apiKey: string | undefined;
  status: number;
  body: unknown;
}

/** The real API's body for a system entry after a user turn, on a model without mid-conversation system messages. */
export const SYSTEM_REFUSED = { type: 'error', error: { type: 'invalid_request_error', message: "role 'system' is not supported on this model" } };

export class MessagesEndpoint implements AsyncDisposable {
  readonly requests: SeenRequest[] = [];
  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:<port>`: Anthropic's base URL, without /v1. */
    readonly baseUrl: string,
  ) {}

  /**
   * `answer` gives the text of each answered request, from its body; one that never settles holds
   * the request open. `systemRefusal` is the 400 body for a system entry (the real API's by default).
   */
  static async start(answer: (body: unknown) => string | Promise<string>, systemRefusal: unknown = SYSTEM_REFUSED): Promise<MessagesEndpoint> {
    let endpoint: MessagesEndpoint | undefined;
    const server = createServer((req, res) => {
      void readBody(req).then((text) => {
        const body: unknown = text === '' ? undefined : JSON.parse(text);
        const seen: SeenRequest = { method: req.method ?? '', path: req.url ?? '', apiKey: header(req, 'x-api-key'), status: 200, body };
        endpoint!.requests.push(seen);
        const json = (status: number, reply: unknown) => {
          seen.status = status;
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
        };
        if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== '/v1/messages') {
          return json(404, { type: 'error', error: { type: 'not_found_error', message: 'Not Found' } });
        }
        const messages = (body as { messages?: Array<{ role: string }> }).messages ?? [];
        if (messages.some((m) => m.role === 'system')) return json(400, systemRefusal);
        const n = endpoint!.requests.length;
        void Promise.resolve(answer(body)).then((answerText) => {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          for (const event of messageEvents(answerText, n)) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
          res.end();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    endpoint = new MessagesEndpoint(server, `http://127.0.0.1:${address.port}`);
    return endpoint;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => resolve(text));
  });
}

function messageEvents(text: string, n: number): Array<Record<string, unknown> & { type: string }> {
  const message = { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'tiny', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 0 } };
  return [
    { type: 'message_start', message },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ];
}
