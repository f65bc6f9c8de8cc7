// What the two MCP eras cost, against a server that speaks both: the SDK v2 fixture
// (test/fixtures/v2-server.mjs dual), over stdio, a process per connection, as a pass starts one.
//
// - Negotiation per connection: Lane.connect and close to one server with `protocol: auto` (it
//   asks `server/discover`, gets 2026-07-28) against the same with the revision pinned
//   (`2026-07-28`: the probe still runs, but no fallback is possible) and with `legacy` (the
//   2025 handshake: `initialize`, `notifications/initialized`), beside the SDK's client alone
//   pinned and legacy; then against the fixture's 2025-only mode, where `auto`'s probe is
//   answered "method not found" and it falls back, `auto` against `legacy`, the lane and the SDK
//   alone. Paired rounds, the order rotating; the median of the ratios. The process start
//   dominates each connect; the ratios say what the probe adds to it, and the SDK's own ratio
//   beside the lane's says how much of that is the SDK's and the server's (docs/lane.md).
// - The lane's overhead per call in each era: `add` called by the lane (every mechanism on, a
//   trace written) against the SDK v2 client's own callTool on a connection of the same era,
//   beside the floor (the raw call plus what the trace format requires: call key, its sha256,
//   the result's text, one JSON line), as bench/laneStdio.ts measures it for a 2025 server.
//   Each of the three paths has a server process of its own (bench/pairedCalls.ts says why);
//   the goal is the lane within 1.10 times its floor, `eras*OverFloorRatio`.
// - A turn's opening against a server whose tools/list says `ttlMs: 0` (the SDK v2 default, in
//   the 2026-07-28 era): the roster cache on (`on`: its own TTL, no round trip) against the
//   specification's letter (`roster=strict`: a listing every turn). Paired rounds; the median
//   of the ratios is what re-listing every turn costs over the cache, on a local server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_MAX_TOTAL_TIMEOUT_MS, Lane } from '../src/lane/index.ts';
import { spawnArgs } from '../src/lane/connections.ts';
import type { Protocol } from '../src/mcp/protocols.ts';
import { TraceWriter } from '../src/trace/index.ts';
import { floorCall } from './floor.ts';
import { microsOf, pairedRounds, ratioOf, timeBatch } from './pairedCalls.ts';
import { median, round2, round3 } from './processes.ts';

const DUAL = fileURLToPath(new URL('../test/fixtures/v2-server.mjs', import.meta.url));
const SERVER = { command: process.execPath, args: [DUAL, 'dual', 'stdio'] };

export interface ErasBenchOptions {
  /** Paired rounds of one connect per setting. */
  connectRounds?: number;
  /** Rounds of calls per era, and calls per round. */
  callRounds?: number;
  callsPerRound?: number;
}

/** A server to connect to: the dual fixture, or the 2025-only one (`server/discover` unknown to it). */
type Fixture = 'dual' | 'legacy';
const serverOf = (fixture: Fixture) => ({ command: process.execPath, args: [DUAL, fixture, 'stdio'] });

/** ms for Lane.connect to one server with `protocol`, the process's start included. */
async function connectMs(protocol: Protocol, fixture: Fixture = 'dual'): Promise<number> {
  const started = performance.now();
  const lane = await Lane.connect({ servers: { v2: { ...serverOf(fixture), protocol } }, arm: 'on' });
  const ms = performance.now() - started;
  if (lane.startErrors.length > 0) throw lane.startErrors[0];
  await lane.close();
  return ms;
}

/** The same with the SDK's client alone (its own stdio transport, no lane): what the era costs before Ladder does anything. */
async function sdkConnectMs(protocol: Protocol, fixture: Fixture = 'dual'): Promise<number> {
  const started = performance.now();
  const mode = protocol === 'legacy' || protocol === 'auto' ? protocol : { pin: protocol };
  const client = new Client({ name: 'raw', version: '1.0.0' }, { versionNegotiation: { mode } });
  const server = serverOf(fixture);
  await client.connect(new StdioClientTransport({ command: server.command, args: spawnArgs(server.command, server.args), stderr: 'ignore' }));
  const ms = performance.now() - started;
  await client.close();
  return ms;
}

/**
 * Connects in paired rounds, the order rotating: the lane with each setting against the dual
 * fixture and the SDK alone pinned and legacy beside it; then against the 2025-only fixture, where
 * `auto` is refused its probe and falls back, the lane and the SDK alone on `auto` and `legacy`.
 */
async function connects(rounds: number): Promise<Record<string, number>> {
  const paths: Record<string, () => Promise<number>> = {
    auto: () => connectMs('auto'),
    pinned: () => connectMs('2026-07-28'),
    legacy: () => connectMs('legacy'),
    sdkPinned: () => sdkConnectMs('2026-07-28'),
    sdkLegacy: () => sdkConnectMs('legacy'),
    fallbackAuto: () => connectMs('auto', 'legacy'),
    fallbackLegacy: () => connectMs('legacy', 'legacy'),
    sdkFallbackAuto: () => sdkConnectMs('auto', 'legacy'),
    sdkFallbackLegacy: () => sdkConnectMs('legacy', 'legacy'),
  };
  const names = Object.keys(paths);
  const t: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  await connectMs('auto'); // warm-up: the fixture's modules into the page cache
  for (let r = 0; r < rounds; r += 1) {
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + r) % names.length]!;
      t[name]!.push(await paths[name]!());
    }
  }
  const ms = (name: string) => round2(median(t[name]!));
  const ratio = (a: string, b: string) => round3(median(t[a]!.map((x, i) => x / t[b]![i]!)));
  return {
    erasConnectAutoMs: ms('auto'),
    erasConnectPinnedMs: ms('pinned'),
    erasConnectLegacyMs: ms('legacy'),
    // The goal: at most 1.02, or the SDK's own ratio beside it.
    erasConnectPinnedVsLegacyRatio: ratio('pinned', 'legacy'),
    erasConnectSdkPinnedVsLegacyRatio: ratio('sdkPinned', 'sdkLegacy'),
    erasConnectSdkPinnedMs: ms('sdkPinned'),
    erasConnectSdkLegacyMs: ms('sdkLegacy'),
    // `auto` against the revision it ends in: 2026-07-28 with the dual fixture, a 2025 one with the 2025-only fixture.
    erasConnectAutoVsPinnedRatio: ratio('auto', 'pinned'),
    erasConnectAutoVsLegacyRatio: ratio('auto', 'legacy'),
    erasConnectFallbackAutoMs: ms('fallbackAuto'),
    erasConnectFallbackLegacyMs: ms('fallbackLegacy'),
    erasConnectFallbackAutoVsLegacyRatio: ratio('fallbackAuto', 'fallbackLegacy'),
    erasConnectSdkFallbackAutoVsLegacyRatio: ratio('sdkFallbackAuto', 'sdkFallbackLegacy'),
    erasConnectRounds: rounds,
  };
}

/** An SDK v2 client of the era, with a server process of its own. */
async function rawClient(era: 'legacy' | '2026-07-28'): Promise<Client> {
  const raw = new Client({ name: 'raw', version: '1.0.0' }, { versionNegotiation: { mode: era === 'legacy' ? 'legacy' : { pin: era } } });
  await raw.connect(new StdioClientTransport({ command: SERVER.command, args: spawnArgs(SERVER.command, SERVER.args), stderr: 'ignore' }));
  return raw;
}

/**
 * Lane, raw and floor micros per call over one era, and the ratios: each over raw, and the lane
 * over its floor directly (the median of the paired per-round ratios), in wall and CPU time.
 */
async function callsIn(era: 'legacy' | '2026-07-28', rounds: number, callsPerRound: number): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'ladder-bench-eras-'));
  // Three server processes, one per path (bench/pairedCalls.ts says why).
  const raw = await rawClient(era);
  const floorClient = await rawClient(era);
  const trace = TraceWriter.open(join(dir, 'lane.jsonl'));
  const floorTrace = TraceWriter.open(join(dir, 'floor.jsonl'));
  const lane = await Lane.connect({ servers: { v2: { ...SERVER, protocol: era } }, arm: 'on', emit: trace.emit });
  const deadline = { timeout: DEFAULT_CALL_TIMEOUT_MS, maxTotalTimeout: DEFAULT_MAX_TOTAL_TIMEOUT_MS, resetTimeoutOnProgress: true, onprogress: () => undefined };
  const rawCall = (client: Client, id: number) => client.callTool({ name: 'add', arguments: { a: id, b: 1 } }, deadline);
  let t;
  try {
    if (lane.startErrors.length > 0) throw lane.startErrors[0];
    await lane.openTurn();
    t = await pairedRounds({
      raw: (id) => rawCall(raw, id),
      lane: (id) => lane.call('v2__add', { a: id, b: 1 }, { round: 1 }),
      floor: (id) => floorCall(floorTrace.emit, 'v2', 'add', { a: id, b: 1 }, () => rawCall(floorClient, id)),
    }, { rounds, callsPerRound, warmupRounds: 2 });
  } finally {
    await Promise.all([lane.close(), raw.close(), floorClient.close()]);
    trace.close();
    floorTrace.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const name = era === 'legacy' ? 'Legacy' : 'Modern';
  return {
    [`eras${name}RawMicrosPerCall`]: microsOf(t.raw),
    [`eras${name}LaneMicrosPerCall`]: microsOf(t.lane),
    [`eras${name}FloorMicrosPerCall`]: microsOf(t.floor),
    [`eras${name}OverheadRatio`]: ratioOf(t.lane, t.raw),
    [`eras${name}FloorRatio`]: ratioOf(t.floor, t.raw),
    // The goal: at most 1.10.
    [`eras${name}OverFloorRatio`]: ratioOf(t.lane, t.floor),
    [`eras${name}LaneCpuMicrosPerCall`]: microsOf(t.lane, 'cpu'),
    [`eras${name}FloorCpuMicrosPerCall`]: microsOf(t.floor, 'cpu'),
    [`eras${name}OverFloorRatioCpu`]: ratioOf(t.lane, t.floor, 'cpu'),
  };
}

/** Microseconds per turn opening under `on` and `roster=strict`, and their ratio. */
async function turnsAgainstZeroTtl(rounds: number, turnsPerRound: number): Promise<Record<string, number>> {
  const server = { v2: { ...SERVER, protocol: '2026-07-28' as const } };
  const cached = await Lane.connect({ servers: server, arm: 'on' });
  const strict = await Lane.connect({ servers: server, arm: 'roster=strict' });
  const times: [number[], number[]] = [[], []];
  try {
    for (const lane of [cached, strict]) if (lane.startErrors.length > 0) throw lane.startErrors[0];
    for (let r = 0; r < rounds + 1; r += 1) {
      const t = [0, 0];
      for (let i = 0; i < 2; i += 1) {
        const which = (i + r) % 2;
        const lane = which === 0 ? cached : strict;
        t[which] = (await timeBatch(turnsPerRound, 0, () => lane.openTurn())).wall;
      }
      if (r === 0) continue; // warm-up
      times[0].push(t[0]!);
      times[1].push(t[1]!);
    }
  } finally {
    await Promise.all([cached.close(), strict.close()]);
  }
  const [on, letter] = times;
  return {
    erasZeroTtlCachedMicrosPerTurn: round2(median(on)),
    erasZeroTtlStrictMicrosPerTurn: round2(median(letter)),
    erasZeroTtlStrictVsCachedRatio: round3(median(letter.map((x, i) => x / on[i]!))),
  };
}

export async function benchEras(options: ErasBenchOptions = {}): Promise<Record<string, number>> {
  const { connectRounds = 20, callRounds = 20, callsPerRound = 400 } = options;
  return {
    ...(await connects(connectRounds)),
    ...(await callsIn('legacy', callRounds, callsPerRound)),
    ...(await callsIn('2026-07-28', callRounds, callsPerRound)),
    ...(await turnsAgainstZeroTtl(10, 200)),
  };
}
