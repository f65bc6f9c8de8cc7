import type { Argv, CommandModule } from 'yargs';

export interface AgentsWorld {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly out?: (line: string) => void;
  /** Progress and mistakes, one line each. */
  readonly err?: (line: string) => void;
  /** npm's own output while it installs; stderr by default. */
  readonly npmOutput?: NodeJS.WritableStream;
  /** The npm to run (a test gives a stand-in); `npm` on PATH by default. */
  readonly npm?: string;
  /** The recipes' folder (a test gives its own). */
  readonly recipes?: string;
}

/** `ladder agents`: the table, or `--json` for scripts (scripts/test-agents.sh reads it). */
export async function runAgentsList(json: boolean, world: AgentsWorld = {}): Promise<number> {
  const out = world.out ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const { listRecipes, recipeTable } = await import('../agents/recipes.ts');
  const list = await listRecipes(world.env ?? process.env, ...(world.recipes === undefined ? [] : [world.recipes] as const));
  if (json) out(JSON.stringify(list, null, 2));
  else for (const line of recipeTable(list)) out(line);
  return 0;
}

/** `ladder agents install NAME..`: each pinned package into the agent cache, reusing what is there. */
export async function runAgentsInstall(names: readonly string[], world: AgentsWorld = {}): Promise<number> {
  const err = world.err ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const { AgentFileError, loadAgentFile } = await import('../agents/file.ts');
  const { AgentInstallError, agentCacheRoot, installAgent } = await import('../agents/cache.ts');
  const env = world.env ?? process.env;
  for (const name of names) {
    try {
      const file = await (world.recipes === undefined ? loadAgentFile(name) : loadAgentFile(name, world.recipes));
      await installAgent(file, {
        root: agentCacheRoot(env), say: (line) => err(`ladder agents install: ${line}`), output: world.npmOutput ?? process.stderr,
        env: { ...process.env, ...env }, ...(world.npm === undefined ? {} : { npm: world.npm }),
      });
    } catch (error) {
      if (error instanceof AgentFileError) {
        for (const line of error.problems) err(`ladder agents install: ${line}`);
        return 2;
      }
      if (error instanceof AgentInstallError) {
        err(`ladder agents install: ${name}: ${error.message}`);
        return 1;
      }
      throw error;
    }
  }
  return 0;
}

const installCommand: CommandModule<object, { names: string[] }> = {
  command: 'install <names..>',
  describe: 'Install the version each recipe pins into the per-user agent cache (reused by every clone and by CI)',
  builder: (yargs) => yargs.positional('names', { type: 'string', array: true, demandOption: true, describe: 'Recipes (codex, claude-code, ...) or agent files with a package field' }) as unknown as Argv<{ names: string[] }>,
  handler: async (argv) => {
    process.exitCode = await runAgentsInstall(argv.names);
  },
};

export interface MatrixArgs {
  agent?: string[];
  scenario?: string[];
  format: 'text' | 'md' | 'json' | 'html';
  waitCap: number;
  concurrency: number;
  writeDocs: boolean;
  check?: string;
  recordings?: string;
}

/** The shipped recipes and the three example agents: the matrix's columns when none is named. */
export const MATRIX_EXAMPLES = ['examples/agents/tool-loop.yaml', 'examples/agents/openai-agents/agent.yaml', 'examples/agents/langchain/agent.yaml'];
export const MATRIX_PAGE = 'docs/agents-matrix.md';
export const MATRIX_BASELINE = 'docs/agents-matrix.json';

/** `ladder agents matrix`: the scenarios for each agent, the table, and the docs' page or CI's check. */
export async function runAgentsMatrix(args: MatrixArgs, world: AgentsWorld = {}): Promise<number> {
  const out = world.out ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const err = world.err ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const { existsSync } = await import('node:fs');
  const { readFile, writeFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { AgentFileError, loadAgentFile, recipeNames, RECIPES } = await import('../agents/file.ts');
  const { PACKAGE_ROOT } = await import('../lane/index.ts');
  const { runMatrix, SCENARIOS } = await import('../matrix/index.ts');
  const { matrixHtml, matrixMarkdown, matrixText } = await import('../matrix/table.ts');
  const { baselineDifferences, mergeIntoBaseline } = await import('../matrix/baseline.ts');
  if (!Number.isInteger(args.concurrency) || args.concurrency < 1) {
    err(`ladder agents matrix: --concurrency ${args.concurrency}: expected a whole number of 1 or more`);
    return 2;
  }
  if (!(args.waitCap >= 1 && args.waitCap <= 600)) {
    err(`ladder agents matrix: --wait-cap ${args.waitCap}: expected seconds from 1 to 600`);
    return 2;
  }
  const unknown = (args.scenario ?? []).filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0) {
    err(`ladder agents matrix: no scenario ${unknown.join(', ')}; the scenarios are ${SCENARIOS.map((s) => s.name).join(', ')}`);
    return 2;
  }
  const scenarios = args.scenario === undefined || args.scenario.length === 0 ? SCENARIOS : SCENARIOS.filter((s) => args.scenario!.includes(s.name));
  const names = args.agent !== undefined && args.agent.length > 0 ? args.agent
    : [...recipeNames(world.recipes ?? RECIPES), ...MATRIX_EXAMPLES.map((p) => join(PACKAGE_ROOT, p))];
  const files = [];
  for (const name of names) {
    try {
      files.push(await (world.recipes === undefined ? loadAgentFile(name) : loadAgentFile(name, world.recipes)));
    } catch (error) {
      if (!(error instanceof AgentFileError)) throw error;
      for (const line of error.problems) err(`ladder agents matrix: ${line}`);
      return 2;
    }
  }
  const baselinePath = join(PACKAGE_ROOT, MATRIX_BASELINE);
  const readBaseline = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as import('../matrix/index.ts').Matrix;
  if (args.check !== undefined && !existsSync(args.check)) {
    err(`ladder agents matrix: --check ${args.check}: no such file; write one with --write-docs`);
    return 2;
  }
  err(`ladder agents matrix: ${files.length} agent(s) x ${scenarios.length} scenario(s); slow calls held at most ${args.waitCap} s`);
  const matrix = await runMatrix(files, scenarios, {
    waitCapS: args.waitCap, concurrency: args.concurrency, env: world.env ?? process.env, progress: err,
    ...(args.recordings === undefined ? {} : { recordings: args.recordings }),
  });
  if (args.format === 'json') out(JSON.stringify(matrix, null, 2));
  else if (args.format === 'html') out(matrixHtml(matrix));
  else for (const line of args.format === 'md' ? matrixMarkdown(matrix) : matrixText(matrix)) out(line);
  if (args.writeDocs) {
    const merged = mergeIntoBaseline(existsSync(baselinePath) ? await readBaseline(baselinePath) : undefined, matrix);
    await writeFile(baselinePath, `${JSON.stringify(merged, null, 2)}\n`);
    await writeFile(join(PACKAGE_ROOT, MATRIX_PAGE), matrixPage(merged, matrixMarkdown(merged)));
    err(`ladder agents matrix: wrote ${MATRIX_PAGE} and ${MATRIX_BASELINE}`);
  }
  if (args.check !== undefined) {
    const differences = baselineDifferences(await readBaseline(args.check), matrix);
    for (const line of differences) err(`ladder agents matrix: differs from ${args.check}: ${line}`);
    if (differences.length > 0) {
      err(`ladder agents matrix: ${differences.length} cell(s) differ from the baseline; if the change is meant, run it again with --write-docs and commit both files`);
      return 1;
    }
    err(`ladder agents matrix: every cell agrees with ${args.check}`);
  }
  return 0;
}

/** The docs' page: what the table is, how it was made, then the table. */
function matrixPage(matrix: import('../matrix/index.ts').Matrix, table: string[]): string {
  return [
    '# What each agent\'s MCP client does',
    '',
    `Written by \`ladder agents matrix --write-docs\` on ${matrix.date}, with the versions in the header row; slow`,
    `calls were held at most ${matrix.waitCapS} s. How each cell is read, and what CI checks: [matrix.md](matrix.md).`,
    'A value cut short has a footnote with the whole of it and where it was read; every cell\'s evidence is in',
    '[agents-matrix.json](agents-matrix.json), and in the tooltips of `--format html`.',
    '',
    ...table,
    '',
  ].join('\n');
}

const matrixCommand: CommandModule<object, MatrixArgs> = {
  command: 'matrix',
  describe: 'Each agent\'s MCP client against scripted server situations (no model): a table, scenarios down, agents across',
  builder: (yargs) => yargs
    .option('agent', { type: 'string', array: true, describe: 'Recipes or agent files (default: every shipped recipe and the three example agents)' })
    .option('scenario', { type: 'string', array: true, describe: 'Scenarios to run (default: all)' })
    .option('format', { choices: ['text', 'md', 'json', 'html'] as const, default: 'text' as const, describe: 'How the table is printed' })
    .option('wait-cap', { type: 'number', default: 65, describe: 'Seconds a slow call is held at most; a longer wait reads "more than"' })
    .option('concurrency', { type: 'number', default: 1, describe: 'Agent x scenario runs at once' })
    .option('write-docs', { type: 'boolean', default: false, describe: `Write ${MATRIX_PAGE} and its baseline ${MATRIX_BASELINE} (the agents run are put in, the others kept)` })
    .option('check', { type: 'string', describe: 'Compare with a baseline JSON; exit 1 naming each cell that differs' })
    .option('recordings', { type: 'string', describe: 'A folder for each run\'s recording (the wire and the model requests): the evidence' }) as unknown as Argv<MatrixArgs>,
  handler: async (argv) => {
    process.exitCode = await runAgentsMatrix(argv);
  },
};

export const agentsCommand: CommandModule<object, { json: boolean }> = {
  command: 'agents',
  describe: 'The shipped agent recipes: pinned version, installed or not (and which version), CI-tested or not; agents install NAME',
  builder: (yargs) =>
    yargs
      .command(installCommand)
      .command(matrixCommand)
      .option('json', { type: 'boolean', default: false, describe: 'The listing as JSON' }) as unknown as Argv<{ json: boolean }>,
  handler: async (argv) => {
    process.exitCode = await runAgentsList(argv.json);
  },
};
