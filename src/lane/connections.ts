// One MCP client per configured server. A server that cannot start is reported with what a
// user needs to fix it (its name, its command, the end of its stderr) and left out, so one
// broken server never takes the others down.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closeClient, connectClient, connectHttpClient, deliverNotificationsFirst, negotiated, newClient, stdioClientTransport } from '../mcp/client.ts';
import type { ElicitationAnswer, ElicitationAsked } from '../mcp/client.ts';
import { describeError, isSessionLost } from '../mcp/errors.ts';
import { DEFAULT_PROTOCOL } from '../mcp/protocols.ts';
import type { Client, Notification, Protocol, Transport } from '../mcp/types.ts';
import { describeServer, isHttp, isStdio } from './config.ts';
import type { ServerConfig } from './config.ts';
import { LADDER_VERSION, PACKAGE_ROOT } from './install.ts';
import { protocolRefusal, refusalLine } from './refusal.ts';
import type { ProtocolRefusal } from './refusal.ts';

export const CLIENT_INFO = { name: 'ladder', version: LADDER_VERSION };

/** Preloaded into every Node server started here: it exits when this process is gone (see the file). */
const EXIT_WITH_PARENT = pathToFileURL(join(PACKAGE_ROOT, 'src', 'lane', 'exitWithParent.js')).href;

/**
 * How long a failed start waits for its process to exit after SIGTERM: the SDK's own close
 * sends SIGKILL 4 s after it begins. A bound all the same, because the exit is seen when the
 * process's pipes close, and a grandchild holding them would otherwise hold up the pass.
 */
const STOP_WAIT_MS = 5_000;
/** Enough stderr for the last few lines of a stack trace or a usage message. */
const STDERR_TAIL_BYTES = 2048;
/** Lines of stderr quoted in a start error; the rest is in the tail a caller can read. */
const STDERR_TAIL_LINES = 6;

/**
 * The error's message, with the code of what caused it when there is one (fetch hides the real
 * reason there, and the SDK's negotiation wraps fetch's error once more): `fetch failed (ECONNREFUSED)`.
 */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const message = describeError(error);
  let detail: string | undefined;
  for (let at = error.cause as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; at !== undefined && at !== null && depth < 8; at = at.cause as typeof at, depth += 1) {
    if (typeof at.code === 'string') detail = at.code;
    else if (detail === undefined && typeof at.message === 'string' && !message.includes(at.message)) detail = at.message;
  }
  return detail !== undefined && !message.includes(detail) ? `${message} (${detail})` : message;
}

export class ServerStartError extends Error {
  override name = 'ServerStartError';
  /**
   * Set when the server answered and refused Ladder's protocol (refusal.ts): the same answer on
   * every try, so whoever would start it again (a run's next pass, a restart) should not.
   */
  readonly refusal: ProtocolRefusal | undefined;

  constructor(
    readonly server: string,
    readonly command: string,
    readonly stderrTail: string,
    cause: unknown,
    /** Text that must not appear in the message (a URL with credentials in it). */
    secret?: string,
    /** What Ladder was told to speak with it: a refusal names the setting that would work. */
    protocol: Protocol = DEFAULT_PROTOCOL,
  ) {
    // One super() call: TypeScript assigns the parameter properties (server, command, ...) after
    // the first super() only, so a second one in another branch would leave them unset.
    const refusal = protocolRefusal(cause);
    super(refusal === undefined ? startFailedLine(server, command, stderrTail, cause, secret) : refusalLine(server, command, refusal, protocol), { cause });
    this.refusal = refusal;
  }
}

function startFailedLine(server: string, command: string, stderrTail: string, cause: unknown, secret: string | undefined): string {
  let reason = reasonOf(cause);
  if (secret !== undefined && secret !== command) reason = reason.split(secret).join(command);
  const lines = stderrTail.trim().split('\n').filter((line) => line.trim() !== '');
  const tail = lines.slice(-STDERR_TAIL_LINES).map((line) => line.trim()).join(' | ');
  const isUrl = /^https?:\/\//.test(command);
  const stderr = isUrl ? '' : tail === '' ? '; it wrote nothing to stderr' : `; stderr ends: ${tail}`;
  return `server "${server}" ${isUrl ? 'did not answer' : 'did not start'} (${command}): ${reason}${stderr}`;
}

export interface Connection {
  readonly name: string;
  readonly client: Client;
  /** The revision the server and Ladder agreed on: `2026-07-28`, `2025-11-25`, ... */
  readonly protocol: string;
  /** The last bytes the server wrote to stderr (stdio servers only). */
  stderrTail(): string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Bound on starting and initialising one server. */
  timeoutMs: number;
  /** Aborts the start: the server is stopped and the connection fails (Ctrl-C during a pass's start). */
  signal?: AbortSignal | undefined;
  onToolListChanged: () => void;
  /** Called when an established connection closes without close() (the process exited, the session dropped). */
  onClosed?: () => void;
  /** Every other notification the server sends (resources/updated, resources and prompts list_changed, ...). */
  onNotification?: (notification: Notification) => void;
  /** Overrides the server entry's own setting (an arm's `protocol=`, `--protocol`). */
  protocol?: Protocol | undefined;
  /** Answers the server's requests for input (either era); absent, the client declares no elicitation. */
  onElicit?: ((asked: ElicitationAsked) => Promise<ElicitationAnswer>) | undefined;
}

/**
 * The arguments a stdio server is spawned with. A Node server (`process.execPath`, which is what
 * `node` and `npx` commands become) gets the parent watch preloaded, so it cannot outlive this
 * process, even when it hangs before reading stdin. Other commands are left as they are.
 */
export function spawnArgs(command: string, args: readonly string[]): string[] {
  if (command !== process.execPath) return [...args];
  return ['--import', `${EXIT_WITH_PARENT}?parent=${process.pid}`, ...args];
}

/** How often a stopped server is looked for while its exit is awaited. */
const EXIT_POLL_MS = 20;

/**
 * Resolves once process `pid` is gone, or after `withinMs`. Polled, not heard: when a connect
 * fails during the 2026-07-28 probe the client has no close to report, and the transport may
 * have let go of the process already. Node reaps the child it spawned, so a gone pid is an exit.
 */
function exitOf(pid: number, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  return new Promise((resolve) => {
    const look = setInterval(() => {
      let alive = true;
      try {
        process.kill(pid, 0);
      } catch {
        alive = false;
      }
      if (!alive || Date.now() >= until) {
        clearInterval(look);
        resolve();
      }
    }, EXIT_POLL_MS);
  });
}

interface Started {
  /** Connects the client (bounded, see connectClient); resolves to the transport it is connected over. */
  connect: (client: Client, timeoutMs: number, signal: AbortSignal | undefined, protocol: Protocol) => Promise<Transport>;
  tail: () => string;
  /**
   * Stops a server that never became usable: SIGTERM now, not after the SDK's 2 s grace.
   * The pid of the process it signalled (stdio), whose exit is then worth waiting for.
   */
  stop: () => number | undefined;
}

function transportFor(config: ServerConfig): Started {
  if (isStdio(config)) {
    const { transport, stderr, spawned } = stdioClientTransport({
      command: config.command,
      args: spawnArgs(config.command, config.args ?? []),
      ...(config.env === undefined ? {} : { env: config.env }),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    });
    let tail = '';
    // Read from the start, and for the server's whole life: an unread pipe fills up and
    // blocks a chatty server on its next write to stderr.
    stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    const stop = () => {
      const pid = spawned();
      if (pid === undefined) return undefined;
      try {
        // Milliseconds after the failure: the pid cannot have been reused by another process.
        process.kill(pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      return pid;
    };
    return { connect: over(transport), tail: () => tail, stop };
  }
  const nothing = () => undefined;
  if (isHttp(config)) {
    const headers = config.headers ?? {};
    return {
      connect: (client, timeoutMs, signal, protocol) => connectHttpClient(client, config.url, headers, timeoutMs, signal, protocol),
      tail: () => '', stop: nothing,
    };
  }
  return { connect: over(config.transport), tail: () => '', stop: nothing };
}

/** Connects over the one transport given. */
function over(transport: Transport): Started['connect'] {
  return async (client, timeoutMs, signal) => {
    await connectClient(client, transport, timeoutMs, signal);
    return transport;
  };
}

/** Starts (stdio) or reaches (HTTP) one server and initialises it; throws ServerStartError. */
export async function connectServer(name: string, config: ServerConfig, options: ConnectOptions): Promise<Connection> {
  const where = describeServer(config);
  const secret = isHttp(config) ? config.url : undefined;
  const protocol = options.protocol ?? config.protocol ?? DEFAULT_PROTOCOL;
  if (options.signal?.aborted === true) throw new ServerStartError(name, where, '', options.signal.reason, secret, protocol);
  const { connect, tail, stop } = transportFor(config);
  const client = newClient(CLIENT_INFO, {
    toolsChanged: () => options.onToolListChanged(),
    notification: (notification) => options.onNotification?.(notification),
    ...(options.onElicit === undefined ? {} : { elicit: options.onElicit }),
  }, protocol);
  let established = false;
  let closing = false;
  let lost = false;
  client.onclose = () => {
    if (established && !closing && !lost) options.onClosed?.();
  };
  // An HTTP server that drops does not close the SDK's client: every request fails instead.
  // Its session is lost when the server is unreachable, or answers 404 to the session's id,
  // when the MCP spec (Streamable HTTP, "Session Management") says the client MUST start a new
  // session: both are told as a close, once, so the gateway connects again.
  if (isHttp(config)) {
    client.onerror = (error) => {
      if (!established || closing || lost || !isSessionLost(error)) return;
      lost = true;
      options.onClosed?.();
    };
  }
  let transport: Transport;
  try {
    transport = await connect(client, options.timeoutMs, options.signal, protocol);
  } catch (error) {
    // A server that timed out or was aborted may be hung before it reads stdin, where the
    // SDK's close (end stdin, wait 2 s, SIGTERM, wait 2 s, SIGKILL) would wait for nothing.
    // Stopped now, and awaited: a failed start returns once the process has exited.
    const spawned = stop();
    await client.close().catch(() => undefined);
    if (spawned !== undefined) await exitOf(spawned, STOP_WAIT_MS);
    // The process's last stderr chunk can land a tick after its pipe reports the exit.
    await new Promise((resolve) => setImmediate(resolve));
    throw new ServerStartError(name, where, tail(), error, secret, protocol);
  }
  established = true;
  deliverNotificationsFirst(transport);
  return {
    name,
    client,
    protocol: negotiated(client) ?? 'unknown',
    stderrTail: tail,
    close: () => {
      closing = true;
      return closeClient(client, transport);
    },
  };
}
