import type { CommandModule } from 'yargs';
import { inputMistake, RUN_FOLDER } from './errors.ts';
import type { Transport } from '../export/index.ts';

// `ladder export <run> --otlp <url>`: the run's traces as OpenTelemetry spans, sent to an
// OTLP/HTTP collector (docs/export.md). The exporter is imported when the command runs.

export interface ExportArgs {
  readonly run: string;
  readonly otlp: string;
  readonly header?: readonly string[];
  readonly content?: boolean;
}

export interface ExportWorld {
  /** The result line. */
  readonly out?: (line: string) => void;
  /** Errors and what was left out, one line each. */
  readonly err?: (line: string) => void;
  readonly env?: NodeJS.ProcessEnv;
  readonly transport?: Transport;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/**
 * Returns 0 when every counted pass was sent and taken, 1 when the collector rejected some
 * spans, 2 when the export could not be made (no such run, a bad URL or header, a collector
 * that cannot be reached or answers with an error).
 */
export async function runExport(args: ExportArgs, world: ExportWorld = {}): Promise<number> {
  const out = world.out ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const err = world.err ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const { exportRun, ExportError } = await import('../export/index.ts');
  const { ReportInputError } = await import('../results/read.ts');
  const transport = world.transport ?? { fetch, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };
  const env = world.env ?? process.env;
  try {
    const summary = await exportRun(args.run, {
      otlp: args.otlp, headers: args.header ?? [], content: args.content === true,
      ...(env['OTEL_EXPORTER_OTLP_HEADERS'] === undefined ? {} : { envHeaders: env['OTEL_EXPORTER_OTLP_HEADERS'] }),
    }, transport);
    const { leftOut } = summary;
    for (const line of leftOut.problems) err(`ladder export: ${line}`);
    if (leftOut.incomplete > 0) {
      err(`ladder export: ${plural(leftOut.incomplete, 'incomplete pass', 'incomplete passes')} left out (interrupted; ladder run --out ${args.run} --resume makes them)`);
    }
    if (leftOut.duplicates > 0) err(`ladder export: ${plural(leftOut.duplicates, 'duplicate pass', 'duplicate passes')} left out (the first of each kept)`);
    if (summary.withoutContent > 0) {
      err(`ladder export: ${plural(summary.withoutContent, 'pass', 'passes')} sent without content: the run was redacted or recorded no conversation`);
    }
    out(summary.passes === 0
      ? `ladder export: no complete pass in ${args.run}; nothing sent`
      : `ladder export: sent ${plural(summary.passes, 'pass', 'passes')} (${plural(summary.spans, 'span', 'spans')}, ` +
        `${plural(summary.requests, 'request', 'requests')}) to ${summary.endpoint}`);
    if (summary.rejected > 0) {
      const why = summary.rejections.length === 0 ? '' : `: ${summary.rejections[0]}`;
      err(`ladder export: the collector rejected ${plural(summary.rejected, 'span', 'spans')}${why}`);
      return 1;
    }
    return 0;
  } catch (error) {
    return inputMistake('export', error, err, [ExportError, ReportInputError]);
  }
}

export const exportCommand: CommandModule<object, ExportArgs> = {
  command: 'export <run>',
  describe: 'Send a run\'s traces to an OpenTelemetry collector as OTLP/HTTP spans (GenAI and MCP conventions)',
  builder: (yargs) =>
    yargs
      .positional('run', RUN_FOLDER)
      .option('otlp', { type: 'string', demandOption: true, describe: 'The collector\'s OTLP/HTTP address, e.g. http://127.0.0.1:4318 (/v1/traces is added)' })
      .option('header', { type: 'string', array: true, describe: 'name=value sent with every request (auth), repeatable; also read from OTEL_EXPORTER_OTLP_HEADERS' })
      .option('content', { type: 'boolean', default: false, describe: 'Attach prompts, replies, tool arguments and results (opt-in GenAI attributes); never for a redacted run' }),
  handler: async (argv) => {
    process.exitCode = await runExport(argv);
  },
};
