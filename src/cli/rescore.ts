import { join, relative, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import type { AdapterOptions } from '../models/index.ts';
import { inputMistake, RUN_FOLDER } from './errors.ts';

export interface RescoreArgs {
  readonly run: string;
  readonly rungs?: readonly string[];
  readonly out?: string;
  readonly judgeModel?: string;
}

export interface RescoreWorld {
  readonly cwd?: string;
  /** What changed, then the comparison. */
  readonly out?: (text: string) => void;
  readonly err?: (line: string) => void;
  /** Seams for a judge model's adapter (endpoint, key, environment). */
  readonly judgeWorld?: AdapterOptions;
}

/**
 * `ladder rescore <run> [rungs..]`: writes summary.rescored.json (or --out) and prints what
 * changed and the comparison of the arms. 0 when written, 2 on bad input (one line each).
 */
export async function runRescore(args: RescoreArgs, world: RescoreWorld = {}): Promise<number> {
  const out = world.out ?? ((text: string) => void process.stdout.write(`${text}\n`));
  const err = world.err ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const cwd = world.cwd ?? process.cwd();
  // Loaded here, not at the top: other commands do not pay for the report and the rung loader.
  const [{ rescoreOutput, RESCORED_SUMMARY }, { ReportInputError }, { InputError }, models] = await Promise.all([
    import('../report/rescoreText.ts'), import('../results/read.ts'), import('../runner/rungFiles.ts'), import('../models/index.ts'),
  ]);
  try {
    // A judge model that cannot be made (no key, a bad spec) is said once, before anything is judged.
    if (args.judgeModel !== undefined) models.createModel(args.judgeModel, world.judgeWorld ?? {});
    const file = resolve(cwd, args.out ?? join(args.run, RESCORED_SUMMARY));
    const shown = relative(cwd, file);
    const { lines, text } = await rescoreOutput(resolve(cwd, args.run), {
      cwd, file, shownAs: shown.startsWith('..') ? file : shown, ...(args.rungs === undefined ? {} : { rungs: args.rungs }),
      ...(args.judgeModel === undefined ? {} : { judgeModel: args.judgeModel }), ...(world.judgeWorld === undefined ? {} : { judgeWorld: world.judgeWorld }),
    });
    for (const line of lines) out(line);
    out(text);
    return 0;
  } catch (error) {
    return inputMistake('rescore', error, err, [InputError, ReportInputError, models.ModelSpecError, models.ModelConfigError]);
  }
}

export const rescoreCommand: CommandModule<object, RescoreArgs> = {
  command: 'rescore <run> [rungs..]',
  describe: "Judge a run's recorded steps again with the current rung files (no model, no servers); writes summary.rescored.json",
  builder: (yargs) =>
    yargs
      .positional('run', RUN_FOLDER)
      .positional('rungs', { type: 'string', array: true, describe: "Rung files, folders or names to judge with (default: the files the run's manifest names)" })
      .option('out', { type: 'string', describe: 'Write the rescored summary here instead of <run>/summary.rescored.json' })
      .option('judge-model', {
        type: 'string', describe: "Answer judge checks the run kept no verdict for with this model (e.g. openai:gpt-5-mini); without it only kept verdicts answer",
      }),
  handler: async (argv) => {
    process.exitCode = await runRescore(argv);
  },
};
