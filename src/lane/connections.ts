// One MCP client per configured server. A server that cannot start is reported with what a
// user needs to fix it (its name, its command, the end of its stderr) and left out, so one
// broken server never takes the others down.
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describeServer, isHttp, isStdio } from './config.ts';
import type { ServerConfig } from './config.ts';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };
export const CLIENT_INFO = { name: 'ladder', version };

/** Enough stderr for the last few lines of a stack trace or a usage message. */
const STDERR_TAIL_BYTES = 2048;
/** Lines of stderr quoted in a start error; the rest is in the tail a caller can read. */
const STDERR_TAIL_LINES = 6;

/** The error's message, with what caused it when there is a cause (fetch hides the real reason there). */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined;
  return detail !== undefined && !error.message.includes(detail) ? `${error.message} (${detail})` : error.message;
}

export class ServerStartError extends Error {
  override name = 'ServerStartError';
  constructor(
    readonly server: string,
    readonly command: string,
    readonly stderrTail: string,
    cause: unknown,
    /** Text that must not appear in the message (a URL with credentials in it). */
    secret?: string,
  ) {
    let reason = reasonOf(cause);
    if (secret !== undefined && secret !== command) reason = reason.split(secret).join(command);
    const lines = stderrTail.trim().split('\n').filter((line) => line.trim() !== '');
    const tail = lines.slice(-STDERR_TAIL_LINES).map((line) => line.trim()).join(' | ');
    const isUrl = /^https?:\/\//.test(command);
    const stderr = isUrl ? '' : tail === '' ? '; it wrote nothing to stderr' : `; stderr ends: ${tail}`;
    super(`server "${server}" ${isUrl ? 'did not answer' : 'did not start'} (${command}): ${reason}${stderr}`, { cause });
  }
}

export interface Connection {
  readonly name: string;
  readonly client: Client;
  /** The last bytes the server wrote to stderr (stdio servers only). */
  stderrTail(): string;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Bound on starting and initialising one server. */
  timeoutMs: number;
  onToolListChanged: () => void;
}

function transportFor(config: ServerConfig): { transport: Transport; tail: () => string } {
  if (isStdio(config)) {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      ...(config.env === undefined ? {} : { env: config.env }),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      stderr: 'pipe',
    });
    let tail = '';
    // Read from the start, and for the server's whole life: an unread pipe fills up and
    // blocks a chatty server on its next write to stderr.
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    return { transport, tail: () => tail };
  }
  if (isHttp(config)) {
    const headers = config.headers ?? {};
    return { transport: new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers } }), tail: () => '' };
  }
  return { transport: config.transport, tail: () => '' };
}

/** Starts (stdio) or reaches (HTTP) one server and initialises it; throws ServerStartError. */
export async function connectServer(name: string, config: ServerConfig, options: ConnectOptions): Promise<Connection> {
  const { transport, tail } = transportFor(config);
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => options.onToolListChanged());
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    // The process's last stderr chunk can land a tick after its pipe reports the exit.
    await new Promise((resolve) => setImmediate(resolve));
    throw new ServerStartError(name, describeServer(config), tail(), error, isHttp(config) ? config.url : undefined);
  }
  return {
    name,
    client,
    stderrTail: tail,
    close: () => client.close(),
  };
}
