// The agent-matrix's recorder: an HTTP proxy on 127.0.0.1 between an agent's MCP client and the
// scenario's server. It passes every request and every byte of every answer through as it came
// (nothing of Ladder's gateway is in the way: no renaming, no fixed roster, no reliability layer)
// and writes down each JSON-RPC message each way, with the HTTP exchange it rode on, so that a
// matrix cell is read from what the agent's client actually sent and was sent. It checks the
// pass's bearer token, as the gateway does, and no other header is touched.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One thing seen on the wire. `t` is ms since the recorder started. */
export interface WireEntry {
  readonly t: number;
  /** The HTTP exchange it belongs to (numbered from 1 in arrival order). */
  readonly exchange: number;
  /** c2s: the agent's client sent it; s2c: the server sent it; http: the exchange's own event. */
  readonly dir: 'c2s' | 's2c' | 'http';
  /** The request's HTTP method. */
  readonly method: string;
  /** The MCP headers of the request: the session and the revision the client said it speaks. */
  readonly session?: string;
  readonly protocolVersion?: string;
  /** A JSON-RPC message (c2s: the request body's, one entry each; s2c: a JSON body or an SSE event's data). */
  readonly message?: Readonly<Record<string, unknown>>;
  /** For dir http: the response's status, or `client-closed` when the client went away before the answer ended. */
  readonly status?: number;
  readonly event?: 'response' | 'client-closed' | 'upstream-closed' | 'ended';
  /** Bytes of the answer's body, on `ended`. */
  readonly bytes?: number;
}

export interface WireRecorder extends AsyncDisposable {
  /** The URL to give the agent: the same path as the upstream's, on the recorder's port. */
  readonly url: string;
  readonly entries: readonly WireEntry[];
  close(): Promise<void>;
}

/** Hop-by-hop and length headers: node and fetch set their own. */
const DROPPED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'authorization']);

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The JSON-RPC messages of a body: one object, or a batch's each. */
function messagesOf(value: unknown): Record<string, unknown>[] {
  const all = Array.isArray(value) ? value : [value];
  return all.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null);
}

/**
 * Reads SSE `data:` lines as they stream through: each complete event's data is parsed as JSON
 * and handed on; a comment, a retry line or an event with no data is not a message.
 */
export function sseReader(onMessage: (message: unknown) => void): (chunk: string) => void {
  let buffer = '';
  let data: string[] = [];
  return (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (data.length > 0) {
          try {
            onMessage(JSON.parse(data.join('\n')));
          } catch {
            // Not JSON: not an MCP message (nothing the matrix reads).
          }
        }
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''));
      }
    }
  };
}

/** `started`: the performance.now() the scenario's clock counts from, so the wire and the model requests share one. */
export async function startWireRecorder(upstream: string, token: string, started = performance.now()): Promise<WireRecorder> {
  const entries: WireEntry[] = [];
  const now = (): number => Math.round((performance.now() - started) * 10) / 10;
  let exchanges = 0;
  const target = new URL(upstream);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const exchange = (exchanges += 1);
    const method = req.method ?? 'GET';
    const session = header(req, 'mcp-session-id');
    const protocolVersion = header(req, 'mcp-protocol-version');
    const base = { exchange, method, ...(session === undefined ? {} : { session }), ...(protocolVersion === undefined ? {} : { protocolVersion }) };
    if (header(req, 'authorization') !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'the pass token is required (Authorization: Bearer)' }));
      entries.push({ t: now(), dir: 'http', ...base, status: 401, event: 'response' });
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (body.length > 0) {
      try {
        for (const message of messagesOf(JSON.parse(body.toString('utf8')))) entries.push({ t: now(), dir: 'c2s', ...base, message });
      } catch {
        entries.push({ t: now(), dir: 'c2s', ...base, message: { unparsed: body.toString('utf8').slice(0, 200) } });
      }
    }
    const gone = new AbortController();
    let finished = false;
    res.once('close', () => {
      if (!finished) {
        entries.push({ t: now(), dir: 'http', ...base, event: 'client-closed' });
        gone.abort();
      }
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (DROPPED.has(name) || value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    const answer = await fetch(new URL(req.url ?? target.pathname, target), {
      method, headers, signal: gone.signal, ...(body.length > 0 ? { body } : {}),
    }).catch(() => undefined);
    if (answer === undefined) {
      // The server's side of the connection went (or the client's did first): the client's goes
      // too, so it sees what it would have seen without the recorder in between.
      finished = true;
      entries.push({ t: now(), dir: 'http', ...base, event: 'upstream-closed' });
      res.socket?.destroy();
      return;
    }
    entries.push({ t: now(), dir: 'http', ...base, status: answer.status, event: 'response' });
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([name]) => !DROPPED.has(name))));
    res.flushHeaders();
    const sse = (answer.headers.get('content-type') ?? '').includes('text/event-stream');
    const record = (message: unknown): void => {
      for (const one of messagesOf(message)) entries.push({ t: now(), dir: 's2c', ...base, message: one });
    };
    const read = sse ? sseReader(record) : undefined;
    const whole: Buffer[] = [];
    let bytes = 0;
    try {
      for await (const chunk of answer.body ?? []) {
        const buffer = Buffer.from(chunk as Uint8Array);
        bytes += buffer.length;
        if (read !== undefined) read(buffer.toString('utf8'));
        else whole.push(buffer);
        if (!res.destroyed) res.write(buffer);
      }
    } catch {
      // The client went away (recorded on close) or the server cut the stream, which the client is then shown.
      if (!gone.signal.aborted) {
        finished = true;
        entries.push({ t: now(), dir: 'http', ...base, event: 'upstream-closed', bytes });
        res.destroy();
        return;
      }
    }
    if (read === undefined && whole.length > 0) {
      try {
        record(JSON.parse(Buffer.concat(whole).toString('utf8')));
      } catch {
        // A plain-text answer (an HTTP error's): its status is recorded.
      }
    }
    finished = true;
    entries.push({ t: now(), dir: 'http', ...base, event: 'ended', bytes });
    if (!res.destroyed) res.end();
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}${target.pathname}`, entries, close, [Symbol.asyncDispose]: close };
}
