// node:http in front of the MCP SDK's web-standard transports (its v2 line serves Request and
// Response): the workbench (http.ts) and the gateway (src/gateway/mcp/http.ts) read and guard
// the Node request themselves, then hand it on here and write back what the SDK answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * The request as the SDK's web-standard transports take it: a POST's body was read already, and
 * is passed parsed beside it. The request's signal aborts when its client goes away, as the
 * SDK's own Node adapter does, so a stream whose client left is closed. `signal: false` leaves it
 * out where nothing reads it: a 2025 session's transport ends a POST's stream when the response
 * closes (served cancels it), and never looks at the signal, which cost a call through the
 * gateway 20 to 30 us (undici makes a signal of its own that follows the given one).
 */
export function webRequest(req: IncomingMessage, res: ServerResponse, body?: unknown, options: { signal?: boolean } = {}): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one);
  }
  const method = req.method ?? 'POST';
  const init: RequestInit = { method, headers, ...(method === 'POST' ? { body: JSON.stringify(body) } : {}) };
  if (options.signal !== false) {
    const gone = new AbortController();
    // Only a response cut short is a client gone: aborting after every finished response made a
    // DOMException (a stack trace) per request, the largest single cost of a gateway call.
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    init.signal = gone.signal;
  }
  return new Request(`http://mcp${req.url ?? '/mcp'}`, init);
}

/**
 * Writes a web-standard response (JSON, or an SSE stream) to the Node one. By default the headers
 * go out at once, as the SDK's Node transport sent them, so a client (and the workbench's
 * dropReply fault) sees a stream open before its first event. With `headersWithinMs` they wait
 * that long for the first chunk of the body and go out with it, in one write instead of two
 * (the gateway's tool calls: a separate write for the headers was a tenth of a call's cost);
 * a stream with nothing to say by then gets its headers on their own, so a slow tool's client
 * still sees its stream open.
 */
export function served(res: ServerResponse, response: Response, options: { headersWithinMs?: number } = {}): void {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  const stream = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  if (options.headersWithinMs === undefined) res.flushHeaders();
  else {
    const flush = setTimeout(() => res.flushHeaders(), options.headersWithinMs);
    stream.once('data', () => clearTimeout(flush));
    res.once('close', () => clearTimeout(flush));
  }
  res.once('close', () => stream.destroy());
  stream.on('error', () => res.destroy()).pipe(res);
}
