// The run's MCP gateway (issue 18, "Figures"): microseconds a tool call pays for going through
// the gateway (an SDK client over Streamable HTTP on 127.0.0.1, serveGatewayHttp, gatewayServer,
// StepGateway) over calling the same lane directly (Lane.call), beside its floor: a bare SDK
// Streamable HTTP server that forwards each tools/call to the same kind of upstream with an SDK
// client, no lane, no trace, no guard, over calling that upstream client directly. So
//   gatewayAdded = gateway - lane,   floorAdded = bare - raw,   ratio = gatewayAdded / floorAdded,
// and the goal (issue 36) is a ratio of at most 1.10 in both eras, steady enough that two runs
// agree within 0.05: the gateway's own code (guard, body read, step bookkeeping, the answer's
// shape, the signal that lets a step stop a call) costs at most a tenth more than the HTTP hop
// itself. CPU time per call stands beside each wall-time figure.
//
// Every upstream is the same in-process SDK server over an InMemoryTransport pair, so only the
// path differs. The lane writes its trace to a JSONL file, as in a run; its cost is in both
// `lane` and `gateway` and cancels. The four paths are timed in 40 paired rounds of 250 calls
// whose order rotates, so a busy machine's drift hits them alike; the figure is the median of
// the per-round ratios.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { createMcpHandler, isInitializeRequest, isLegacyRequest, Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { serverTransport } from './lane.ts';
import { fetchFollowingSignal } from '../src/mcp/client.ts';
import { serveGatewayHttp } from '../src/gateway/mcp/http.ts';
import { modernGatewayHandler } from '../src/gateway/mcp/modern.ts';
import { gatewayServer } from '../src/gateway/mcp/server.ts';
import { StepGateway } from '../src/gateway/mcp/step.ts';
import { Lane } from '../src/lane/index.ts';
import { TraceWriter } from '../src/trace/index.ts';
import { timeBatch } from './pairedCalls.ts';
import { median, round2, round3 } from './processes.ts';

export interface GatewayBenchOptions {
  rounds?: number;
  callsPerRound?: number;
  warmupRounds?: number;
}

type Path = 'raw' | 'bare' | 'lane' | 'gateway';
/** The era the HTTP clients speak: the 2025 revisions (a session) or 2026-07-28 (none). */
type Era = 'legacy' | 'modern';

/** The same in-process upstream the lane's bench calls. */
const upstream = serverTransport;

/** A forwarding server: lists and calls go to one client. */
function forwarding(to: Client): Server {
  const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => to.listTools());
  server.setRequestHandler('tools/call', (request) => to.callTool(request.params) as Promise<CallToolResult>);
  return server;
}

/** The least a Node HTTP server does to hand a request to the SDK's web-standard transports and write the answer back. */
async function toWeb(req: IncomingMessage, res: ServerResponse, answer: (request: Request, body: unknown) => Promise<Response>): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const body: unknown = text === '' ? undefined : JSON.parse(text);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const request = new Request(`http://bare${req.url ?? '/mcp'}`, { method: req.method ?? 'POST', headers, ...(req.method === 'POST' ? { body: text } : {}) });
  const response = await answer(request, body);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) return void res.end();
  Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
}

/**
 * The floor: what any Streamable HTTP MCP proxy on the SDK's v2 line must do to serve both eras on
 * one endpoint, as the gateway does, written the way the SDK's own documentation writes one: a
 * 2025 session gets a web-standard transport and a Server; a request with no session that is not
 * an `initialize` goes to the SDK's per-request handler when the SDK's isLegacyRequest says it is
 * not a 2025 one (the pattern its createMcpHandler documents for `legacy: 'reject'`). Either
 * forwards to one client. (Before, the 2026-07-28 floor served that era alone and skipped the
 * classification, which a gateway serving both eras cannot: docs/gateway.md.)
 */
async function bareForwarder(to: Client): Promise<{ url: string; close: () => Promise<void> }> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const modern = createMcpHandler(() => forwarding(to), { legacy: 'reject' });
  const answer = async (request: Request, body: unknown): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    if (id === null && !isInitializeRequest(body) && !(await isLegacyRequest(request, body))) return modern.fetch(request, { parsedBody: body });
    let transport = id === null ? undefined : sessions.get(id);
    if (transport === undefined) {
      const fresh: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid): void => void sessions.set(sid, fresh),
      });
      await forwarding(to).connect(fresh);
      transport = fresh;
    }
    return transport.handleRequest(request, { parsedBody: body });
  };
  const httpServer = http.createServer((req, res) => void toWeb(req, res, answer).catch(() => res.destroy()));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      await modern.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

async function httpClient(url: string, era: Era, token?: string): Promise<Client> {
  const client = new Client({ name: 'agent', version: '1.0.0' }, { versionNegotiation: { mode: era === 'legacy' ? 'legacy' : { pin: '2026-07-28' } } });
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` };
  // The fetch that gives each request a signal of its own (src/mcp/client.ts): with the SDK's
  // default, undici keeps an abort listener per request on the transport's one signal until a
  // collection, and walks them all on every request, so both paths' client cost grew with the
  // calls made since the last GC (100 us a call and more) and the ratio moved from run to run.
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch: fetchFollowingSignal }));
  await client.listTools();
  return client;
}

/** Both eras, one after the other: the 2025 figures keep their names, the 2026-07-28 ones are `gatewayModern*`. */
export async function benchGateway(options: GatewayBenchOptions = {}): Promise<Record<string, number>> {
  const legacy = await benchGatewayEra('legacy', options);
  const modern = await benchGatewayEra('modern', options);
  return { ...legacy, ...Object.fromEntries(Object.entries(modern).map(([key, value]) => [key.replace(/^gateway/, 'gatewayModern'), value])) };
}

async function benchGatewayEra(era: Era, options: GatewayBenchOptions): Promise<Record<string, number>> {
  const { rounds = 40, callsPerRound = 250, warmupRounds = 4 } = options;
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-gateway-'));
  const token = randomUUID();
  const trace = TraceWriter.open(join(dir, 'pass.jsonl'));
  const lane = await Lane.connect({ servers: { bench: { transport: await upstream() } }, arm: 'on', emit: trace.emit });
  const step = new StepGateway(lane);
  const gateway = await serveGatewayHttp({
    newServer: () => gatewayServer({ backend: step }), token, ...(era === 'modern' ? { modern: modernGatewayHandler(step) } : {}),
  });
  const raw = new Client({ name: 'raw', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await raw.connect(await upstream());
  const bare = await bareForwarder(raw);
  const stop = new AbortController();
  // A step is open while the clients connect and list, as the runner opens one before the agent starts.
  await step.openStep({ index: 0, ceiling: Number.MAX_SAFE_INTEGER, signal: stop.signal });
  const viaGateway = await httpClient(gateway.url, era, token);
  const viaBare = await httpClient(bare.url, era);
  if (viaGateway.getNegotiatedProtocolVersion() !== viaBare.getNegotiatedProtocolVersion()) throw new Error(`bench gateway: the two clients speak different revisions`);
  await step.endStep();
  const calls: Record<Path, (id: number) => Promise<unknown>> = {
    raw: (id) => raw.callTool({ name: 'lookup', arguments: { id } }),
    bare: (id) => viaBare.callTool({ name: 'lookup', arguments: { id } }),
    lane: (id) => lane.call('bench__lookup', { id }, { round: 1 }),
    gateway: (id) => viaGateway.callTool({ name: 'bench__lookup', arguments: { id } }),
  };
  const paths: Path[] = ['raw', 'bare', 'lane', 'gateway'];
  const s = {
    gatewayAdded: [] as number[], floorAdded: [] as number[], ratio: [] as number[], gatewayAddedCpu: [] as number[], floorAddedCpu: [] as number[],
    ratioCpu: [] as number[], gateway: [] as number[], lane: [] as number[], bare: [] as number[], raw: [] as number[],
  };
  try {
    for (let r = 0; r < warmupRounds + rounds; r += 1) {
      // One step per round, as a run has one per step: its records stay a round's worth.
      await step.openStep({ index: r + 1, ceiling: Number.MAX_SAFE_INTEGER, signal: stop.signal });
      const base = r * callsPerRound;
      const t = {} as Record<Path, { wall: number; cpu: number }>;
      for (let i = 0; i < paths.length; i += 1) {
        const path = paths[(i + r) % paths.length]!;
        t[path] = await timeBatch(callsPerRound, base, calls[path]);
      }
      const { calls: made } = await step.endStep();
      if (made.length !== callsPerRound || made.some((c) => c.outcome !== 'ok')) throw new Error(`bench gateway: round ${r} made ${made.length} calls through the gateway, not all ok`);
      if (r < warmupRounds) continue;
      s.gatewayAdded.push(t.gateway.wall - t.lane.wall);
      s.floorAdded.push(t.bare.wall - t.raw.wall);
      s.ratio.push((t.gateway.wall - t.lane.wall) / (t.bare.wall - t.raw.wall));
      s.gatewayAddedCpu.push(t.gateway.cpu - t.lane.cpu);
      s.floorAddedCpu.push(t.bare.cpu - t.raw.cpu);
      s.ratioCpu.push((t.gateway.cpu - t.lane.cpu) / (t.bare.cpu - t.raw.cpu));
      s.gateway.push(t.gateway.wall);
      s.lane.push(t.lane.wall);
      s.bare.push(t.bare.wall);
      s.raw.push(t.raw.wall);
    }
  } finally {
    await Promise.allSettled([viaGateway.close(), viaBare.close()]);
    await Promise.allSettled([gateway.close(), bare.close()]);
    await Promise.allSettled([lane.close(), raw.close()]);
    trace.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    gatewayAddedMicrosPerCall: round2(median(s.gatewayAdded)),
    gatewayFloorAddedMicrosPerCall: round2(median(s.floorAdded)),
    // The goal: at most 1.10.
    gatewayOverFloorRatio: round3(median(s.ratio)),
    // The same in CPU time, which the other processes of a shared machine do not inflate.
    gatewayAddedCpuMicrosPerCall: round2(median(s.gatewayAddedCpu)),
    gatewayFloorAddedCpuMicrosPerCall: round2(median(s.floorAddedCpu)),
    gatewayOverFloorRatioCpu: round3(median(s.ratioCpu)),
    gatewayMicrosPerCall: round2(median(s.gateway)),
    gatewayLaneMicrosPerCall: round2(median(s.lane)),
    gatewayBareMicrosPerCall: round2(median(s.bare)),
    gatewayRawMicrosPerCall: round2(median(s.raw)),
    gatewayBenchRounds: rounds,
    gatewayBenchCallsPerRound: callsPerRound,
  };
}
