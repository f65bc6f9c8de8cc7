// Remote servers a pass starts itself: a rung's `{url, start}` server is a process the runner
// spawns for each pass on a free port of 127.0.0.1 and reaches over Streamable HTTP, as a
// client would reach a remote one. `{port}` in the URL and in the start command's args and env
// is that port. The server is ready when it answers MCP `initialize` at its URL, not when its
// port accepts a connection: @cyanheads/git-mcp-server opens and closes a test listener on its
// port before it serves there, and a pass that took the first accepted connection for ready
// met ECONNRESET. A port taken between its choice and the server's bind is tried again with a
// new one. Each server runs behind the process-group guard (lane/processGroup.ts), so it ends
// with the pass, and with Ladder whatever ends it (SIGKILL included). So a remote server gets
// what a stdio one gets: a fresh process per pass, its workspace, and nothing shared between
// passes or arms.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createConnection, createServer } from 'node:net';
import { constants } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { closeClient, connectHttpClient, getDefaultEnvironment, newClient } from '../mcp/client.ts';
import { DEFAULT_PROTOCOL } from '../mcp/protocols.ts';
import type { Protocol } from '../mcp/protocols.ts';
import type { Transport } from '../mcp/types.ts';
import { CLIENT_INFO, reasonOf } from '../lane/connections.ts';
import { protocolRefusal, refusalLine } from '../lane/refusal.ts';
import type { ProtocolRefusal } from '../lane/refusal.ts';
import { nodeCommand, nodePackage } from '../lane/index.ts';
import { hasExited, spawnGroup, stopGroup } from '../lane/processGroup.ts';
import type { Rung, ServerSpec } from '../rungs/schema.ts';
import { WORKSPACE_TOKEN } from '../trace/index.ts';
import { portHolder } from './portHolder.ts';

export const PORT_TOKEN = '{port}';
/** How often readiness is checked while a started server boots. */
const READY_POLL_MS = 50;
/** The end of a started server's stderr kept for the line that says why it did not start. */
const STDERR_TAIL = 400;
/**
 * Ports tried per server before its pass is a harness error. A collision needs another process
 * to bind the very port chosen in the seconds before the server does: in 200 starts at
 * concurrency 8 on a loaded machine none happened (npm run bench -- startedServers), so a second
 * try is already rare, and a third port taken in a row means something takes ports on purpose,
 * which more tries would not beat.
 */
export const PORT_TRIES = 3;
/** What servers print when their port is taken: Node's EADDRINUSE, C's and Python's strerror, `ladder serve`. */
const PORT_IN_USE = /EADDRINUSE|address already in use|already in use/i;

type StartedSpec = Extract<ServerSpec, { url: string }> & { start: NonNullable<Extract<ServerSpec, { url: string }>['start']> };

export function startsOwnServer(spec: ServerSpec): spec is StartedSpec {
  return 'url' in spec && spec.start !== undefined;
}

export function substitutePort(text: string, port: number | undefined): string {
  return port === undefined ? text : text.replaceAll(PORT_TOKEN, String(port));
}

/** A port of 127.0.0.1 nobody listens on now (the OS picks it; the server binds it next). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port was assigned');
  return address.port;
}

/** True when something accepts a TCP connection on the port (the readiness this file had before). */
export async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Why a started server is not ready yet, and whether it refused the protocol (then it never will be). */
export interface NotAnswered {
  why: string;
  refusal: ProtocolRefusal | undefined;
}

/**
 * One MCP client's connect to `url` (`server/discover`, or `initialize` then
 * `notifications/initialized`, as `protocol` says); undefined when it answered, else why not. A
 * 2025 probe's session is ended (DELETE) and its client closed, so the server holds nothing of it
 * when the lane connects.
 */
export async function answersInitialize(url: string, headers: Record<string, string>, timeoutMs: number, signal?: AbortSignal,
  protocol: Protocol = DEFAULT_PROTOCOL): Promise<NotAnswered | undefined> {
  const client = newClient(CLIENT_INFO, {}, protocol);
  let transport: Transport | undefined;
  try {
    transport = await connectHttpClient(client, url, headers, Math.max(1, timeoutMs), signal, protocol);
    return undefined;
  } catch (error) {
    return { why: reasonOf(error), refusal: protocolRefusal(error) };
  } finally {
    await (transport === undefined ? client.close() : closeClient(client, transport)).catch(() => undefined);
  }
}

export interface StartedServers extends AsyncDisposable {
  /** The port each started server listens on, by server name. */
  readonly ports: ReadonlyMap<string, number>;
  /** One line per server that did not become ready. */
  readonly errors: readonly string[];
  /** One of them answered and refused Ladder's protocol: every start would end the same. */
  readonly refused: boolean;
}

export interface StartOptions {
  /** Stops waiting for readiness: the servers are stopped and listed as not started. */
  signal?: AbortSignal | undefined;
  /** Picks each try's port (freePort); a test hands out a port it holds itself. */
  choosePort?: () => Promise<number>;
  /** Overrides each server's own protocol setting (the pass's arm says `protocol=`). */
  protocol?: Protocol | undefined;
}

/** The command a `start` block runs, with `{workspace}` and `{port}` in place. */
export function startCommand(spec: StartedSpec, workspace: string, port: number): { command: string; args: string[]; env: Record<string, string>; cwd: string } {
  const fill = (text: string) => substitutePort(text.replaceAll(WORKSPACE_TOKEN, workspace), port);
  const start = spec.start;
  const args = start.args.map(fill);
  const env = Object.fromEntries(Object.entries(start.env).map(([k, v]) => [k, fill(v)]));
  const cwd = fill(start.cwd ?? WORKSPACE_TOKEN);
  const config = 'package' in start
    ? nodePackage(start.package, args, start.bin === undefined ? {} : { bin: start.bin })
    : nodeCommand({ command: start.command, args });
  return { command: config.command, args: config.args ?? [], env, cwd };
}

/**
 * Starts every `{url, start}` server of the rung, in parallel, and waits until each answers
 * `initialize` (all within `timeoutMs`, port retries included). One that exits or does not get
 * ready is an error line; the rest keep running until the result is disposed.
 */
export async function startServers(rung: Rung, workspace: string, timeoutMs: number, options: StartOptions = {}): Promise<StartedServers> {
  const children: ChildProcess[] = [];
  const ports = new Map<string, number>();
  // Each server's failure at its place in the rung, so two failures read the same every run.
  const failures: (string | undefined)[] = [];
  let refused = false;
  const deadline = performance.now() + timeoutMs;
  await Promise.all(Object.entries(rung.servers).filter(([, spec]) => startsOwnServer(spec)).map(async ([name, spec], i) => {
    const taken: number[] = [];
    for (;;) {
      const port = await (options.choosePort ?? freePort)();
      const { command, args, env, cwd } = startCommand(spec as StartedSpec, workspace, port);
      const child = spawnGroup(command, args, { cwd, env: { ...getDefaultEnvironment(), ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
      children.push(child);
      const protocol = options.protocol ?? (spec as StartedSpec).protocol ?? DEFAULT_PROTOCOL;
      const server = { name, spec: spec as StartedSpec, port, child, deadline, timeoutMs, signal: options.signal, protocol };
      const outcome = await untilReady(server);
      if (outcome.ready) {
        ports.set(name, port);
        return;
      }
      await stopGroup(child);
      if (outcome.taken) taken.push(port);
      if (outcome.taken && taken.length < PORT_TRIES && performance.now() < deadline) continue;
      const why = outcome.taken && taken.length > 1 ? `${outcome.why}; ${taken.length} ports tried (${taken.join(', ')})` : outcome.why;
      const where = [command, ...args].join(' ');
      if (outcome.refusal !== undefined) {
        refused = true;
        failures[i] = refusalLine(name, where, outcome.refusal, server.protocol);
        return;
      }
      const last = outcome.tail.trim().split('\n').at(-1)?.slice(0, 200);
      failures[i] = `server "${name}" did not start (${where}): ${why}${last ? `; stderr ends: ${last}` : ''}`;
      return;
    }
  }));
  const errors = failures.filter((failure) => failure !== undefined);
  return { ports, errors, refused, [Symbol.asyncDispose]: () => stopAll(children) };
}

interface Starting {
  name: string;
  spec: StartedSpec;
  port: number;
  /** The guard: its pid roots the server's process tree, its exit is the server's. */
  child: ChildProcess;
  deadline: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  protocol: Protocol;
}

type Readiness = { ready: true } | { ready: false; taken: boolean; why: string; tail: string; refusal?: ProtocolRefusal };

/**
 * Waits until the server answers `initialize` on its port, exits, loses its port, refuses the
 * protocol (a definite answer: asking again until the deadline would only hide it behind the
 * last try's timeout), or runs out of time.
 */
async function untilReady(server: Starting): Promise<Readiness> {
  const { child, port, signal } = server;
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL)));
  let exited: string | undefined;
  // Its stderr's last chunk can come after the exit; the guard has ended the group by then.
  const closed = once(child, 'close').catch(() => undefined);
  child.once('exit', (code, signalName) => (exited = `exited (${exitText(code, signalName)})`));
  child.once('error', (error) => (exited = error.message));
  const url = substitutePort(server.spec.url, port);
  const headers = server.spec.headers ?? {};
  let last: NotAnswered | undefined;
  for (;;) {
    if (exited !== undefined) {
      await Promise.race([closed, delay(500)]);
      // Gone with its port in someone else's hands: a collision, not the server's fault.
      const taken = PORT_IN_USE.test(tail) || (await accepts(port));
      return { ready: false, taken, why: taken ? `port ${port} was taken before it bound it (${exited})` : exited, tail };
    }
    if (signal?.aborted === true) return { ready: false, taken: false, why: 'interrupted while it started', tail };
    const holder = portHolder(port, child.pid ?? -1);
    if (holder === 'other') {
      return { ready: false, taken: true, why: `port ${port} was taken by another process before it bound it`, tail };
    }
    if (holder !== 'none') {
      last = await answersInitialize(url, headers, server.deadline - performance.now(), signal, server.protocol);
      // Without /proc, a server that exits just after someone else's answered was not ready.
      if (last === undefined && !hasExited(child)) return { ready: true };
      if (last?.refusal !== undefined) return { ready: false, taken: false, why: last.why, tail, refusal: last.refusal };
    }
    if (performance.now() > server.deadline) {
      const seconds = Math.round(server.timeoutMs / 1000);
      const why = holder === 'none' ? `not listening on port ${port} after ${seconds} s` : `did not answer initialize on port ${port} within ${seconds} s${last === undefined ? '' : ` (${last.why})`}`;
      return { ready: false, taken: false, why, tail };
    }
    await delay(READY_POLL_MS);
  }
}

/** The guard exits with its command's code, or 128 + the number of the signal that ended it. */
function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal !== null) return signal;
  const byNumber = Object.entries(constants.signals).find(([, n]) => code !== null && code > 128 && n === code - 128);
  return byNumber === undefined ? `code ${code}` : byNumber[0];
}

async function stopAll(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child) => stopGroup(child)));
}
