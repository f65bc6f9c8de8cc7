// `ladder serve`: the workbench MCP server on stdio or Streamable HTTP. Thin: parse the flags
// into ServeOptions, run the server, print one line for a mistake the user can fix.
import fs from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import { parseFaults, type FaultsInput, type WorkbenchOptions } from '../server/options.ts';
import type { ServeOptions } from '../server/serve.ts';

export interface ServeArgs {
  workspace: string;
  transport: 'stdio' | 'http';
  host: string;
  port: number;
  token?: string | undefined;
  allowRemote: boolean;
  resume: boolean;
  seed?: number | undefined;
  timeFactor?: number | undefined;
  config?: string | undefined;
  faults?: string | undefined;
  setupSql?: string | undefined;
  deadUpstream?: boolean | undefined;
  errorRate?: string[] | undefined;
  failFirst?: string[] | undefined;
  latencyMs?: string[] | undefined;
  dropReply?: string[] | undefined;
  listingFailFirst?: number | undefined;
  listingStallMs?: number | undefined;
}

/** A mistake in the flags: printed as one line, exit code 2. */
export class ServeUsageError extends Error {
  override name = 'ServeUsageError';
}

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Serve the workbench MCP server for a workspace folder (stdio or Streamable HTTP)',
  // yargs types each flag by its kebab-case name; the handler reads the camel-case forms.
  builder: (yargs) =>
    yargs
      .option('workspace', { type: 'string', demandOption: true, describe: 'The workspace folder the tools work in' })
      .option('transport', { choices: ['stdio', 'http'] as const, default: 'stdio' as const })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'HTTP: address to bind' })
      .option('port', { type: 'number', default: 0, describe: 'HTTP: port (0 picks a free one; the URL is printed)' })
      .option('token', { type: 'string', describe: 'HTTP: require this bearer token (default: env LADDER_SERVE_TOKEN)' })
      .option('allow-remote', { type: 'boolean', default: false, describe: 'HTTP: allow a non-loopback --host (needs a token)' })
      .option('resume', { type: 'boolean', default: true, describe: 'HTTP: keep events so a cut stream can resume (--no-resume)' })
      .option('seed', { type: 'number', describe: 'Seed for faults and generated content (default 0)' })
      .option('time-factor', { type: 'number', describe: 'Real ms per workbench ms; 0.01 runs 100x faster (default 1)' })
      .option('config', { type: 'string', describe: 'Workbench options as JSON, or @file.json' })
      .option('faults', { type: 'string', describe: 'Faults as JSON, or @file.json (see docs/server.md)' })
      .option('setup-sql', { type: 'string', describe: 'SQL file run once on the workspace database' })
      .option('dead-upstream', { type: 'boolean', describe: 'Fault: the browser upstream is dead' })
      .option('error-rate', { type: 'string', array: true, describe: 'Fault: tool=rate (0..1), or *=rate' })
      .option('fail-first', { type: 'string', array: true, describe: 'Fault: tool=N, its first N calls fail' })
      .option('latency-ms', { type: 'string', array: true, describe: 'Fault: tool=ms added to each reply, or *=ms' })
      .option('drop-reply', { type: 'string', array: true, describe: 'Fault (HTTP): tool=rate of replies cut mid-call' })
      .option('listing-fail-first', { type: 'number', describe: 'Fault: the first N tools/list requests fail' })
      .option('listing-stall-ms', { type: 'number', describe: 'Fault: every tools/list is held this long' }) as unknown as Argv<ServeArgs>,
  handler: async (args) => {
    try {
      const options = serveOptions(args, process.env);
      // Loaded here, not at the top: the MCP SDK costs every other ladder command its start-up.
      const { runServe } = await import('../server/serve.ts');
      await runServe(options);
    } catch (error) {
      const line = error instanceof ServeUsageError || error instanceof RangeError ? error.message : bindMistake(error, args);
      if (line === undefined) throw error;
      process.stderr.write(`ladder serve: ${line}\n`);
      process.exitCode = 2;
    }
  },
};

/** A port or address the HTTP server cannot bind, said as the flag to change; undefined for anything else. */
export function bindMistake(error: unknown, args: Pick<ServeArgs, 'host' | 'port'>): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const at = `${args.host}:${args.port}`;
  if (code === 'EADDRINUSE') return `--port ${args.port}: ${at} is already in use; choose another --port, or --port 0 for a free one`;
  if (code === 'EACCES') return `--port ${args.port}: not allowed to listen on ${at} (ports below 1024 need privileges); choose another --port`;
  if (code === 'EADDRNOTAVAIL') return `--host ${args.host}: no such address on this machine; use 127.0.0.1, or an address of this machine`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `--host ${args.host}: cannot resolve this host name`;
  return undefined;
}

/** The flags as ServeOptions; throws ServeUsageError naming the flag that is wrong. */
export function serveOptions(args: ServeArgs, env: NodeJS.ProcessEnv): ServeOptions {
  const config = (readJsonFlag('--config', args.config) ?? {}) as Partial<WorkbenchOptions>;
  if (typeof config !== 'object' || Array.isArray(config)) throw new ServeUsageError('--config must be a JSON object');
  const faults = mergeFaults(
    (readJsonFlag('--faults', args.faults) ?? config.faults ?? {}) as Record<string, unknown>,
    args,
  );
  const workbench: WorkbenchOptions = { ...config, workspace: args.workspace, faults: parseFaults(faults, '--faults') };
  if (args.seed !== undefined) workbench.seed = args.seed;
  if (args.timeFactor !== undefined) workbench.timeFactor = args.timeFactor;
  if (args.setupSql !== undefined) workbench.setupSql = readFile('--setup-sql', args.setupSql);
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65_535) {
    throw new ServeUsageError(`--port ${args.port} is not a port number (0..65535)`);
  }
  return {
    workbench,
    transport: args.transport,
    host: args.host,
    port: args.port,
    token: args.token ?? (env['LADDER_SERVE_TOKEN'] || undefined),
    allowRemote: args.allowRemote,
    resumable: args.resume,
  };
}

function mergeFaults(base: Record<string, unknown>, args: ServeArgs): FaultsInput {
  const merged: Record<string, unknown> = { ...base };
  const perTool = (field: string, flag: string, values: string[] | undefined) => {
    if (values === undefined) return;
    merged[field] = { ...(merged[field] as object | undefined), ...pairs(flag, values) };
  };
  if (args.deadUpstream !== undefined) merged['deadUpstream'] = args.deadUpstream;
  perTool('errorRate', '--error-rate', args.errorRate);
  perTool('failFirst', '--fail-first', args.failFirst);
  perTool('latencyMs', '--latency-ms', args.latencyMs);
  perTool('dropReply', '--drop-reply', args.dropReply);
  const listing: Record<string, unknown> = { ...(merged['listing'] as object | undefined) };
  if (args.listingFailFirst !== undefined) listing['failFirst'] = args.listingFailFirst;
  if (args.listingStallMs !== undefined) listing['stallMs'] = args.listingStallMs;
  if (Object.keys(listing).length > 0) merged['listing'] = listing;
  return merged as FaultsInput;
}

/** `tool=value` pairs as an object of numbers. */
function pairs(flag: string, values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const value of values) {
    const match = /^([*a-z_]+)=(.+)$/.exec(value);
    const number = match ? Number(match[2]) : Number.NaN;
    if (!match || !Number.isFinite(number)) {
      throw new ServeUsageError(`${flag} ${value}: expected tool=number, e.g. ${flag} browser_navigate=0.5`);
    }
    out[match[1] as string] = number;
  }
  return out;
}

function readJsonFlag(flag: string, value: string | undefined): unknown {
  if (value === undefined) return undefined;
  const source = value.startsWith('@') ? readFile(flag, value.slice(1)) : value;
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new ServeUsageError(`${flag}: not valid JSON (${(error as Error).message})`);
  }
}

function readFile(flag: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    throw new ServeUsageError(`${flag} ${file}: cannot read this file`);
  }
}
