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
      .demandCommand(1, 'Name a subcommand: ladder rungs validate'),
  handler: () => undefined,
};
