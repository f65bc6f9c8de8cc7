// Remote servers a pass starts itself: a rung's `{url, start}` server is a process the runner
// spawns for each pass on a free port of 127.0.0.1 and reaches over Streamable HTTP, as a
// client would reach a remote one. `{port}` in the URL and in the start command's args and env
// is that port. The server is ready when its port accepts a connection; it is stopped when
// the pass ends, whatever happened. So a remote server gets what a stdio one gets: a fresh
// process per pass, its workspace, and nothing shared between passes or arms.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { nodeCommand, nodePackage } from '../lane/index.ts';
import type { Rung, ServerSpec } from '../rungs/schema.ts';
import { WORKSPACE_TOKEN } from '../trace/index.ts';

export const PORT_TOKEN = '{port}';
/** How often readiness is checked while a started server boots. */
const READY_POLL_MS = 50;
/** What a server is given to exit on SIGTERM before it is killed. */
const STOP_GRACE_MS = 2_000;
/** The end of a started server's stderr kept for the line that says why it did not start. */
const STDERR_TAIL = 400;

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

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface StartedServers extends AsyncDisposable {
  /** The port each started server listens on, by server name. */
  readonly ports: ReadonlyMap<string, number>;
  /** One line per server that did not become ready. */
  readonly errors: readonly string[];
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
 * Starts every `{url, start}` server of the rung, in parallel, and waits until each accepts
 * connections (at most `timeoutMs`). One that exits or does not get ready is an error line; the
 * rest keep running until the result is disposed.
 */
export async function startServers(rung: Rung, workspace: string, timeoutMs: number): Promise<StartedServers> {
  const children: ChildProcess[] = [];
  const ports = new Map<string, number>();
  // Each server's failure at its place in the rung, so two failures read the same every run.
  const failures: (string | undefined)[] = [];
  await Promise.all(Object.entries(rung.servers).filter(([, spec]) => startsOwnServer(spec)).map(async ([name, spec], i) => {
    const port = await freePort();
    const { command, args, env, cwd } = startCommand(spec as StartedSpec, workspace, port);
    const child = spawn(command, args, { cwd, env: { ...getDefaultEnvironment(), ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let tail = '';
    child.stderr?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL)));
    let exited: string | undefined;
    child.once('exit', (code, signal) => (exited = `exited (${signal ?? `code ${code}`})`));
    child.once('error', (error) => (exited = error.message));
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (exited !== undefined) break;
      if (await accepts(port)) {
        ports.set(name, port);
        return;
      }
      if (performance.now() > deadline) break;
      await delay(READY_POLL_MS);
    }
    const why = exited ?? `not listening on port ${port} after ${Math.round(timeoutMs / 1000)} s`;
    const last = tail.trim().split('\n').at(-1)?.slice(0, 200);
    failures[i] = `server "${name}" did not start (${[command, ...args].join(' ')}): ${why}${last ? `; stderr ends: ${last}` : ''}`;
  }));
  const errors = failures.filter((failure) => failure !== undefined);
  return { ports, errors, [Symbol.asyncDispose]: () => stopAll(children) };
}

async function stopAll(children: readonly ChildProcess[]): Promise<void> {
  await Promise.all(children.map(async (child) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const graceful = await Promise.race([gone.then(() => true), delay(STOP_GRACE_MS).then(() => false)]);
    if (!graceful) {
      child.kill('SIGKILL');
      await gone;
    }
  }));
}
