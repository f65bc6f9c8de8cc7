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

export const agentsCommand: CommandModule<object, { json: boolean }> = {
  command: 'agents',
  describe: 'The shipped agent recipes: pinned version, installed or not (and which version), CI-tested or not; agents install NAME',
  builder: (yargs) =>
    yargs
      .command(installCommand)
      .option('json', { type: 'boolean', default: false, describe: 'The listing as JSON' }) as unknown as Argv<{ json: boolean }>,
  handler: async (argv) => {
    process.exitCode = await runAgentsList(argv.json);
  },
};
