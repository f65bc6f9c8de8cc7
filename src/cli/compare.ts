import type { CommandModule } from 'yargs';
import { inputMistake } from './errors.ts';
import { COMPARED_METRICS, DEFAULT_REPORT_SEED, FORMATS } from '../report/choices.ts';
import type { Format } from '../report/choices.ts';

export interface CompareArgs {
  readonly runA: string;
  readonly runB?: string;
  readonly format?: Format;
  readonly output?: string;
  readonly 'fail-if-worse'?: boolean;
  readonly gate?: readonly string[];
  readonly seed?: number;
  /** A price file over the shipped table: reprices the run(s) instead of the price they recorded. */
  readonly prices?: string;
}

export interface CompareWorld {
  /** Where the report goes when there is no --output. */
  readonly out?: (text: string) => void;
  /** One-line messages: errors, the gate's verdict, the file written. */
  readonly err?: (line: string) => void;
}

/**
 * Prints (or writes) the comparison; returns the exit code: 0, 1 when --fail-if-worse (or a
 * --gate) finds B significantly worse than A, 2 when the input cannot be read.
 */
export async function runCompare(args: CompareArgs, world: CompareWorld = {}): Promise<number> {
  const out = world.out ?? ((text: string) => void process.stdout.write(text));
  const err = world.err ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const { gateFailures, parseGates } = await import('../report/compare.ts');
  const { compareOutput } = await import('../report/output.ts');
  const { ReportInputError } = await import('../results/read.ts');
  const { writeOutputFile } = await import('../report/outputFile.ts');
  const { loadPrices, PriceFileError } = await import('../models/prices.ts');
  try {
    const gates = parseGates(args.gate ?? []);
    const prices = args.prices === undefined ? {} : { prices: loadPrices(args.prices) };
    const { report, text } = await compareOutput(args.runA, args.runB, { format: args.format ?? 'table', seed: args.seed ?? DEFAULT_REPORT_SEED, ...prices });
    if (args.output === undefined) out(text);
    else {
      writeOutputFile('--output', args.output, text);
      err(`ladder compare: wrote ${args.output}`);
    }
    // A gate named without --fail-if-worse still means "fail on this": naming it says so.
    if (args['fail-if-worse'] !== true && gates.length === 0) return 0;
    const failures = gateFailures(report, gates);
    for (const f of failures) err(`ladder compare: B is significantly worse than A on ${f.metric} (${f.label})`);
    return failures.length > 0 ? 1 : 0;
  } catch (error) {
    return inputMistake('compare', error, err, [ReportInputError, PriceFileError]);
  }
}

export const compareCommand: CommandModule<object, CompareArgs> = {
  command: 'compare <runA> [runB]',
  describe: 'Compare two runs (A before, B after; arms matched by name), or the arms of one run (each against the all-off arm)',
  builder: (yargs) =>
    yargs
      .positional('runA', { type: 'string', demandOption: true, describe: 'Results folder (results/<run-id>); A, the baseline' })
      .positional('runB', { type: 'string', describe: 'Second results folder: B, the change' })
      .option('format', { choices: FORMATS, default: 'table' as Format, describe: 'table (terminal), md (pull-request comment), json, html (one file)' })
      .option('output', { type: 'string', describe: 'Write to this file instead of standard output' })
      .option('fail-if-worse', { type: 'boolean', default: false, describe: 'Exit 1 when B is significantly worse than A on the step pass rate or a --gate metric' })
      .option('gate', { type: 'string', array: true, describe: `Also fail on these metrics: ${COMPARED_METRICS.join(', ')}` })
      .option('seed', { type: 'number', default: DEFAULT_REPORT_SEED, describe: 'Bootstrap seed (the same seed gives the same intervals)' })
      .option('prices', { type: 'string', describe: 'A JSON price file: cost the run(s) at these prices instead of those recorded when they ran' }),
  handler: async (argv) => {
    process.exitCode = await runCompare(argv);
  },
};
