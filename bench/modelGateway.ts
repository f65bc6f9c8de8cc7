// What the model gateway adds to a model call. A local stub answers an OpenAI chat completion at
// once (streamed or not, as asked); the real `openai` client calls it directly, and calls the
// gateway, whose answer callback is Ladder's own OpenAI adapter pointed at the stub: the path an
// external agent's request takes in a pass. Two more split that sum: the adapter calling the stub
// on its own, and the gateway answering at once with a fixed answer (its own share: one more
// local hop, parsing and writing). All are interleaved, one of each in turn, so load from the
// machine's other work falls on all alike. Reported: ms added per request (p50 and p95 of each
// path's times minus the direct ones'), ms added to a streamed answer's first content chunk, and
// how long a piece of text the answerer streams takes to reach the client (the callback holds
// its answer until the client has the piece, so nothing else is in that time).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { startModelGateway } from '../src/gateway/model/index.ts';
import { createModel } from '../src/models/index.ts';
import type { ModelResponse } from '../src/models/types.ts';

const WARM_UP = 50;
const RUNS = 300;
const FORWARD_RUNS = 100;
const TOKEN = 'bench-token';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** A chat completion at once: the shape the adapter reads, or the chunks a streaming client reads. */
async function startStub(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: boolean; model: string };
      const base = { id: 'chatcmpl-stub', created: 0, model: body.model };
      if (body.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: object, finish: string | null = null) =>
          res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
        chunk({ role: 'assistant', content: '' });
        chunk({ content: 'The answer is 42.' });
        chunk({}, 'stop');
        res.end('data: [DONE]\n\n');
        return;
      }
      const text = JSON.stringify({
        ...base, object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'The answer is 42.' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }) };
}

const ASK = { model: 'stub-model', messages: [{ role: 'user' as const, content: 'What is the answer?' }] };

async function timeCall(client: OpenAI): Promise<number> {
  const started = performance.now();
  await client.chat.completions.create(ASK);
  return performance.now() - started;
}

/** Time to the first chunk that carries text. */
async function timeFirstChunk(client: OpenAI): Promise<number> {
  const started = performance.now();
  let first: number | undefined;
  for await (const chunk of await client.chat.completions.create({ ...ASK, stream: true })) {
    if (first === undefined && (chunk.choices[0]?.delta.content ?? '') !== '') first = performance.now() - started;
  }
  return first!;
}

export async function benchModelGateway(): Promise<Record<string, number | string>> {
  const stub = await startStub();
  const adapter = createModel('openai:stub-model', { baseUrl: stub.url, apiKey: 'stub-key', env: {} });
  const gateway = await startModelGateway({ token: TOKEN, answer: (request, { signal }) => adapter.complete(request.request, signal) });
  const fixed = await startModelGateway({ token: TOKEN, answer: async () => fixedAnswer('The answer is 42.') });
  const direct = new OpenAI({ apiKey: 'stub-key', baseURL: stub.url, maxRetries: 0 });
  const through = new OpenAI({ apiKey: TOKEN, baseURL: gateway.openaiBaseUrl, maxRetries: 0 });
  const throughFixed = new OpenAI({ apiKey: TOKEN, baseURL: fixed.openaiBaseUrl, maxRetries: 0 });
  const adapterAlone = async () => {
    const started = performance.now();
    await adapter.complete({ messages: ASK.messages, tools: [] });
    return performance.now() - started;
  };
  const paths = { direct: () => timeCall(direct), gateway: () => timeCall(through), adapter: adapterAlone, gatewayFixed: () => timeCall(throughFixed) };
  const streams = { direct: () => timeFirstChunk(direct), gateway: () => timeFirstChunk(through) };
  try {
    for (let i = 0; i < WARM_UP; i++) {
      for (const time of [...Object.values(paths), ...Object.values(streams)]) await time();
    }
    const calls: Record<keyof typeof paths, number[]> = { direct: [], gateway: [], adapter: [], gatewayFixed: [] };
    const firsts: Record<keyof typeof streams, number[]> = { direct: [], gateway: [] };
    for (let i = 0; i < RUNS; i++) {
      // the order turns each run, so no path always meets a warmer connection or a quieter moment
      const order = (Object.keys(paths) as (keyof typeof paths)[]).map((_, k, all) => all[(k + i) % all.length]!);
      for (const which of order) calls[which].push(await paths[which]());
      const streamOrder = i % 2 === 0 ? (['direct', 'gateway'] as const) : (['gateway', 'direct'] as const);
      for (const which of streamOrder) firsts[which].push(await streams[which]());
    }
    const forwarded = await forwardTimes();
    const added = (path: keyof typeof paths, p: number) => round(percentile(calls[path], p) - percentile(calls.direct, p));
    return {
      modelGatewayRuns: RUNS,
      modelGatewayDirectMsP50: round(percentile(calls.direct, 50)),
      modelGatewayMsP50: round(percentile(calls.gateway, 50)),
      // Goal: at most 2.
      modelGatewayAddedMsP50: added('gateway', 50),
      modelGatewayAddedMsP95: added('gateway', 95),
      // the two parts of that: the gateway answering at once, and Ladder's adapter on its own
      modelGatewayOwnAddedMsP50: added('gatewayFixed', 50),
      modelGatewayOwnAddedMsP95: added('gatewayFixed', 95),
      modelGatewayAdapterAddedMsP50: added('adapter', 50),
      modelGatewayAdapterAddedMsP95: added('adapter', 95),
      modelGatewayFirstChunkDirectMsP50: round(percentile(firsts.direct, 50)),
      modelGatewayFirstChunkAddedMsP50: round(percentile(firsts.gateway, 50) - percentile(firsts.direct, 50)),
      modelGatewayFirstChunkAddedMsP95: round(percentile(firsts.gateway, 95) - percentile(firsts.direct, 95)),
      modelGatewayForwardMsP50: round(percentile(forwarded, 50)),
      modelGatewayForwardMsP95: round(percentile(forwarded, 95)),
    };
  } finally {
    await gateway.close();
    await fixed.close();
    await stub.close();
  }
}

const fixedAnswer = (text: string): ModelResponse => ({
  text, toolCalls: [], usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 0, attempts: 1, retryWaitMs: 0,
  stopReason: 'end', providerStopReason: 'stop', ignoredOptions: [], details: { provider: 'synthetic', policy: 'reference', seed: 0 },
});

/** From the answerer's onText to the client holding the piece, while the answer is still open. */
async function forwardTimes(): Promise<number[]> {
  let sentAt = 0;
  let received: (() => void) | undefined;
  const gateway = await startModelGateway({
    token: TOKEN,
    answer: async (_request, { onText }) => {
      const seen = new Promise<void>((resolve) => (received = resolve));
      sentAt = performance.now();
      onText!('piece');
      await seen;
      return fixedAnswer('piece');
    },
  });
  const client = new OpenAI({ apiKey: TOKEN, baseURL: gateway.openaiBaseUrl, maxRetries: 0 });
  const times: number[] = [];
  try {
    for (let i = 0; i < WARM_UP + FORWARD_RUNS; i++) {
      for await (const chunk of await client.chat.completions.create({ ...ASK, stream: true })) {
        if ((chunk.choices[0]?.delta.content ?? '') === '') continue;
        if (i >= WARM_UP) times.push(performance.now() - sentAt);
        received!();
      }
    }
    return times;
  } finally {
    await gateway.close();
  }
}
