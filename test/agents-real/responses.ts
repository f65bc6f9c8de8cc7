// A tiny OpenAI Responses endpoint for the real-agent suite: every POST .../responses is
// answered, streamed, with one assistant message (response.created, output_item.added and
// .done, response.completed with usage), and every request is kept for the test to read.
// Codex talks only to the base URL it is given, so this is all it needs to finish a turn offline.
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export class ResponsesEndpoint implements AsyncDisposable {
  readonly requests: SeenRequest[] = [];
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  /** `answer` gives the text of each response, from the request's body; one that never settles holds the request open. */
  static async start(answer: (body: unknown) => string | Promise<string>): Promise<ResponsesEndpoint> {
    let endpoint: ResponsesEndpoint | undefined;
    const server = createServer((req, res) => {
      void readBody(req).then((text) => {
        const body: unknown = text === '' ? undefined : JSON.parse(text);
        endpoint!.requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
        if (req.method !== 'POST' || !(req.url ?? '').endsWith('/responses')) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no ${req.method} ${req.url} here` } }));
          return;
        }
        const n = endpoint!.requests.length;
        void Promise.resolve(answer(body)).then((answerText) => {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          for (const event of responseEvents(answerText, n)) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
          res.end();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    endpoint = new ResponsesEndpoint(server, `http://127.0.0.1:${address.port}/v1`);
    return endpoint;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => resolve(text));
  });
}

function responseEvents(text: string, n: number): Array<Record<string, unknown> & { type: string }> {
  const id = `resp_${n}`;
  const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: 'tiny' };
  const message = { id: `msg_${n}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  return [
    { type: 'response.created', sequence_number: 0, response: { ...base, status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...message, status: 'in_progress', content: [] } },
    { type: 'response.output_item.done', sequence_number: 2, output_index: 0, item: message },
    { type: 'response.completed', sequence_number: 3, response: { ...base, status: 'completed', output: [message], usage } },
  ];
}
