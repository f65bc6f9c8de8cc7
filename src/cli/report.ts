import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { inputMistake, RUN_FOLDER } from './errors.ts';
import { DEFAULT_REPORT_SEED } from '../report/choices.ts';

export interface ReportArgs {
  readonly run: string;
  readonly output?: string;
  readonly seed?: number;
  /** A price file over the shipped table: reprices the run(s) instead of the price they recorded. */
  readonly prices?: string;
}

/** Writes one run's HTML report (to <run>/report.html by default); 0 when written, 2 on bad input. */
export async function runReport(
  args: ReportArgs,
  world: { out?: (line: string) => void; err?: (line: string) => void } = {},
): Promise<number> {
  const out = world.out ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const err = world.err ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const { runReportHtml } = await import('../report/output.ts');
  const { ReportInputError } = await import('../results/read.ts');
  const { writeOutputFile } = await import('../report/outputFile.ts');
  const { loadPrices, PriceFileError } = await import('../models/prices.ts');
  try {
    const prices = args.prices === undefined ? {} : { prices: loadPrices(args.prices) };
    const html = await runReportHtml(args.run, { seed: args.seed ?? DEFAULT_REPORT_SEED, ...prices });
    const path = args.output ?? join(args.run, 'report.html');
    writeOutputFile('--output', path, html);
    out(`ladder report: wrote ${path}`);
    return 0;
  } catch (error) {
    return inputMistake('report', error, err, [ReportInputError, PriceFileError]);
  }
}

export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report <run>',
  describe: 'Write the HTML report of one run (its arms compared, with plots; one file that opens offline)',
  builder: (yargs) =>
    yargs
      .positional('run', RUN_FOLDER)
      .option('output', { type: 'string', describe: 'Write here instead of <run>/report.html' })
      .option('seed', { type: 'number', default: DEFAULT_REPORT_SEED, describe: 'Bootstrap seed (the same seed gives the same intervals)' })
      .option('prices', { type: 'string', describe: 'A JSON price file: cost the run(s) at these prices instead of those recorded when they ran' }),
  handler: async (argv) => {
    process.exitCode = await runReport(argv);
  },
};
