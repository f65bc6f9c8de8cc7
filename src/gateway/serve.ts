// `ladder gateway`: read the servers file, check everything that can be checked before a client
// connects (the file, the names, the arm, the turn policy, colliding tool names, the port), then
// serve the gateway over stdio or Streamable HTTP until told to stop. Every mistake is one line
// (GatewayInputError), and the CLI exits 2 on it.
import type { Protocol } from '../mcp/protocols.ts';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { serveStdioEitherEra } from '../mcp/stdioEras.ts';
import { isHttp, isStdio, LaneConfigError, parseArm, parseServers } from '../lane/index.ts';
import type { HttpServerConfig, StdioServerConfig } from '../lane/index.ts';
import { ExportError } from '../otlp/send.ts';
import type { Secret, TraceEventInput } from '../trace/index.ts';
import type { Clock } from '../reliability/index.ts';
import { GatewayOtlp } from './otlp.ts';
import { gatewayServer } from './mcp/server.ts';
import { serveGatewayHttp } from './mcp/http.ts';
import { modernGatewayHandler, modernGatewayStdioServer } from './mcp/modern.ts';
import type { GatewayHttp } from './mcp/http.ts';
import { StandaloneGateway } from './standalone.ts';
import { gatewaysDir, StateFile } from './stateFile.ts';
import { TraceFiles } from './traceFiles.ts';
import { parseTurnPolicy, TurnPolicyError } from './turns.ts';

export class GatewayInputError extends Error {
  override readonly name = 'GatewayInputError';
}

export interface GatewayRequest {
  servers: string;
  transport: 'stdio' | 'http';
  host?: string;
  port?: number;
  token?: string;
  arm?: string;
  /** The MCP revision to speak with every upstream, over each entry's own `protocol`. */
  protocol?: Protocol;
  turn?: string;
  trace?: string;
  content?: 'none' | 'full';
  deterministic?: string[];
  /** An OTLP/HTTP collector: each turn's spans are sent when it ends. */
  otlp?: string;
  /** HTTP: seconds a session with nothing open is kept before it is ended (0: until DELETE). */
  sessionIdle?: number;
}

export interface GatewayWorld {
  env: Readonly<Record<string, string | undefined>>;
  /** Where log lines go: stderr (stdout is the protocol over stdio). */
  log: (line: string) => void;
  /** What the turns' idle gap, the restarts and the lane read the time from: Date.now unless a test moves it. */
  clock?: Clock;
}

export interface RunningGateway {
  /** The HTTP URL, over HTTP. */
  url?: string;
  close(): Promise<void>;
}

/** The servers file: a config holding `mcpServers` as clients write it, read as it is. */
export function readServersFile(path: string): Record<string, StdioServerConfig | HttpServerConfig> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new GatewayInputError(`--servers ${path}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code})`}; give a JSON file with an "mcpServers" object, as Claude Desktop, Cursor and Claude Code write it`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new GatewayInputError(`--servers ${path}: not JSON (${(error as Error).message}); the file holds {"mcpServers": {"name": {"command": ...}}}`);
  }
  try {
    const servers = parseServers(json, `--servers ${path}: mcpServers`);
    if (Object.keys(servers).length === 0) throw new GatewayInputError(`--servers ${path}: mcpServers is empty; add at least one server`);
    return servers;
  } catch (error) {
    if (error instanceof LaneConfigError) throw new GatewayInputError(error.message);
    throw error;
  }
}

/** The servers' env and header values: never in a log, a trace or the status. */
function secretsOf(servers: Record<string, StdioServerConfig | HttpServerConfig>): Secret[] {
  return Object.entries(servers).flatMap(([name, config]) => {
    const values = isStdio(config) ? (config.env ?? {}) : isHttp(config) ? (config.headers ?? {}) : {};
    return Object.entries(values).map(([key, value]) => ({ name: `${name}.${key}`, value }));
  });
}

export async function startGateway(request: GatewayRequest, world: GatewayWorld): Promise<RunningGateway> {
  const listed = readServersFile(request.servers);
  // --protocol wins over the entries, as an arm's protocol= does in a run.
  const servers = request.protocol === undefined ? listed
    : Object.fromEntries(Object.entries(listed).map(([name, config]) => [name, { ...config, protocol: request.protocol }]));
  const arm = request.arm ?? 'on';
  let turns;
  try {
    parseArm(arm);
    turns = parseTurnPolicy(request.turn ?? 'list,meta,idle=60');
  } catch (error) {
    if (error instanceof TurnPolicyError || error instanceof RangeError || (error as Error).name === 'ArmError') throw new GatewayInputError((error as Error).message);
    throw error;
  }
  const idle = request.sessionIdle;
  if (idle !== undefined && (!Number.isFinite(idle) || idle < 0)) {
    throw new GatewayInputError(`--session-idle ${idle}: give the seconds a session with nothing open is kept (0 keeps it until its client sends DELETE)`);
  }
  const token = request.token ?? world.env['LADDER_GATEWAY_TOKEN'];
  let otlp: GatewayOtlp | undefined;
  try {
    otlp = request.otlp === undefined ? undefined : new GatewayOtlp({ url: request.otlp, arm, log: world.log });
  } catch (error) {
    if (error instanceof ExportError) throw new GatewayInputError(error.message);
    throw error;
  }
  const trace = request.trace === undefined ? undefined : new TraceFiles({ dir: request.trace, content: request.content ?? 'none', secrets: secretsOf(servers) });
  const emit = trace === undefined && otlp === undefined ? undefined : (event: TraceEventInput): void => {
    trace?.emit(event);
    otlp?.emit(event);
  };
  let state: StateFile | undefined;
  const gateway = await StandaloneGateway.start({
    servers, arm, turns, ...(emit === undefined ? {} : { emit }), log: world.log, ...(world.clock === undefined ? {} : { clock: world.clock }),
    onChange: () => state?.changed(), ...(request.deterministic === undefined ? {} : { deterministic: request.deterministic }),
  });
  let http: GatewayHttp | undefined;
  const closeAll = async (): Promise<void> => {
    state?.remove();
    await http?.close();
    await gateway.close();
    await otlp?.close();
    trace?.close();
  };
  try {
    // The first turn now: two servers with a tool of the same name are refused before a client connects.
    await gateway.tools();
  } catch (error) {
    await closeAll();
    if (error instanceof LaneConfigError) throw new GatewayInputError(error.message);
    throw error;
  }
  const newServer = () => gatewayServer({ backend: gateway });
  if (request.transport === 'stdio') {
    // The client's first message chooses the era: initialize is 2025, anything else 2026-07-28.
    const served = serveStdioEitherEra({ legacy: newServer, modern: () => modernGatewayStdioServer(gateway) });
    state = new StateFile(gatewaysDir(world.env), () => gateway.status('stdio'));
    return { close: async () => { await served.close(); await closeAll(); } };
  }
  const httpStatus = () => ({ ...gateway.status('http', http?.url), sessions: http?.sessions() ?? 0 });
  const statusGet = (path: string, res: ServerResponse): boolean => {
    if (path !== '/status') return false;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(`${JSON.stringify(httpStatus(), null, 2)}\n`);
    return true;
  };
  try {
    http = await serveGatewayHttp({
      newServer, modern: modernGatewayHandler(gateway), host: request.host ?? '127.0.0.1', port: request.port ?? 0, ...(token === undefined || token === '' ? {} : { token }),
      allowRemote: token !== undefined && token !== '', extraGet: statusGet, log: world.log,
      ...(idle === undefined ? {} : { sessionIdleMs: idle * 1000 }),
    });
  } catch (error) {
    await closeAll();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new GatewayInputError(`--port ${request.port}: in use on ${request.host ?? '127.0.0.1'}; choose another --port, or 0 for a free one`);
    if (error instanceof RangeError) throw new GatewayInputError(error.message.replaceAll('LADDER_SERVE_TOKEN', 'LADDER_GATEWAY_TOKEN').replace('add --allow-remote and a --token', 'give a --token'));
    throw error;
  }
  state = new StateFile(gatewaysDir(world.env), httpStatus);
  return { url: http.url, close: closeAll };
}
