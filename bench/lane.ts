// The lane's cost per tool call against the raw SDK `Client.callTool` (the SDK v2 client the
// lane uses, in the 2025 era that the in-process server speaks), all over the SDK's
// in-memory transport to identical servers. Five paths are timed in every round: raw; the
// lane with every mechanism off (the harness's plumbing: call key, hash, trace); the lane with
// every mechanism on; the same without a trace, to show the trace's share; and raw again with
// the request options the deadline sends on every call, to show what the SDK itself charges
// for them (the progress token, which the lane cannot do without: see docs/lane.md); and the
// floor, that raw call plus only what the trace format requires of every call (the call key,
// its sha256, the result's text, one JSON line), which no traced lane can undercut. Traces
// go to real JSONL files. Paired rounds in one process, the order rotating each round, so
// drift (JIT, GC, a busy machine) hits every path alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_MAX_TOTAL_TIMEOUT_MS, Lane } from '../src/lane/index.ts';
import { TraceWriter } from '../src/trace/index.ts';
import { floorCall } from './floor.ts';
import { timeBatch } from './pairedCalls.ts';

export interface LaneBenchOptions {
  rounds?: number;
  callsPerRound?: number;
  warmupRounds?: number;
}

type Path = 'raw' | 'off' | 'on' | 'untraced' | 'rawDeadline' | 'floor';
type Call = (id: number) => Promise<unknown>;

/** An in-process upstream with one small tool, over the SDK's in-memory pair. */
export async function serverTransport(): Promise<Transport> {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool('lookup', { description: 'Looks an item up', inputSchema: { id: z.number() } }, ({ id }) => ({
    content: [{ type: 'text', text: `item ${id}: a small answer of a few dozen bytes` }],
  }));
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return client;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function laneOn(dir: string, arm: 'on' | 'off', traced = true): Promise<{ lane: Lane; trace: TraceWriter | undefined }> {
  const trace = traced ? TraceWriter.open(join(dir, `${arm}.jsonl`)) : undefined;
  // Declared deterministic, so the repeat guard does its full work on every call; the
  // arguments differ per call, so it never answers short and every call reaches the server.
  const lane = await Lane.connect({
    servers: { bench: { transport: await serverTransport() } }, arm, deterministic: () => true,
    ...(trace === undefined ? {} : { emit: trace.emit }),
  });
  return { lane, trace };
}

export async function benchLane(options: LaneBenchOptions = {}): Promise<Record<string, number | string>> {
  const { rounds = 40, callsPerRound = 500, warmupRounds = 5 } = options;
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-'));
  const raw = new Client({ name: 'raw', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await raw.connect(await serverTransport());
  await raw.listTools();
  // A client of its own, so the raw path's client never sees a progress token.
  const rawDeadline = new Client({ name: 'raw', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await rawDeadline.connect(await serverTransport());
  await rawDeadline.listTools();
  const deadlineOptions = {
    timeout: DEFAULT_CALL_TIMEOUT_MS, maxTotalTimeout: DEFAULT_MAX_TOTAL_TIMEOUT_MS, resetTimeoutOnProgress: true,
    onprogress: () => undefined,
  };
  const floorTrace = TraceWriter.open(join(dir, 'floor.jsonl'));
  const floor = (id: number): Promise<void> =>
    floorCall(floorTrace.emit, 'bench', 'lookup', { id }, () => rawDeadline.callTool({ name: 'lookup', arguments: { id } }, deadlineOptions), true);
  const on = await laneOn(dir, 'on');
  const off = await laneOn(dir, 'off');
  const untraced = await laneOn(dir, 'on', false);
  const calls: Record<Path, Call> = {
    raw: (id) => raw.callTool({ name: 'lookup', arguments: { id } }),
    off: (id) => off.lane.call('bench__lookup', { id }, { round: 1 }),
    on: (id) => on.lane.call('bench__lookup', { id }, { round: 1 }),
    untraced: (id) => untraced.lane.call('bench__lookup', { id }, { round: 1 }),
    rawDeadline: (id) => rawDeadline.callTool({ name: 'lookup', arguments: { id } }, deadlineOptions),
    floor,
  };
  const paths: Path[] = ['raw', 'off', 'on', 'untraced', 'rawDeadline', 'floor'];
  const samples = {
    ratio: [] as number[], cpuRatio: [] as number[], added: [] as number[], offAdded: [] as number[],
    untracedAdded: [] as number[], raw: [] as number[], on: [] as number[], deadlineAdded: [] as number[],
    deadlineRatio: [] as number[], floorAdded: [] as number[],
  };
  try {
    for (let r = 0; r < warmupRounds + rounds; r += 1) {
      await on.lane.openTurn();
      await off.lane.openTurn();
      await untraced.lane.openTurn();
      // Distinct arguments per call: the breaker and the repeat guard keep a record per key,
      // as they would over a real pass.
      const base = r * callsPerRound;
      const order = paths.map((_, i) => paths[(i + r) % paths.length]!);
      const t = {} as Record<Path, { wall: number; cpu: number }>;
      for (const path of order) t[path] = await timeBatch(callsPerRound, base, calls[path]);
      if (r < warmupRounds) continue;
      samples.ratio.push(t.on.wall / t.raw.wall);
      samples.cpuRatio.push(t.on.cpu / t.raw.cpu);
      samples.added.push(t.on.wall - t.raw.wall);
      samples.offAdded.push(t.off.wall - t.raw.wall);
      samples.untracedAdded.push(t.untraced.wall - t.raw.wall);
      samples.deadlineAdded.push(t.rawDeadline.wall - t.raw.wall);
      samples.deadlineRatio.push(t.rawDeadline.wall / t.raw.wall);
      samples.floorAdded.push(t.floor.wall - t.raw.wall);
      samples.raw.push(t.raw.wall);
      samples.on.push(t.on.wall);
    }
  } finally {
    await Promise.all([on.lane.close(), off.lane.close(), untraced.lane.close(), raw.close(), rawDeadline.close()]);
    on.trace?.close();
    off.trace?.close();
    floorTrace.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const r2 = (x: number) => Math.round(x * 100) / 100;
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    laneOverheadRatio: r3(median(samples.ratio)),
    laneAddedMicrosPerCall: r2(median(samples.added)),
    laneOverheadRatioCpu: r3(median(samples.cpuRatio)),
    laneOffAddedMicrosPerCall: r2(median(samples.offAdded)),
    laneUntracedAddedMicrosPerCall: r2(median(samples.untracedAdded)),
    // What the SDK adds to a raw call for the deadline's options alone: a floor under the
    // lane's figures that no change to the lane can remove.
    laneSdkDeadlineAddedMicrosPerCall: r2(median(samples.deadlineAdded)),
    laneSdkDeadlineRatio: r3(median(samples.deadlineRatio)),
    // The deadline's cost plus the trace's: the least laneAddedMicrosPerCall can be here.
    laneFloorAddedMicrosPerCall: r2(median(samples.floorAdded)),
    laneRawMicrosPerCall: r2(median(samples.raw)),
    laneMicrosPerCall: r2(median(samples.on)),
    laneBenchRounds: rounds,
    laneBenchCallsPerRound: callsPerRound,
  };
}
