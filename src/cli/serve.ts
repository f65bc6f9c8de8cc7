// `ladder serve`: the workbench MCP server on stdio or Streamable HTTP. Thin: parse the flags
// into ServeOptions, run the server, print one line for a mistake the user can fix.
import type { Argv, CommandModule } from 'yargs';
import { PROTOCOLS } from '../mcp/protocols.ts';
import type { Protocol } from '../mcp/protocols.ts';

export interface ServeArgs {
  workspace: string;
  transport: 'stdio' | 'http';
  host: string;
  port: number;
  token?: string | undefined;
  allowRemote: boolean;
  resume: boolean;
  protocol: Protocol;
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
      .option('protocol', {
        choices: PROTOCOLS, default: 'auto' as const,
        describe: 'MCP eras served: auto (both: the 2025 revisions and 2026-07-28), legacy (2025 only) or 2026-07-28 (that one only)',
      })
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
    // Loaded here, not at the top: zod and the MCP SDK would cost every other command its start-up.
    const { serveOptions, ServeUsageError } = await import('./serveOptions.ts');
    try {
      const options = serveOptions(args, process.env);
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
