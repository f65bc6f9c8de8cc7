// `ladder gateway`: the reliability layer in front of any MCP client (docs/gateway.md). Thin:
// the flags, one function, one line for a mistake (exit 2).
import type { Argv, CommandModule } from 'yargs';
import { PROTOCOLS } from '../mcp/protocols.ts';
import type { Protocol } from '../mcp/protocols.ts';

export interface GatewayArgs {
  servers?: string | undefined;
  transport: 'stdio' | 'http';
  host?: string | undefined;
  port?: number | undefined;
  token?: string | undefined;
  arm?: string | undefined;
  protocol?: Protocol | undefined;
  turn?: string | undefined;
  trace?: string | undefined;
  content: 'none' | 'full';
  deterministic?: string[] | undefined;
  otlp?: string | undefined;
  sessionIdle?: number | undefined;
}

interface StatusArgs {
  url?: string | undefined;
  token?: string | undefined;
  format: 'text' | 'json';
}

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const mistake = (command: string, line: string): void => {
  process.stderr.write(`${command}: ${line}\n`);
  process.exitCode = 2;
};

/** Resolves when the process is told to stop (Ctrl-C, SIGTERM) or, over stdio, when the client closes stdin. */
function stopped(stdio: boolean): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    if (stdio) process.stdin.once('end', () => resolve()).once('close', () => resolve());
  });
}

const statusCommand: CommandModule<object, StatusArgs> = {
  command: 'status',
  describe: 'What each upstream of the running gateways is doing now',
  builder: (yargs) =>
    yargs
      .option('url', { type: 'string', describe: "An HTTP gateway's URL to ask (default: every gateway running on this machine)" })
      .option('token', { type: 'string', describe: 'Its bearer token (default: env LADDER_GATEWAY_TOKEN)' })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const }) as unknown as Argv<StatusArgs>,
  handler: async (args) => {
    const { statusText } = await import('../gateway/status.ts');
    const { gatewaysDir, readGateways } = await import('../gateway/stateFile.ts');
    let found;
    if (args.url !== undefined) {
      const token = args.token ?? process.env['LADDER_GATEWAY_TOKEN'];
      const url = new URL('/status', args.url);
      const response = await fetch(url, { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } }).catch((error: Error) => error);
      if (response instanceof Error) return mistake('ladder gateway status', `--url ${args.url}: no gateway answered (${response.message}); is ladder gateway --transport http running there?`);
      if (!response.ok) return mistake('ladder gateway status', `--url ${args.url}: HTTP ${response.status} ${await response.text()}`);
      found = [(await response.json()) as import("../gateway/status.ts").GatewayStatus];
    } else {
      found = readGateways(gatewaysDir(process.env));
    }
    if (args.format === 'json') return say(JSON.stringify(found, null, 2));
    if (found.length === 0) return say('no ladder gateway is running on this machine (ladder gateway --servers FILE starts one)');
    for (const status of found) statusText(status).forEach(say);
  },
};

const bridgeCommand: CommandModule<object, { url: string }> = {
  command: 'bridge',
  describe: 'Serve an HTTP gateway over stdio, for an agent that only starts commands (token from LADDER_MCP_TOKEN)',
  builder: (yargs) => yargs.option('url', { type: 'string', demandOption: true, describe: 'The gateway URL (LADDER_MCP_URL in a run)' }) as unknown as Argv<{ url: string }>,
  handler: async (args) => {
    const { Bridge } = await import('../gateway/bridge.ts');
    const { gatewayServer } = await import('../gateway/mcp/server.ts');
    const { StdioServerTransport } = await import('../mcp/server.ts');
    let bridge;
    try {
      bridge = await Bridge.connect(args.url, process.env['LADDER_MCP_TOKEN']);
    } catch (error) {
      return mistake('ladder gateway bridge', `--url ${args.url}: ${(error as Error).message}`);
    }
    // The 2025 revisions only, as the pass's HTTP gateway it fronts: agents are measured as they were.
    const server = gatewayServer({ backend: bridge });
    await server.connect(new StdioServerTransport());
    await stopped(true);
    await server.close();
    await bridge.close();
  },
};

export const gatewayCommand: CommandModule<object, GatewayArgs> = {
  command: 'gateway',
  describe: "Serve your MCP servers as one, through Ladder's reliability layer (stdio or Streamable HTTP)",
  builder: (yargs) =>
    yargs
      .command(statusCommand)
      .command(bridgeCommand)
      .option('servers', { type: 'string', describe: 'A JSON file with "mcpServers" (Claude Desktop, Cursor and Claude Code write them so)' })
      .option('transport', { choices: ['stdio', 'http'] as const, default: 'stdio' as const })
      .option('host', { type: 'string', describe: 'HTTP: address to bind (default 127.0.0.1; another needs a --token)' })
      .option('port', { type: 'number', describe: 'HTTP: port (default 0: a free one, printed)' })
      .option('token', { type: 'string', describe: 'HTTP: require this bearer token (default: env LADDER_GATEWAY_TOKEN)' })
      .option('arm', { type: 'string', describe: 'Mechanisms, as in ladder run: on (default), off, or e.g. breaker=off,repeats=on' })
      .option('protocol', {
        choices: PROTOCOLS, describe: 'MCP revision with every upstream, over each entry\'s "protocol": auto (default: 2026-07-28 where offered, else 2025), legacy or 2026-07-28',
      })
      .option('turn', { type: 'string', describe: 'Where a turn begins: list (each tools/list), meta (_meta "ladder/turn" changes), idle=<s> (default list,meta,idle=60)' })
      .option('trace', { type: 'string', describe: 'A folder: write every listing and call as trace events, rotated by size' })
      .option('content', { choices: ['none', 'full'] as const, default: 'none' as const, describe: 'Trace content: none (hashes and byte counts) or full' })
      .option('otlp', { type: 'string', describe: "An OTLP/HTTP collector: each turn's spans, named as ladder export names a run's, sent as the turn ends" })
      .option('session-idle', { type: 'number', describe: 'HTTP: end a session whose client has had nothing open this many seconds (default 600; 0: only on DELETE)' })
      .option('deterministic', { type: 'string', array: true, describe: 'Tools (server__tool) whose repeats may be short-circuited' }) as unknown as Argv<GatewayArgs>,
  handler: async (args) => {
    if (args.servers === undefined) return mistake('ladder gateway', 'give --servers FILE: a JSON file with "mcpServers", e.g. --servers ~/.cursor/mcp.json');
    const { GatewayInputError, startGateway } = await import('../gateway/serve.ts');
    const log = (line: string): void => void process.stderr.write(`${line}\n`);
    let running;
    try {
      running = await startGateway({
        servers: args.servers, transport: args.transport, content: args.content,
        ...(args.host === undefined ? {} : { host: args.host }), ...(args.port === undefined ? {} : { port: args.port }),
        ...(args.token === undefined ? {} : { token: args.token }), ...(args.arm === undefined ? {} : { arm: args.arm }),
        ...(args.protocol === undefined ? {} : { protocol: args.protocol }),
        ...(args.turn === undefined ? {} : { turn: args.turn }), ...(args.trace === undefined ? {} : { trace: args.trace }),
        ...(args.deterministic === undefined ? {} : { deterministic: args.deterministic }),
        ...(args.otlp === undefined ? {} : { otlp: args.otlp }),
        ...(args.sessionIdle === undefined ? {} : { sessionIdle: args.sessionIdle }),
      }, { env: process.env, log });
    } catch (error) {
      if (error instanceof GatewayInputError) return mistake('ladder gateway', error.message);
      throw error;
    }
    if (running.url !== undefined) log(`ladder gateway: serving ${running.url} (status: GET /status, or ladder gateway status)`);
    await stopped(args.transport === 'stdio');
    await running.close();
  },
};
