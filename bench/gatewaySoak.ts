// `ladder gateway` under load (issue 19, "Proven with real clients and under load"): 10,000
// calls at concurrency 8 through the real command (`node bin/ladder.js gateway --transport
// http`, a child process) to four stdio upstreams (bench/fixtures/soakServer.mjs) that exit on
// every 500th call they receive, hang on 1% of calls and fail 10%, beside a bare SDK forwarding
// proxy (bench/fixtures/bareProxy.mjs, also a child) with the same upstreams and the same calls.
// The two are driven in alternating blocks of 1,000 calls, so the machine's drift hits both.
//
// What it proves, each as a figure in reports/bench.json:
// - every call answered: counted at the client (each call's answer, by seq) and at the
//   upstreams (each appends what it receives); none received twice, none answered as if sent
//   without having been received, and every call received but not answered by its upstream is
//   one a crash cut (received by a process that then exited);
// - a hang ends by the client's timeout: the client's cancellation reaches the upstream;
// - nothing leaks: the live heap (heap snapshots with nothing in flight) grows less than 100
//   bytes a call past a warm-up of 1,000 calls per side, beyond what the bare proxy's grew, and
//   the open descriptors do not grow (bench/soakMemory.ts has the rule and why resident memory
//   is only a figure: it rose and fell by tens of MB for both sides alike);
// - no process is left afterwards (ps), restarts are counted (GET /status) and match the crashes;
// - p50 and p99 per call, through the gateway and through the bare proxy.
//
// - clients that leave without DELETE are not held: after the calls, LEAVERS clients each open a
//   session, make a call and close (the SDK's close() sends no DELETE, as the v2 client's does
//   not); the gateway runs with a session idle time of SESSION_IDLE_S, and the sessions it holds
//   at the end (GET /status) are the soak's own client's one, none of theirs.
//
// The arm is `circuit=off`: with the circuit on, a crash's cut calls open the server's circuit
// for its 60 s cool-down and every call after the first crash is an instant "unavailable",
// so the upstreams would crash once and the soak would measure nothing but refusals. With it
// off, every call the gateway can send is sent, and the restarts happen ~20 times.
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { httpClientTransport } from '../src/mcp/client.ts';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayStatus } from '../src/gateway/status.ts';
import { ROOT } from './processes.ts';
import { heapSnapshot, memoryVerdict, procSample, slope } from './soakMemory.ts';
import type { HeapCount, ProcSample } from './soakMemory.ts';

export interface GatewaySoakOptions {
  calls?: number;
  concurrency?: number;
  upstreams?: number;
  crashEvery?: number;
  /** The client's timeout: what ends a hang. A normal call answers in milliseconds. */
  hangTimeoutMs?: number;
  block?: number;
}

type Answer = 'ok' | 'failed' | 'gateway_error' | 'client_timeout' | 'rpc_error' | 'wrong';

interface Call {
  answer: Answer;
  text: string;
  ms: number;
}

interface MemorySample {
  done: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface Side {
  label: 'gateway' | 'bare';
  child: ChildProcess;
  url: string;
  dir: string;
  client: Client;
  calls: Map<number, Call>;
  /** Every SAMPLE_EVERY counted calls: what /proc says of the process. */
  rss: ProcSample[];
  /** Every MEMORY_EVERY counted calls: what the process says of itself (process.memoryUsage()). */
  memory: MemorySample[];
  pid: number | undefined;
  /** Warnings the child printed on stderr while serving. */
  warnings: { count: number; first: string };
  /** Heap snapshots at idle moments: after the warm-up, half-way, at the end. */
  snapshots: HeapCount[];
  /** Where the process writes its heap snapshots. */
  diagnostics: string;
  /** Counted calls are stored and sampled; warm-up calls are not. */
  counting: boolean;
}

const SOAK_SERVER = join(ROOT, 'bench', 'fixtures', 'soakServer.mjs');
const BARE_PROXY = join(ROOT, 'bench', 'fixtures', 'bareProxy.mjs');
/** Start-up of a child: the gateway from sources through tsx takes a few seconds on a busy machine. */
const START_WAIT_MS = 60_000;
/**
 * The whole soak's bound for 10,000 calls (a longer soak gets as much more): it stops by itself
 * even if something hangs. About 1.5 minutes on a quiet machine; 8 minutes was not enough with
 * the load average at 50 on the 2-core machine, so the bound is far from what a working soak takes.
 */
const SOAK_CAP_MS = 20 * 60_000;

/** Clients that open a session, make one call and leave without DELETE. */
const LEAVERS = 40;
/**
 * The gateway's session idle time in the soak: short, so the soak waits seconds for the leavers'
 * sessions to end, and longer than a bare block takes, while the soak's own client idles with its
 * GET stream open (which alone keeps its session).
 */
const SESSION_IDLE_S = 3;

/** Calls per side before the counted ones, so both ends of the RSS comparison are warm. */
const WARMUP_CALLS = 1_000;

/**
 * How long a snapshot waits after every upstream is up: a restarted process's start, a dead one's
 * descriptors closing, and past the HTTP servers' keep-alive time (Node's 5 s), so the sockets a
 * client's pool holds idle are closed and only what a request still holds open is counted.
 */
const SETTLE_MS = 6_000;
/** Counted calls between two samples of /proc, and between two of the process's own figures. */
const SAMPLE_EVERY = 100;
const MEMORY_EVERY = 500;

const isHang = (seq: number): boolean => seq % 100 === 50;
const isFail = (seq: number): boolean => seq % 10 === 3;

function serversFile(dir: string, upstreams: number, crashEvery: number): string {
  const mcpServers = Object.fromEntries(Array.from({ length: upstreams }, (_, k) => [`u${k}`, {
    command: process.execPath, args: [SOAK_SERVER, join(dir, `u${k}.log`)], env: { SOAK_CRASH_EVERY: String(crashEvery) },
  }]));
  const path = join(dir, 'servers.json');
  writeFileSync(path, JSON.stringify({ mcpServers }));
  return path;
}

/** Starts a child that prints `... serving <url> ...` on stderr, and returns it with the URL. */
async function startChild(args: string[], log: string, diagnostics: string): Promise<{ child: ChildProcess; url: string; warnings: { count: number; first: string } }> {
  // A heap snapshot on SIGUSR2, written into `diagnostics` (bench/soakMemory.ts).
  const flags = ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${diagnostics}`];
  const child = spawn(process.execPath, [...flags, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${log}: printed no URL in ${START_WAIT_MS} ms; stderr: ${stderr}`)), START_WAIT_MS);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /serving (http:\/\/\S+\/mcp)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`${log}: exited (${code}) before serving; stderr: ${stderr}`)));
  });
  // Keep reading, so a chatty child never blocks on a full pipe, and count Node's warnings
  // (a MaxListenersExceededWarning is how a listener leak shows before memory does).
  const warnings = { count: 0, first: '' };
  child.stderr!.removeAllListeners('data');
  child.stderr!.on('data', (chunk: Buffer) => {
    const found = chunk.toString().split('\n').filter((line) => line.includes('Warning:'));
    warnings.count += found.length;
    if (warnings.first === '' && found.length > 0) warnings.first = found[0]!.slice(0, 200);
  });
  return { child, url, warnings };
}

/** What the process says it holds: the gateway's GET /status, the bare proxy's GET /memory. */
async function memoryOf(side: Side): Promise<Omit<MemorySample, 'done'>> {
  const path = side.label === 'gateway' ? '/status' : '/memory';
  const body = await (await fetch(new URL(path, side.url))).json() as { memory?: Omit<MemorySample, 'done'> } & Omit<MemorySample, 'done'>;
  const { heapUsed, external, arrayBuffers } = body.memory ?? body;
  return { heapUsed, external, arrayBuffers };
}

async function status(url: string): Promise<GatewayStatus> {
  return (await (await fetch(new URL('/status', url))).json()) as GatewayStatus;
}

function classify(seq: number, result: CallToolResult): { answer: Answer; text: string } {
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  if (result.isError !== true) return { answer: text === `ok ${seq}` ? 'ok' : 'wrong', text };
  if (text === `failed on purpose ${seq}`) return { answer: 'failed', text };
  return { answer: text.includes('on purpose') || text.startsWith('ok ') ? 'wrong' : 'gateway_error', text };
}

/** Drives calls [from, to) through one side at the given concurrency. */
async function drive(side: Side, from: number, to: number, concurrency: number, upstreams: number, hangTimeoutMs: number): Promise<void> {
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < to) {
      const seq = next++;
      const started = performance.now();
      let call: Omit<Call, 'ms'>;
      try {
        const result = await side.client.callTool({ name: `u${seq % upstreams}__work`, arguments: { seq } }, undefined, { timeout: hangTimeoutMs }) as CallToolResult;
        call = classify(seq, result);
      } catch (error) {
        const timeout = error instanceof McpError && error.code === ErrorCode.RequestTimeout;
        call = { answer: timeout ? 'client_timeout' : 'rpc_error', text: (error as Error).message };
      }
      if (!side.counting) continue;
      if (side.calls.has(seq)) call = { answer: 'wrong', text: `answered twice: ${seq}` };
      side.calls.set(seq, { ...call, ms: performance.now() - started });
      const done = side.calls.size;
      if (side.pid !== undefined && done % SAMPLE_EVERY === 0) side.rss.push(procSample(side.pid, done));
      if (done % MEMORY_EVERY === 0) side.memory.push({ done, ...await memoryOf(side) });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

interface Received {
  /** seq -> the pids that received it (more than one: a duplicate). */
  by: Map<number, number[]>;
  cancelled: Set<number>;
  starts: number;
  /** Pids that exited on purpose. */
  crashed: Set<number>;
  pids: number[];
}

function readUpstreams(dir: string, upstreams: number): Received {
  const received: Received = { by: new Map(), cancelled: new Set(), starts: 0, crashed: new Set(), pids: [] };
  for (let k = 0; k < upstreams; k += 1) {
    let text = '';
    try {
      text = readFileSync(join(dir, `u${k}.log`), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const [what, a, b] = line.split(' ');
      if (what === 'start') {
        received.starts += 1;
        received.pids.push(Number(a));
      } else if (what === 'recv') received.by.set(Number(a), [...(received.by.get(Number(a)) ?? []), Number(b)]);
      else if (what === 'cancel') received.cancelled.add(Number(a));
      else if (what === 'crash') received.crashed.add(Number(b));
    }
  }
  return received;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

const r1 = (x: number): number => Math.round(x * 10) / 10;

/** The accounting of one side: what the client got against what the upstreams received. */
function account(side: Side, calls: number, upstreams: number) {
  const received = readUpstreams(side.dir, upstreams);
  const count = (answer: Answer): number => [...side.calls.values()].filter((c) => c.answer === answer).length;
  let duplicated = 0;
  let answeredUnreceived = 0;
  let cutByCrash = 0;
  let receivedUnanswered = 0;
  let hangsReceived = 0;
  let hangsCancelled = 0;
  let timeoutsNotHang = 0;
  const notSent = new Map<string, number>();
  for (let seq = 0; seq < calls; seq += 1) {
    const call = side.calls.get(seq);
    const by = received.by.get(seq) ?? [];
    if (by.length > 1) duplicated += 1;
    if (call === undefined) continue;
    if (call.answer === 'client_timeout' && !isHang(seq)) timeoutsNotHang += 1;
    if (by.length === 0) {
      if (call.answer === 'ok' || call.answer === 'failed') answeredUnreceived += 1;
      // What the gateway (or proxy) answered without sending, by its first words.
      const kind = call.text.split('\n')[0]!.replace(/\d+/g, 'N').slice(0, 60);
      notSent.set(kind, (notSent.get(kind) ?? 0) + 1);
      continue;
    }
    const crashed = by.some((pid) => received.crashed.has(pid));
    if (isHang(seq)) {
      hangsReceived += 1;
      if (received.cancelled.has(seq)) hangsCancelled += 1;
      else if (crashed) cutByCrash += 1;
      else receivedUnanswered += 1;
      continue;
    }
    const expected: Answer = isFail(seq) ? 'failed' : 'ok';
    if (call.answer === expected) continue;
    if (crashed) cutByCrash += 1;
    else receivedUnanswered += 1;
  }
  const ms = [...side.calls.values()].map((c) => c.ms);
  const upstreamAnswered = [...side.calls.values()].filter((c) => c.answer === 'ok' || c.answer === 'failed').map((c) => c.ms);
  return {
    answered: side.calls.size,
    ok: count('ok'), failed: count('failed'), gatewayErrors: count('gateway_error'), clientTimeouts: count('client_timeout'),
    rpcErrors: count('rpc_error'), wrong: count('wrong'),
    received: [...received.by.keys()].filter((seq) => seq < calls).length, duplicated, answeredUnreceived, cutByCrash, receivedUnanswered, hangsReceived, hangsCancelled, timeoutsNotHang,
    crashes: received.crashed.size, starts: received.starts, pids: received.pids,
    notSent: [...notSent].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, n]) => `${n}x ${k}`).join('; '),
    p50Ms: r1(percentile(ms, 0.5)), p99Ms: r1(percentile(ms, 0.99)),
    answeredP50Ms: r1(percentile(upstreamAnswered, 0.5)), answeredP99Ms: r1(percentile(upstreamAnswered, 0.99)),
  };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await gone;
  clearTimeout(timer);
}

export async function benchGatewaySoak(options: GatewaySoakOptions = {}): Promise<Record<string, number | string>> {
  const { calls = 10_000, concurrency = 8, upstreams = 4, crashEvery = 500, hangTimeoutMs = 1_500, block = 1_000 } = options;
  const root = mkdtempSync(join(tmpdir(), 'ladder-soak-'));
  const sides: Side[] = [];
  const capMs = SOAK_CAP_MS * Math.max(1, calls / 10_000);
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench gateway-soak: still running after ${capMs / 60_000} min; stopping\n`);
    for (const side of sides) side.child.kill('SIGKILL');
    process.exit(1);
  }, capMs);
  try {
    for (const label of ['gateway', 'bare'] as const) {
      const dir = join(root, label);
      mkdirSync(dir);
      const servers = serversFile(dir, upstreams, crashEvery);
      const args = label === 'gateway'
        ? [join(ROOT, 'bin', 'ladder.js'), 'gateway', '--servers', servers, '--transport', 'http', '--port', '0', '--arm', 'circuit=off', '--trace', join(dir, 'trace'), '--session-idle', String(SESSION_IDLE_S)]
        : [BARE_PROXY, servers];
      const diagnostics = join(dir, 'diagnostics');
      mkdirSync(diagnostics);
      const { child, url, warnings } = await startChild(args, label, diagnostics);
      const client = new Client({ name: 'soak', version: '1.0.0' });
      await client.connect(httpClientTransport(url));
      const listed = await client.listTools();
      if (listed.tools.filter((t) => t.name.endsWith('__work')).length !== upstreams) throw new Error(`${label}: listed ${listed.tools.map((t) => t.name).join(', ')}`);
      const pid = label === 'gateway' ? (await status(url)).pid : child.pid;
      sides.push({ label, child, url, dir, client, calls: new Map(), rss: [], memory: [], pid, warnings, snapshots: [], diagnostics, counting: false });
    }
    const [gateway, bare] = sides as [Side, Side];
    // The warm-up's seqs follow the counted ones, so it hangs, fails and crashes alike and the
    // accounting (seqs below `calls`) never sees it; its crashes and restarts are counted.
    for (const side of sides) {
      await drive(side, calls, calls + WARMUP_CALLS, concurrency, upstreams, hangTimeoutMs);
      side.counting = true;
    }
    // Heap snapshots with nothing in flight: now, half-way and at the end. Their time is not the drive's.
    // Nor is a restart under way: the last call of a block may be the one that crashes its upstream
    // (10,000 is a multiple of crashEvery), and a snapshot taken while the gateway starts the new
    // process counts that process's pipes and the dead one's not yet closed (12 descriptors more,
    // seen at loads 3 to 12). So each snapshot waits until every upstream is up again, then for the
    // bare proxy's at-once restart and the closing of what the dead process held.
    let snapshotMs = 0;
    const settled = async (): Promise<void> => {
      for (let i = 0; i < 100 && (await status(gateway.url)).upstreams.some((u) => u.state !== 'up'); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    };
    const snapshot = async (done: number): Promise<void> => {
      const at = performance.now();
      await settled();
      for (const side of sides) side.snapshots.push(await heapSnapshot(side.pid!, side.diagnostics, done));
      snapshotMs += performance.now() - at;
    };
    await snapshot(0);
    const started = performance.now();
    for (let from = 0; from < calls; from += block) {
      for (const side of from / block % 2 === 0 ? [gateway, bare] : [bare, gateway]) {
        await drive(side, from, Math.min(calls, from + block), concurrency, upstreams, hangTimeoutMs);
      }
      const done = Math.min(calls, from + block);
      if (done === calls || (done >= calls / 2 && done - block < calls / 2)) await snapshot(done);
    }
    const driveSeconds = (performance.now() - started - snapshotMs) / 1000;
    // A crash near the end may still be restarting: the restarts are read once every upstream is up.
    let final = await status(gateway.url);
    for (let i = 0; i < 100 && final.upstreams.some((u) => u.state !== 'up'); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      final = await status(gateway.url);
    }
    // Clients that leave without DELETE: their sessions are held until the idle time ends them.
    for (let k = 0; k < LEAVERS; k += 1) {
      const leaver = new Client({ name: `leaver-${k}`, version: '1.0.0' });
      await leaver.connect(httpClientTransport(gateway.url));
      await leaver.callTool({ name: `u${k % upstreams}__work`, arguments: { seq: calls + WARMUP_CALLS + k } }, undefined, { timeout: hangTimeoutMs }).catch(() => undefined);
      await leaver.close();
    }
    const sessionsAfterLeavers = (await status(gateway.url)).sessions ?? NaN;
    let sessionsHeld = sessionsAfterLeavers;
    const leftBy = performance.now() + (SESSION_IDLE_S + 5) * 1000;
    while (sessionsHeld > 1 && performance.now() < leftBy) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      sessionsHeld = (await status(gateway.url)).sessions ?? NaN;
    }
    // A cancellation is written a moment after the client gave up.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await Promise.allSettled(sides.map((side) => side.client.close()));
    await Promise.all(sides.map((side) => stop(side.child)));
    // Upstreams are stopped by their parents with a grace; give them that long before looking.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const g = account(gateway, calls, upstreams);
    const b = account(bare, calls, upstreams);
    const ps = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(root));
    const orphans = [...g.pids, ...b.pids, gateway.pid!, bare.pid!].filter(alive).length + ps.length;
    const window = (side: Side, lo: number, hi: number): number => {
      const kb = side.rss.filter((s) => s.done > lo && s.done <= hi).map((s) => s.kb);
      return kb.reduce((x, y) => x + y, 0) / kb.length / 1024;
    };
    const firstMb = window(gateway, 0, block);
    const lastMb = window(gateway, calls - block, calls);
    const bareGrowthMb = window(bare, calls - block, calls) - window(bare, 0, block);
    // Resident memory is a figure, not a verdict (bench/soakMemory.ts): its slope over the last
    // two thirds of the counted calls, per 1,000 calls, says whether it levels off.
    const rssSlope = (side: Side): number => slope(side.rss.filter((x) => x.done > calls / 3).map((x) => [x.done / 1000, x.kb / 1024]));
    const memory = memoryVerdict(gateway.snapshots, bare.snapshots, calls);
    const restarts = final.upstreams.reduce((n, u) => n + u.restarts, 0);
    const problems = [
      g.answered !== calls ? `answered ${g.answered} of ${calls}` : '',
      g.duplicated > 0 ? `${g.duplicated} received twice` : '',
      g.answeredUnreceived > 0 ? `${g.answeredUnreceived} answered as sent but never received` : '',
      g.receivedUnanswered > 0 ? `${g.receivedUnanswered} received and not answered, with no crash to cut them` : '',
      g.wrong > 0 ? `${g.wrong} wrong answers` : '',
      g.timeoutsNotHang > 0 ? `${g.timeoutsNotHang} calls that do not hang ended by the client's timeout` : '',
      g.hangsCancelled + g.cutByCrash < g.hangsReceived ? 'a hang whose cancellation never reached its upstream' : '',
      ...memory.problems,
      orphans > 0 ? `${orphans} processes left: ${ps.join(' | ')}` : '',
      gateway.warnings.count > 0 ? `the gateway printed ${gateway.warnings.count} warnings, the first: ${gateway.warnings.first}` : '',
      restarts !== g.crashes ? `${restarts} restarts in /status for ${g.crashes} crashes` : '',
      sessionsHeld !== 1 ? `${sessionsHeld} sessions held ${SESSION_IDLE_S + 5} s after ${LEAVERS} clients left without DELETE (1 expected: the soak's own)` : '',
    ].filter((p) => p !== '');
    const figures: Record<string, number | string> = {
      gatewaySoakVerdict: problems.length === 0 ? 'pass' : `fail: ${problems.join('; ')}`,
      gatewaySoakCalls: calls, gatewaySoakConcurrency: concurrency, gatewaySoakUpstreams: upstreams, gatewaySoakCrashEvery: crashEvery,
      gatewaySoakHangTimeoutMs: hangTimeoutMs, gatewaySoakSeconds: r1(driveSeconds),
      gatewaySoakAnswered: g.answered, gatewaySoakOk: g.ok, gatewaySoakFailedOnPurpose: g.failed, gatewaySoakGatewayErrors: g.gatewayErrors,
      gatewaySoakClientTimeouts: g.clientTimeouts, gatewaySoakRpcErrors: g.rpcErrors, gatewaySoakWrongAnswers: g.wrong,
      gatewaySoakReceivedUpstream: g.received, gatewaySoakDuplicated: g.duplicated, gatewaySoakAnsweredUnreceived: g.answeredUnreceived,
      gatewaySoakCutByCrash: g.cutByCrash, gatewaySoakReceivedUnanswered: g.receivedUnanswered,
      gatewaySoakHangsReceived: g.hangsReceived, gatewaySoakHangsCancelledUpstream: g.hangsCancelled, gatewaySoakTimeoutsNotHang: g.timeoutsNotHang,
      gatewaySoakNotSent: g.notSent,
      gatewaySoakCrashes: g.crashes, gatewaySoakRestarts: restarts, gatewaySoakUpstreamStarts: g.starts,
      gatewaySoakRssFirstMb: r1(firstMb), gatewaySoakRssLastMb: r1(lastMb), gatewaySoakRssGrowthMb: r1(lastMb - firstMb),
      gatewaySoakRssPeakMb: r1(Math.max(...gateway.rss.map((s) => s.kb)) / 1024),
      gatewaySoakBareRssGrowthMb: r1(bareGrowthMb), gatewaySoakWarmupCalls: WARMUP_CALLS,
      gatewaySoakRssMbPer1000: Math.round(rssSlope(gateway) * 100) / 100, gatewaySoakBareRssMbPer1000: Math.round(rssSlope(bare) * 100) / 100,
      ...memory.figures,
      gatewaySoakLeavers: LEAVERS, gatewaySoakSessionIdleS: SESSION_IDLE_S,
      gatewaySoakSessionsAfterLeavers: sessionsAfterLeavers, gatewaySoakSessionsHeld: sessionsHeld,
      gatewaySoakOrphans: orphans, gatewaySoakGatewayWarnings: gateway.warnings.count,
      gatewaySoakP50Ms: g.p50Ms, gatewaySoakP99Ms: g.p99Ms, gatewaySoakAnsweredP50Ms: g.answeredP50Ms, gatewaySoakAnsweredP99Ms: g.answeredP99Ms,
      gatewaySoakBareP50Ms: b.p50Ms, gatewaySoakBareP99Ms: b.p99Ms, gatewaySoakBareAnsweredP50Ms: b.answeredP50Ms, gatewaySoakBareAnsweredP99Ms: b.answeredP99Ms,
      gatewaySoakBareOk: b.ok, gatewaySoakBareErrors: b.gatewayErrors + b.rpcErrors, gatewaySoakBareClientTimeouts: b.clientTimeouts,
      gatewaySoakBareCrashes: b.crashes, gatewaySoakBareDuplicated: b.duplicated, gatewaySoakBareNotSent: b.notSent,
    };
    // Every sample, for a look at how memory moves over the calls (docs/gateway.md).
    mkdirSync(join(ROOT, 'reports'), { recursive: true });
    writeFileSync(join(ROOT, 'reports', 'gateway-soak-samples.json'), `${JSON.stringify(Object.fromEntries(sides.map((side) => [side.label, { proc: side.rss, memory: side.memory, snapshots: side.snapshots.map(({ done, bytes, fds }) => ({ done, bytes, fds })) }])))}\n`);
    return figures;
  } finally {
    clearTimeout(watchdog);
    await Promise.all(sides.map((side) => stop(side.child)));
    rmSync(root, { recursive: true, force: true });
  }
}
