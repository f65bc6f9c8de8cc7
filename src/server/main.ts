// The workbench's own entry point, what a run starts for every pass:
// `node <this> '<workbench options as JSON>'`, serving stdio. `ladder serve` is the entry for
// people (flags, HTTP, --help); this one parses no flags and loads no CLI, so a pass's server
// costs what the workbench itself needs (the MCP SDK, zod, SQLite) and nothing more. The runner
// builds the options (src/runner/servers.ts); a bad one is one line on stderr and exit 2.
import { runServe } from './serve.ts';

const [json, ...extra] = process.argv.slice(2);
try {
  if (json === undefined || extra.length > 0) throw new RangeError("usage: workbench '<options JSON>'");
  await runServe({ workbench: JSON.parse(json) as Parameters<typeof runServe>[0]['workbench'], transport: 'stdio' });
} catch (error) {
  if (!(error instanceof RangeError || error instanceof SyntaxError)) throw error;
  process.stderr.write(`ladder workbench: ${error.message}\n`);
  process.exitCode = 2;
}
