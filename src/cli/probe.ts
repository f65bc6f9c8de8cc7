import type { CommandModule } from 'yargs';
import { PROTOCOLS } from '../mcp/protocols.ts';
import type { Protocol } from '../mcp/protocols.ts';

interface ProbeArgs {
  readonly target?: string[];
  readonly tool?: string;
  readonly args?: string;
  readonly arm?: string;
  readonly protocol?: Protocol;
  readonly timeout?: number;
  readonly trace?: string;
  readonly schema?: boolean;
}

export const probeCommand: CommandModule<object, ProbeArgs> = {
  command: 'probe [target..]',
  describe: 'Connect to one MCP server through the lane, list its tools and call one',
  builder: (yargs) =>
    yargs
      .positional('target', {
        type: 'string',
        array: true,
        describe: 'A Streamable HTTP URL, a command ("node server.js", "npx -y <pkg>"), an installed @scope/package, or a .js/.ts file',
      })
      .option('tool', { type: 'string', describe: 'Tool to call (default: the first listed)' })
      .option('args', { type: 'string', describe: 'Arguments as a JSON object (default: a sample from the input schema)' })
      .option('arm', { type: 'string', describe: 'Mechanisms: on, off, or e.g. breaker=off,repeats=on (default on)' })
      .option('timeout', { type: 'number', describe: 'Milliseconds allowed to start the server and for the call' })
      .option('protocol', {
        type: 'string', choices: PROTOCOLS,
        describe: 'MCP revision: auto (server/discover, then the 2025 handshake), legacy (2025 only) or 2026-07-28 (only)',
      })
      .option('trace', { type: 'string', describe: 'Write the trace events (JSONL) to this file' })
      .option('schema', { type: 'boolean', describe: "Print each tool's input schema (JSON) under it; no call unless --tool is given" })
      .example('ladder probe http://127.0.0.1:3000/mcp', 'a running server')
      .example('ladder probe @modelcontextprotocol/server-everything --tool get-sum --args \'{"a":2,"b":3}\'', 'an installed package')
      .example('ladder probe "npx -y @modelcontextprotocol/server-memory"', 'a command with its own flags, quoted')
      .example('ladder probe -- node server.js --port 0', 'or after --'),
  handler: async (argv) => {
    const write = (line: string) => process.stdout.write(`${line}\n`);
    const err = (line: string) => process.stderr.write(`${line}\n`);
    // Words after `--` land in `_` after the command's own name; they are the server's.
    const target = [...(argv.target ?? []), ...argv._.slice(1).map(String)];
    // The lane and the MCP SDK are loaded by the command that uses them, not by every `ladder` start.
    const { ArmError, LaneConfigError } = await import('../lane/index.ts');
    const { runProbe } = await import('../lane/probe.ts');
    try {
      process.exitCode = await runProbe(target, {
        write,
        err,
        ...(argv.schema === undefined ? {} : { schema: argv.schema }),
        ...(argv.tool === undefined ? {} : { tool: argv.tool }),
        ...(argv.args === undefined ? {} : { args: argv.args }),
        ...(argv.arm === undefined ? {} : { arm: argv.arm }),
        ...(argv.protocol === undefined ? {} : { protocol: argv.protocol }),
        ...(argv.timeout === undefined ? {} : { timeoutMs: argv.timeout }),
        ...(argv.trace === undefined ? {} : { trace: argv.trace }),
      });
    } catch (error) {
      if (!(error instanceof LaneConfigError || error instanceof ArmError)) throw error;
      // Named as every command names its mistakes; FAIL says the probe did not get as far as a call.
      err(`ladder probe: FAIL ${error.message}`);
      process.exitCode = 2;
    }
  },
};
