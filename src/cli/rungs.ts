import type { CommandModule } from 'yargs';

// `ladder rungs validate [files..]`: proves every rung solvable and every check able to fail.
// The runner is imported when the command runs, so other commands do not load it.

export interface ValidateArgs {
  files?: string[];
  timeFactor?: number;
}

/** Prints one line per rung (ok) or per problem; returns 0 all valid, 1 a rung is invalid, 2 bad input. */
export async function runValidate(
  args: ValidateArgs,
  say: (line: string) => void = (line) => void process.stdout.write(`${line}\n`),
  err: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
): Promise<number> {
  const { findRungFiles, InputError, loadRungFiles } = await import('../runner/rungFiles.ts');
  const { validateRungs } = await import('../runner/validate.ts');
  let rungs;
  try {
    rungs = await loadRungFiles(findRungFiles(args.files ?? [], process.cwd()), process.cwd());
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    for (const line of error.lines) err(`ladder rungs validate: ${line}`);
    return 2;
  }
  const problems = await validateRungs(rungs, {
    ...(args.timeFactor === undefined ? {} : { timeFactor: args.timeFactor }),
    onRung: (file, found) => (found.length === 0 ? say(`ok ${file}`) : found.forEach((line) => say(line))),
  });
  const { plural } = await import('../report/words.ts');
  say(problems.length === 0 ? `${plural(rungs.length, 'rung')} valid` : `${plural(problems.length, 'problem')} in ${plural(rungs.length, 'rung')}`);
  return problems.length === 0 ? 0 : 1;
}

export interface CalibrateArgs {
  rungs?: string[];
  passes?: number;
  timeFactor?: number;
  seed?: number;
  out?: string;
  agent?: string;
}

/** Prints the calibration table; returns 0 every effect there, 1 one is not, 2 bad input. */
export async function runCalibrate(args: CalibrateArgs, say: (line: string) => void = (line) => void process.stdout.write(`${line}\n`),
  world: { cwd?: string; progress?: NodeJS.WritableStream & { isTTY?: boolean }; tempBase?: string; err?: (line: string) => void } = {}): Promise<number> {
  const err = world.err ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const { InputError } = await import('../runner/rungFiles.ts');
  const { calibrate, calibrationTable } = await import('../report/calibrate.ts');
  let rows;
  try {
    rows = await calibrate({
      rungs: args.rungs ?? [], cwd: world.cwd ?? process.cwd(),
      ...(args.passes === undefined ? {} : { passes: args.passes }),
      ...(args.timeFactor === undefined ? {} : { timeFactor: args.timeFactor }),
      ...(args.seed === undefined ? {} : { seed: args.seed }),
      ...(args.out === undefined ? {} : { out: args.out }),
      ...(args.agent === undefined ? {} : { agent: args.agent }),
      ...(world.progress === undefined ? {} : { progress: world.progress }),
      ...(world.tempBase === undefined ? {} : { tempBase: world.tempBase }),
    });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    for (const line of error.lines) err(`ladder rungs calibrate: ${line}`);
    return 2;
  }
  for (const line of calibrationTable(rows)) say(line);
  return rows.every((r) => r.ok) ? 0 : 1;
}

export interface NewArgs {
  name: string;
  server: string[];
  out?: string;
  force?: boolean;
}

/** Writes the skeleton; returns 0 written, 2 bad input (a bad name, a file in the way, a server that does not start), said on `err`. */
export async function runNew(args: NewArgs, say: (line: string) => void = (line) => void process.stdout.write(`${line}\n`),
  cwd = process.cwd(), err: (line: string) => void = (line) => void process.stderr.write(`${line}\n`)): Promise<number> {
  const { existsSync, mkdirSync, writeFileSync } = await import('node:fs');
  const { dirname, join, relative } = await import('node:path');
  const { LaneConfigError } = await import('../lane/index.ts');
  const { listTools, rungSkeleton, serverNameFor, skeletonServer } = await import('../rungs/skeleton.ts');
  if (!/^[a-z0-9-]+$/.test(args.name)) {
    err(`ladder rungs new: name ${JSON.stringify(args.name)}: expected lower-case letters, digits and dashes`);
    return 2;
  }
  const file = args.out ?? join(cwd, 'rungs', `${args.name}.yaml`);
  if (existsSync(file) && args.force !== true) {
    err(`ladder rungs new: ${relative(cwd, file) || file} exists; choose another name or --out, or --force to replace it`);
    return 2;
  }
  try {
    const { spec, config } = skeletonServer(args.server);
    const serverName = serverNameFor(spec);
    const tools = await listTools(config, serverName);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, rungSkeleton(args.name, serverName, spec, tools));
    say(`wrote ${relative(cwd, file) || file}: ${tools.length} tools of ${serverName}; fill in the TODOs, then ladder rungs validate ${args.name}`);
    return 0;
  } catch (error) {
    if (!(error instanceof LaneConfigError)) throw error;
    err(`ladder rungs new: ${error.message}`);
    return 2;
  }
}

export const rungsCommand: CommandModule = {
  command: 'rungs <command>',
  describe: 'Work with rung files',
  builder: (yargs) =>
    yargs
      .command<ValidateArgs>({
        command: 'validate [files..]',
        describe: 'Run each rung\'s reference solution (every step must pass) and an agent that does nothing (every check must fail)',
        builder: (y) =>
          y
            .positional('files', { type: 'string', array: true, describe: 'Rung files, folders, globs or names (default: every rung in rungs/)' })
            .option('time-factor', { type: 'number', describe: 'Real time per workbench time (default 0.01: solvability does not depend on the clock)' }),
        handler: async (argv) => {
          process.exitCode = await runValidate(argv);
        },
      })
      .command<CalibrateArgs>({
        command: 'calibrate [rungs..]',
        describe: "Run each rung's pathology on both arms of its declared effect and check that the effect is there",
        builder: (y) =>
          y
            .positional('rungs', { type: 'string', array: true, describe: 'Rung files, folders, globs or names (default: every rung in rungs/)' })
            .option('passes', { type: 'number', describe: 'Passes per arm (default 5; the pathologies strike at every decision, p = 1)' })
            .option('time-factor', { type: 'number', describe: 'Real time per workbench time (default 0.01)' })
            .option('seed', { type: 'number', describe: 'Run seed (default 1)' })
            .option('out', { type: 'string', describe: 'Keep the calibration runs in this folder (default: a temp folder, removed)' })
            .option('agent', { type: 'string', describe: 'An external agent runs the steps (as ladder run --agent), the pathology behind its model gateway' }),
        handler: async (argv) => {
          process.exitCode = await runCalibrate(argv);
        },
      })
      .command<NewArgs>({
        command: 'new <name>',
        describe: 'Write a commented rung skeleton for one server, its real tool names and arguments filled in from a listing',
        builder: (y) =>
          y
            .positional('name', { type: 'string', demandOption: true, describe: 'The rung name ([a-z0-9-]+); written to rungs/<name>.yaml' })
            .option('server', {
              type: 'string', array: true, demandOption: true,
              describe: 'The server, as ladder probe takes it: an installed package, a command ("npx -y <pkg> args"), or a Streamable HTTP URL',
            })
            .option('out', { type: 'string', describe: 'Write here instead of rungs/<name>.yaml' })
            .option('force', { type: 'boolean', describe: 'Replace a file that exists' })
            .example("ladder rungs new sqlite-orders --server 'mcp-server-sqlite --db {workspace}/shop.db'", 'an installed package with its arguments'),
        handler: async (argv) => {
          process.exitCode = await runNew(argv);
        },
      })
      .demandCommand(1, 'Name a subcommand: ladder rungs validate, ladder rungs calibrate, ladder rungs new'),
  handler: () => undefined,
};
