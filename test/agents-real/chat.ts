// A small OpenAI Chat Completions endpoint for the real-agent suite (opencode and Qwen Code speak
// it): every POST .../chat/completions is answered with the text or the tool calls a script
// gives, streamed as `chat.completion.chunk`s (or one `chat.completion` when `stream` is not
// set), and every request is kept for the test to read. What the real API refuses it refuses
// the same way, in OpenAI's error body ({error: {message, type, param, code}}): a missing
// `model` or `messages`, a `tool` message that answers no call of the assistant message before
// it (the API's own "messages with role 'tool' must be a response to a preceeding message with
// 'tool_calls'"), a wrong key (401 invalid_api_key), another path (404).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
  /** Date.now() when the request had arrived whole: an agent's start-up is the first one's. */
  at: number;
}

export type ChatAnswer = string | { toolCalls: Array<{ name: string; args: Record<string, unknown> }> };

interface ChatBody {
  model?: unknown;
  messages?: Array<{ role?: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
  stream?: unknown;
  stream_options?: { include_usage?: boolean };
}

export class ChatEndpoint implements AsyncDisposable {
  readonly requests: SeenRequest[] = [];
  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  /** The chat requests only (not a models listing or a 404). */
  get chats(): SeenRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'));
  }

  /**
   * `answer` gives each response from the request's body and its place among the chat requests
   * (1-based); one that never settles holds the request open. `key` is the API key it accepts.
   */
  static async start(answer: (body: ChatBody, n: number) => ChatAnswer | Promise<ChatAnswer>, key?: string): Promise<ChatEndpoint> {
    let endpoint: ChatEndpoint | undefined;
    const server = createServer((req, res) => {
      void readBody(req).then(async (text) => {
        let body: unknown;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          body = text;
        }
        endpoint!.requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body, at: Date.now() });
        const path = (req.url ?? '').split('?')[0]!;
        if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
          return refuse(res, 404, `Unrecognized request URL (${req.method} ${path}). Please check the URL and the method.`, 'invalid_request_error', null, 'unknown_url');
        }
        if (key !== undefined && req.headers.authorization !== `Bearer ${key}`) {
          return refuse(res, 401, 'Incorrect API key provided.', 'invalid_request_error', null, 'invalid_api_key');
        }
        const problem = invalid(body);
        if (problem !== undefined) return refuse(res, 400, problem.message, 'invalid_request_error', problem.param, null);
        const chat = body as ChatBody;
        const reply = await answer(chat, endpoint!.chats.length);
        const n = endpoint!.chats.length;
        if (chat.stream === true) writeStream(res, reply, n, chat.stream_options?.include_usage === true);
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(reply, n)));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    endpoint = new ChatEndpoint(server, `http://127.0.0.1:${address.port}/v1`);
    return endpoint;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** What the API refuses before answering (its API reference, and its function-calling guide). */
function invalid(body: unknown): { message: string; param: string } | undefined {
  if (body === null || typeof body !== 'object') return { message: 'We could not parse the JSON body of your request.', param: '' };
  const chat = body as ChatBody;
  if (typeof chat.model !== 'string') return { message: 'you must provide a model parameter', param: 'model' };
  if (!Array.isArray(chat.messages) || chat.messages.length === 0) return { message: "Missing required parameter: 'messages'.", param: 'messages' };
  let open = new Set<string>();
  for (const [i, m] of chat.messages.entries()) {
    if (m.role === 'tool') {
      if (m.tool_call_id === undefined || !open.has(m.tool_call_id)) {
        return { message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", param: `messages.[${i}].role` };
      }
      open.delete(m.tool_call_id);
      continue;
    }
    if (open.size > 0) {
      return { message: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'.", param: 'messages' };
    }
    open = new Set((m.role === 'assistant' ? m.tool_calls ?? [] : []).map((c) => c.id));
  }
  return undefined;
}

function refuse(res: ServerResponse, status: number, message: string, type: string, param: string | null, code: string | null): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message, type, param, code } }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => resolve(text));
  });
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

function calls(reply: ChatAnswer, n: number): Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> {
  if (typeof reply === 'string') return [];
  return reply.toolCalls.map((c, i) => ({ id: `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
}

function completion(reply: ChatAnswer, n: number): Record<string, unknown> {
  const toolCalls = calls(reply, n);
  const message = typeof reply === 'string' ? { role: 'assistant', content: reply } : { role: 'assistant', content: null, tool_calls: toolCalls };
  return {
    id: `chatcmpl-${n}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: 'tiny',
    choices: [{ index: 0, message, finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop', logprobs: null }], usage: USAGE,
  };
}

/** The streamed form: the role, the text or each call (id and name, then its arguments), the finish reason, the usage chunk, [DONE]. */
function writeStream(res: ServerResponse, reply: ChatAnswer, n: number, includeUsage: boolean): void {
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: 'tiny' };
  const usage = includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], ...usage })}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }));
  const toolCalls = calls(reply, n);
  if (typeof reply === 'string') res.write(chunk({ content: reply }));
  toolCalls.forEach((call, index) => {
    res.write(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    res.write(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }));
  });
  res.write(chunk({}, toolCalls.length > 0 ? 'tool_calls' : 'stop'));
  if (includeUsage) res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: USAGE })}\n\n`);
  res.end('data: [DONE]\n\n');
}
