// The lane's overhead where users feel it: tool calls to a real server in another process.
// `@modelcontextprotocol/server-everything` over stdio, its `echo` tool, called by the raw SDK
// `Client.callTool` (the SDK v2 client the lane uses, in the 2025 era, which is what the lane
// negotiates with this server) with the request options the lane's deadline sends (timeout,
// maxTotalTimeout, reset on progress, a progress handler) and by the lane with every mechanism
// on and a trace written to a JSONL file. Each side has its own server process, started the
// way the lane starts one. Paired rounds, the order rotating; the median of the ratios.
//
// The floor: the raw call, on the raw client's own connection, plus only what the trace format
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
import { median, round2, round3 } from './processes.ts';

export interface LaneStdioBenchOptions {
  rounds?: number;
  callsPerRound?: number;
  warmupRounds?: number;
}

async function timeBatch(calls: number, base: number, call: (id: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < calls; i += 1) await call(base + i);
  return ((performance.now() - started) * 1000) / calls;
}

export async function benchLaneStdio(options: LaneStdioBenchOptions = {}): Promise<Record<string, number>> {
  const { rounds = 30, callsPerRound = 200, warmupRounds = 3 } = options;
  const server = nodePackage('@modelcontextprotocol/server-everything', ['stdio']);
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-stdio-'));
  const raw = new Client({ name: 'raw', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await raw.connect(new StdioClientTransport({ command: server.command, args: spawnArgs(server.command, server.args ?? []), stderr: 'ignore' }));
  await raw.listTools();
  const floorTrace = TraceWriter.open(join(dir, 'floor.jsonl'));
  const trace = TraceWriter.open(join(dir, 'on.jsonl'));
  const lane = await Lane.connect({ servers: { ev: server }, arm: 'on', emit: trace.emit });
  const deadline = {
    timeout: DEFAULT_CALL_TIMEOUT_MS, maxTotalTimeout: DEFAULT_MAX_TOTAL_TIMEOUT_MS, resetTimeoutOnProgress: true,
    onprogress: () => undefined,
  };
  const floorOne = (id: number): Promise<void> =>
    floorCall(floorTrace.emit, 'ev', 'echo', { message: `m${id}` }, () => raw.callTool({ name: 'echo', arguments: { message: `m${id}` } }, deadline));
  const ratios: number[] = [];
  const floorRatios: number[] = [];
  const rawMicros: number[] = [];
  const laneMicros: number[] = [];
  const floorMicros: number[] = [];
  try {
    if (lane.startErrors.length > 0) throw lane.startErrors[0];
    for (let r = 0; r < warmupRounds + rounds; r += 1) {
      await lane.openTurn();
      const base = r * callsPerRound;
      const timeRaw = () => timeBatch(callsPerRound, base, (id) => raw.callTool({ name: 'echo', arguments: { message: `m${id}` } }, deadline));
      const timeLane = () => timeBatch(callsPerRound, base, (id) => lane.call('ev__echo', { message: `m${id}` }, { round: 1 }));
      const timeFloor = () => timeBatch(callsPerRound, base, floorOne);
      const paths = [timeRaw, timeLane, timeFloor];
      const t: number[] = [0, 0, 0];
      for (let i = 0; i < paths.length; i += 1) {
        const which = (i + r) % paths.length;
        t[which] = await paths[which]!();
      }
      const [tRaw, tLane, tFloor] = t as [number, number, number];
      if (r < warmupRounds) continue;
      ratios.push(tLane / tRaw);
      floorRatios.push(tFloor / tRaw);
      rawMicros.push(tRaw);
      laneMicros.push(tLane);
      floorMicros.push(tFloor);
    }
  } finally {
    await Promise.all([lane.close(), raw.close()]);
    trace.close();
    floorTrace.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    laneStdioOverheadRatio: round3(median(ratios)),
    laneStdioRawMicrosPerCall: round2(median(rawMicros)),
    laneStdioMicrosPerCall: round2(median(laneMicros)),
    laneStdioFloorRatio: round3(median(floorRatios)),
    laneStdioFloorMicrosPerCall: round2(median(floorMicros)),
    laneStdioBenchRounds: rounds,
    laneStdioBenchCallsPerRound: callsPerRound,
  };
}
