// `npm run bench -- startedServers`: the git server as rungs/git-over-http.yaml starts it, 200
// times, 8 at a time, each start as a pass makes it (startServers, then the lane's connect,
// then both ended), on a machine loaded on purpose: one busy Node process per core for the
// whole benchmark, on top of whatever else runs. A harness error is a start that did not get
// ready or a lane that could not connect once it was. In the same starts, the readiness used
// before: the bench polls each port as the old code did (a TCP connect every 50 ms) and, at the
// first accept, makes one MCP connect as the lane then did; those that failed are the harness
// errors the old readiness would have had. Afterwards, no process may still run in one of the
// starts' workspaces (read from /proc: the git server's workspace is in its env and cwd, not
// its arguments).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Lane } from '../src/lane/index.ts';
import { loadRung } from '../src/rungs/load.ts';
import { passServers } from '../src/runner/servers.ts';
import { accepts, answersInitialize, freePort, startServers, substitutePort } from '../src/runner/started.ts';
import { CONNECT_TIMEOUT_MS } from '../src/runner/timing.ts';
import type { Rung } from '../src/rungs/schema.ts';
import { ROOT } from './processes.ts';

const STARTS = 200;
const CONCURRENCY = 8;
/** The old readiness poll's interval (READY_POLL_MS before the MCP probe). */
const TCP_POLL_MS = 50;
/** How long after the last stop a process may still be in /proc on its way out. */
const LEFT_WAIT_MS = 5_000;

interface Sample {
  readyMs: number;
  /** The first TCP accept on the server's port, from the same start; undefined if never seen. */
  tcpMs: number | undefined;
  /** Whether an MCP connect made at that first accept answered (the old readiness's pass). */
  tcpConnectOk: boolean | undefined;
  /** When that connect answered: what the old readiness left the lane to wait for. */
  tcpAnsweredMs: number | undefined;
  ports: number;
  error: string | undefined;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function oneStart(rung: Rung, root: string): Promise<Sample> {
  const workspace = await mkdtemp(join(root, 'ws-'));
  const url = (port: number) => substitutePort((rung.servers['git'] as { url: string }).url, port);
  const started = performance.now();
  let tcpMs: number | undefined;
  let tcpConnectOk: boolean | undefined;
  let tcpAnsweredMs: number | undefined;
  let done = false;
  const watchers: Promise<void>[] = [];
  const watchTcp = async (port: number): Promise<void> => {
    while (!done && tcpMs === undefined) {
      if (await accepts(port)) {
        tcpMs = performance.now() - started;
        tcpConnectOk = (await answersInitialize(url(port), {}, CONNECT_TIMEOUT_MS)) === undefined;
        if (tcpConnectOk) tcpAnsweredMs = performance.now() - started;
        return;
      }
      await delay(TCP_POLL_MS);
    }
  };
  let ports = 0;
  const choosePort = async (): Promise<number> => {
    const port = await freePort();
    ports += 1;
    watchers.push(watchTcp(port));
    return port;
  };
  let error: string | undefined;
  let readyMs = Number.NaN;
  {
    await using servers = await startServers(rung, workspace, CONNECT_TIMEOUT_MS, { choosePort });
    readyMs = performance.now() - started;
    error = servers.errors[0];
    if (error === undefined) {
      const lane = await Lane.connect({
        servers: passServers({ rung, workspace, seed: 0, timeFactor: 1, waitCap: true, ports: servers.ports }), connectTimeoutMs: CONNECT_TIMEOUT_MS,
      });
      error = lane.startErrors[0]?.message;
      await lane.close();
    }
    done = true;
    await Promise.all(watchers);
  }
  await rm(workspace, { recursive: true, force: true });
  return { readyMs, tcpMs, tcpConnectOk, tcpAnsweredMs, ports, error };
}

/** Pids whose working folder is under `root` (Linux); undefined where /proc does not tell. */
async function runningUnder(root: string): Promise<number[] | undefined> {
  const names = await readdir('/proc').catch(() => undefined);
  if (names === undefined) return undefined;
  const cwds = await Promise.all(names.filter((n) => /^\d+$/.test(n)).map(async (n) => [Number(n), await readlink(`/proc/${n}/cwd`).catch(() => '')] as const));
  return cwds.filter(([, cwd]) => cwd.startsWith(root)).map(([pid]) => pid);
}

/** One busy process per core, ended by the caller. */
function loadMachine(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

export async function benchStartedServers(options: { starts?: number; concurrency?: number } = {}): Promise<Record<string, number | string>> {
  const starts = options.starts ?? STARTS;
  const concurrency = options.concurrency ?? CONCURRENCY;
  const { rung: full } = await loadRung(join(ROOT, 'rungs', 'git-over-http.yaml'));
  const rung: Rung = { ...full, servers: { git: full.servers['git']! } };
  const root = await mkdtemp(join(tmpdir(), 'ladder-bench-started-'));
  const load = loadMachine();
  const samples: Sample[] = [];
  let load1m = 0;
  try {
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < starts) {
        next += 1;
        samples.push(await oneStart(rung, root));
      }
    }));
    load1m = loadavg()[0]!;
  } finally {
    for (const child of load) child.kill('SIGKILL');
  }
  // A group SIGKILLed as its server exits can be on its way out for a moment: read for 5 s.
  let left = await runningUnder(root);
  for (const until = performance.now() + LEFT_WAIT_MS; left !== undefined && left.length > 0 && performance.now() < until;) {
    await delay(100);
    left = await runningUnder(root);
  }
  const leftCommand = left?.[0] === undefined ? undefined : await readFile(`/proc/${left[0]}/cmdline`, 'utf8').catch(() => '');
  await rm(root, { recursive: true, force: true });
  const errors = samples.filter((s) => s.error !== undefined);
  const ready = samples.filter((s) => s.error === undefined).map((s) => s.readyMs);
  const tcp = samples.flatMap((s) => (s.tcpMs === undefined ? [] : [s.tcpMs]));
  const tcpAnswered = samples.flatMap((s) => (s.tcpAnsweredMs === undefined ? [] : [s.tcpAnsweredMs]));
  const round = (x: number) => Math.round(x);
  return {
    startedServersStarts: samples.length,
    startedServersConcurrency: concurrency,
    startedServersLoadProcesses: load.length,
    startedServersLoadAverage1m: Math.round(load1m * 10) / 10,
    startedServersHarnessErrors: errors.length,
    ...(errors[0] === undefined ? {} : { startedServersFirstError: errors[0].error! }),
    startedServersPortRetries: samples.reduce((sum, s) => sum + s.ports - 1, 0),
    startedServersMostPortsInOneStart: Math.max(...samples.map((s) => s.ports)),
    startedServersReadyP50Ms: round(percentile(ready, 50)),
    startedServersReadyP95Ms: round(percentile(ready, 95)),
    startedServersTcpAcceptP50Ms: round(percentile(tcp, 50)),
    startedServersTcpAcceptP95Ms: round(percentile(tcp, 95)),
    startedServersTcpAcceptAnsweredP50Ms: round(percentile(tcpAnswered, 50)),
    startedServersTcpAcceptAnsweredP95Ms: round(percentile(tcpAnswered, 95)),
    startedServersTcpAcceptConnectFailures: samples.filter((s) => s.tcpConnectOk === false).length,
    startedServersLeftRunning: left === undefined ? 'not measured (no /proc)' : left.length,
    ...(leftCommand === undefined ? {} : { startedServersLeftRunningCommand: leftCommand.replaceAll('\0', ' ').trim() }),
  };
}
