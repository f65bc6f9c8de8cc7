// The lane's overhead where users feel it: tool calls to a real server in another process.
// `@modelcontextprotocol/server-everything` over stdio, its `echo` tool, called by the raw SDK
// `Client.callTool` (the SDK v2 client the lane uses, in the 2025 era, which is what the lane
// negotiates with this server) with the request options the lane's deadline sends (timeout,
// maxTotalTimeout, reset on progress, a progress handler) and by the lane with every mechanism
// on and a trace written to a JSONL file. Each side has its own server process, started the
// way the lane starts one (bench/pairedCalls.ts says why that matters). Paired rounds, the order
// rotating; the median of the ratios.
//
// The floor: the raw call, on a raw client and server of its own, plus only what the trace format
// requires of every call (the call key, its sha256, the result's text, one JSON line through a
// TraceWriter): no mechanism, no routing. No lane that writes the trace can be cheaper, so
// laneStdioFloorRatio is the least laneStdioOverheadRatio can be on the machine it ran on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_MAX_TOTAL_TIMEOUT_MS, Lane, nodePackage } from '../src/lane/index.ts';
import { spawnArgs } from '../src/lane/connections.ts';
import { TraceWriter } from '../src/trace/index.ts';
import { floorCall } from './floor.ts';
import { microsOf, pairedRounds, ratioOf } from './pairedCalls.ts';

export interface LaneStdioBenchOptions {
  rounds?: number;
  callsPerRound?: number;
  warmupRounds?: number;
}

export async function benchLaneStdio(options: LaneStdioBenchOptions = {}): Promise<Record<string, number>> {
  const { rounds = 30, callsPerRound = 300, warmupRounds = 3 } = options;
  const server = nodePackage('@modelcontextprotocol/server-everything', ['stdio']);
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-stdio-'));
  // Three server processes, one per path (bench/pairedCalls.ts says why).
  const rawClient = async (): Promise<Client> => {
    const client = new Client({ name: 'raw', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StdioClientTransport({ command: server.command, args: spawnArgs(server.command, server.args ?? []), stderr: 'ignore' }));
    await client.listTools();
    return client;
  };
  const raw = await rawClient();
  const floorClient = await rawClient();
  const floorTrace = TraceWriter.open(join(dir, 'floor.jsonl'));
  const trace = TraceWriter.open(join(dir, 'on.jsonl'));
  const lane = await Lane.connect({ servers: { ev: server }, arm: 'on', emit: trace.emit });
  const deadline = {
    timeout: DEFAULT_CALL_TIMEOUT_MS, maxTotalTimeout: DEFAULT_MAX_TOTAL_TIMEOUT_MS, resetTimeoutOnProgress: true,
    onprogress: () => undefined,
  };
  const echo = (client: Client, id: number) => client.callTool({ name: 'echo', arguments: { message: `m${id}` } }, deadline);
  let t;
  try {
    if (lane.startErrors.length > 0) throw lane.startErrors[0];
    t = await pairedRounds({
      raw: (id) => echo(raw, id),
      lane: (id) => lane.call('ev__echo', { message: `m${id}` }, { round: 1 }),
      floor: (id) => floorCall(floorTrace.emit, 'ev', 'echo', { message: `m${id}` }, () => echo(floorClient, id)),
    }, { rounds, callsPerRound, warmupRounds, beforeRound: async () => void (await lane.openTurn()) });
  } finally {
    await Promise.all([lane.close(), raw.close(), floorClient.close()]);
    trace.close();
    floorTrace.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    laneStdioOverheadRatio: ratioOf(t.lane, t.raw),
    laneStdioRawMicrosPerCall: microsOf(t.raw),
    laneStdioMicrosPerCall: microsOf(t.lane),
    laneStdioFloorRatio: ratioOf(t.floor, t.raw),
    laneStdioFloorMicrosPerCall: microsOf(t.floor),
    // The goal: at most 1.10.
    laneStdioOverFloorRatio: ratioOf(t.lane, t.floor),
    laneStdioCpuMicrosPerCall: microsOf(t.lane, 'cpu'),
    laneStdioFloorCpuMicrosPerCall: microsOf(t.floor, 'cpu'),
    laneStdioOverFloorRatioCpu: ratioOf(t.lane, t.floor, 'cpu'),
    laneStdioBenchRounds: rounds,
    laneStdioBenchCallsPerRound: callsPerRound,
  };
}
