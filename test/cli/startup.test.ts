// The compiled build (scripts/build.js): what each entry point loads before it runs, and that
// the built command, the built runner and the built workbench work. The rest of the suite runs
// the TypeScript sources; this is the one place the build itself is exercised, in a folder of
// its own so that it never depends on (or replaces) the dist/ a developer has.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLadder } from '../../scripts/build.js';
import { ROOT } from '../runner/helpers.ts';

/** Every input an output loads before it runs: its static imports, transitively (not `await import()`). */
function loadedAtStart(meta: Metafile, entry: string): { inputs: string[]; external: string[] } {
  const seen = new Set<string>();
  const external = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const output = todo.pop()!;
    if (seen.has(output)) continue;
    seen.add(output);
    for (const i of meta.outputs[output]!.imports) {
      if (i.kind !== 'import-statement') continue;
      if (i.external) external.add(i.path);
      else todo.push(i.path);
    }
  }
  const inputs = [...seen].flatMap((output) => Object.keys(meta.outputs[output]!.inputs));
  return { inputs, external: [...external] };
}

/** The packages (or src/ layers) among the inputs. */
function origins(inputs: string[]): string[] {
  const names = inputs.map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.split('/').slice(0, 2).join('/'));
  return [...new Set(names)].sort();
}

const HEAVY_ELSEWHERE = ['better-sqlite3', 'vega', 'vega-lite', 'openai', '@anthropic-ai/sdk', 'ollama', 'tsx'];

describe('what each entry point loads at start', () => {
  let meta: Metafile;
  beforeAll(async () => {
    meta = await buildLadder({ outdir: join(ROOT, '.tmp-build-meta'), write: false });
  });

  it('the CLI: yargs and the command definitions, none of the heavy modules any one command uses', () => {
    const { inputs, external } = loadedAtStart(meta, '.tmp-build-meta/cli.js');
    const loaded = origins(inputs);
    expect(loaded).toContain('yargs');
    expect(loaded).toContain('src/cli');
    for (const heavy of ['@modelcontextprotocol/sdk', 'zod', 'yaml', 'ajv', 'cli-progress', 'src/models', 'src/runner', 'src/server', 'src/lane']) {
      expect(loaded, heavy).not.toContain(heavy);
    }
    expect(external.filter((name) => HEAVY_ELSEWHERE.includes(name))).toEqual([]);
  });

  it('the workbench: the MCP SDK, zod, SQLite and the server, and no CLI', () => {
    const { inputs, external } = loadedAtStart(meta, '.tmp-build-meta/workbench.js');
    const loaded = origins(inputs);
    expect(loaded).toEqual(expect.arrayContaining(['@modelcontextprotocol/server', 'zod', 'src/server']));
    for (const other of ['yargs', 'yaml', 'src/cli', 'src/runner', 'src/lane', 'src/models', 'src/report', '@modelcontextprotocol/sdk']) expect(loaded, other).not.toContain(other);
    expect(external).toContain('better-sqlite3');
    expect(external.filter((name) => HEAVY_ELSEWHERE.includes(name) && name !== 'better-sqlite3')).toEqual([]);
  });
});

describe('the built command', () => {
  // Inside the checkout, as dist/ is: the build finds package.json and node_modules by walking up.
  const out = join(ROOT, `.tmp-build-${process.pid}`);
  const node = (args: string[], cwd = ROOT) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  let workspace: string;

  beforeAll(async () => {
    await buildLadder({ outdir: out });
    workspace = mkdtempSync(join(tmpdir(), 'ladder-built-'));
  }, 60_000);
  afterAll(() => {
    rmSync(out, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  it('prints the command list for --help', () => {
    const help = node([join(out, 'cli.js'), '--help']);
    expect(help.status).toBe(0);
    for (const command of ['run', 'rungs', 'compare', 'report', 'doctor', 'serve', 'probe']) expect(help.stdout).toContain(`ladder ${command}`);
  });

  it('validates a rung: the built runner starts the built workbench for each pass', () => {
    const validate = node([join(out, 'cli.js'), 'rungs', 'validate', 'test/runner/fixtures/tiny-files.yaml']);
    expect(validate.stdout + validate.stderr).toMatch(/^1 rungs? valid$/m);
    expect(validate.status).toBe(0);
  }, 60_000);

  it('serves the workbench from its own entry point, and says in one line what is wrong with bad options', async () => {
    const client = new Client({ name: 'built', version: '0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(out, 'workbench.js'), JSON.stringify({ workspace })], stderr: 'ignore' }));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('files_read');
    await client.close();
    const bad = node([join(out, 'workbench.js'), JSON.stringify({ workspace: join(workspace, 'missing') })]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe(`ladder workbench: workspace ${join(workspace, 'missing')} does not exist; create it or pass another folder\n`);
  });
});
