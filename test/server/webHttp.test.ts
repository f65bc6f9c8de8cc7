// The web-standard request handed to the SDK: its signal says the client went away, and only that.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { served, webRequest } from '../../src/server/webHttp.ts';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A server that makes each request's web request and hands it to `respond`; resolves each once its response has closed. */
async function serve(respond: (res: import('node:http').ServerResponse) => void): Promise<{ url: string; signals: Promise<AbortSignal>[] }> {
  const signals: Promise<AbortSignal>[] = [];
  const server = createServer((req, res) => {
    const { signal } = webRequest(req, res, {});
    signals.push(new Promise((resolve) => res.once('close', () => setImmediate(() => resolve(signal)))));
    respond(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, signals };
}

describe('webRequest', () => {
  it('leaves the signal alone when the response was sent whole', async () => {
    const { url, signals } = await serve((res) => res.end('{}'));
    expect(await (await fetch(url, { method: 'POST', body: '{}' })).text()).toBe('{}');
    expect((await signals[0]!).aborted).toBe(false);
  });

  it('aborts it when the client goes away before the response is done', async () => {
    const { url, signals } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
    });
    const client = new AbortController();
    const response = await fetch(url, { method: 'POST', body: '{}', signal: client.signal });
    expect(response.status).toBe(200);
    client.abort();
    expect((await signals[0]!).aborted).toBe(true);
  });
});

describe('webRequest without a signal', () => {
  it('makes a request whose signal never aborts, even when the client goes away', async () => {
    const made: Request[] = [];
    const closed: Promise<void>[] = [];
    const { url } = await serve(() => undefined);
    const server = servers.at(-1)!;
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      made.push(webRequest(req, res, { a: 1 }, { signal: false }));
      closed.push(new Promise((resolve) => res.once('close', () => setImmediate(resolve))));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': open\n\n');
    });
    const client = new AbortController();
    await fetch(url, { method: 'POST', body: '{}', signal: client.signal });
    client.abort();
    await closed[0];
    expect(made[0]!.signal.aborted).toBe(false);
    expect(await made[0]!.json()).toEqual({ a: 1 });
  });
});

describe('served with headersWithinMs', () => {
  /** An SSE answer whose first event comes after `firstAfterMs`. */
  const slowStream = (firstAfterMs: number) => new Response(new ReadableStream({
    start(controller) {
      setTimeout(() => {
        controller.enqueue(new TextEncoder().encode('data: {}\n\n'));
        controller.close();
      }, firstAfterMs);
    },
  }), { headers: { 'content-type': 'text/event-stream' } });

  it('sends the headers alone when the first event is slower than the wait, so the client sees its stream open', async () => {
    const { url } = await serve((res) => served(res, slowStream(1_000), { headersWithinMs: 20 }));
    const started = performance.now();
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(performance.now() - started).toBeLessThan(800);
    expect(await response.text()).toBe('data: {}\n\n');
  });

  it('sends headers and a quick first event together, the whole body intact', async () => {
    const { url } = await serve((res) => served(res, slowStream(0), { headersWithinMs: 1_000 }));
    const started = performance.now();
    const response = await fetch(url, { method: 'POST', body: '{}' });
    expect(await response.text()).toBe('data: {}\n\n');
    expect(performance.now() - started).toBeLessThan(800);
  });
});
