import type { Argv, CommandModule } from 'yargs';
import type { AdapterOptions } from '../models/index.ts';
import { inputMistake, RUN_FOLDER } from './errors.ts';

export interface AgreementArgs {
  readonly run: string;
  readonly model?: string;
  readonly rubric?: string;
  readonly rungs?: readonly string[];
  readonly json?: boolean;
}

export interface JudgeWorld {
  readonly cwd?: string;
  readonly out?: (text: string) => void;
  readonly err?: (line: string) => void;
  /** Seams for the judge model's adapter (endpoint, key, environment). */
  readonly adapter?: AdapterOptions;
}

/**
 * `ladder judge agreement <run>`: the judge over the run's decided step-runs, and its agreement
 * with their checks. 0 when reported, 2 on bad input (one line each).
 */
export async function runJudgeAgreement(args: AgreementArgs, world: JudgeWorld = {}): Promise<number> {
  const out = world.out ?? ((text: string) => void process.stdout.write(`${text}\n`));
  const err = world.err ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const [{ judgeAgreement }, { agreementText }, { ReportInputError }, { InputError }, models] = await Promise.all([
    import('../report/agreementRun.ts'), import('../report/agreementText.ts'), import('../results/read.ts'),
    import('../runner/rungFiles.ts'), import('../models/index.ts'),
  ]);
  try {
    // Long with a real judge (one request per step-run): a line per tenth, on stderr.
    let shown = -1;
    const report = await judgeAgreement(args.run, {
      cwd: world.cwd ?? process.cwd(),
      ...(args.model === undefined ? {} : { model: args.model }),
      ...(args.rubric === undefined ? {} : { rubric: args.rubric }),
      ...(args.rungs === undefined || args.rungs.length === 0 ? {} : { rungs: args.rungs }),
      ...(world.adapter === undefined ? {} : { world: world.adapter }),
      progress: (done, total) => {
        const tenth = Math.floor((done * 10) / total);
        if (tenth === shown) return;
        shown = tenth;
        err(`judged ${done} of ${total} step-runs`);
      },
    });
    if (args.json === true) out(JSON.stringify(report, null, 2));
    else for (const line of agreementText(report)) out(line);
    return 0;
  } catch (error) {
    return inputMistake('judge agreement', error, err, [ReportInputError, InputError, models.ModelSpecError, models.ModelConfigError]);
  }
}

const agreementCommand: CommandModule<object, AgreementArgs> = {
  command: 'agreement <run> [rungs..]',
  describe: "How far a judge model agrees with a run's deterministic checks (Cohen's kappa, raw agreement, 95% intervals)",
  builder: (yargs) =>
    yargs
      .positional('run', RUN_FOLDER)
      .positional('rungs', { type: 'string', array: true, describe: "Rung files, folders or names (default: the files the run's manifest names)" })
      .option('model', { type: 'string', describe: "The judge model, e.g. openai:gpt-5-mini (default: the run's model)" })
      .option('rubric', { type: 'string', describe: 'What a step must have done to pass (default: the task, done correctly)' })
      .option('json', { type: 'boolean', default: false, describe: 'The report as JSON' }) as unknown as Argv<AgreementArgs>,
  handler: async (argv) => {
    process.exitCode = await runJudgeAgreement(argv);
  },
};

export const judgeCommand: CommandModule = {
  command: 'judge',
  describe: "A judge model's trustworthiness: ladder judge agreement <run>",
  builder: (yargs) => yargs.command(agreementCommand).demandCommand(1, 'Name a judge command: ladder judge agreement <run>'),
  handler: () => undefined,
};
