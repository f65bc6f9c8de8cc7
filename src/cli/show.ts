import type { CommandModule } from 'yargs';
import { inputMistake, RUN_FOLDER } from './errors.ts';

export interface ShowArgs {
  readonly run: string;
  readonly rung?: string;
  readonly arm?: string;
  readonly pass?: number;
  readonly step?: number;
  readonly full?: boolean;
}

export interface ShowWorld {
  readonly out?: (text: string) => void;
  readonly err?: (line: string) => void;
  /** Colour the output; by default on a terminal unless NO_COLOR is set (no-color.org). */
  readonly colour?: boolean;
}

/** Colour on a terminal, unless NO_COLOR is set to anything but '' (no-color.org). */
export function colourByDefault(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  const noColor = env['NO_COLOR'];
  return stream.isTTY === true && (noColor === undefined || noColor === '');
}

/** Prints the run's passes that did not pass, or one pass's transcript; 0, or 2 on a name that matches nothing. */
export async function runShow(args: ShowArgs, world: ShowWorld = {}): Promise<number> {
  const out = world.out ?? ((text: string) => void process.stdout.write(text));
  const err = world.err ?? ((line: string) => void process.stderr.write(`${line}\n`));
  // The report is loaded by the command that uses it, not by every `ladder` start.
  const { ansiColour, noColour } = await import('../report/render/transcriptText.ts');
  const { ReportInputError } = await import('../results/read.ts');
  const { showText } = await import('../report/show.ts');
  try {
    out(await showText(args, (world.colour ?? colourByDefault()) ? ansiColour : noColour));
    return 0;
  } catch (error) {
    return inputMistake('show', error, err, [ReportInputError]);
  }
}

export const showCommand: CommandModule<object, ShowArgs> = {
  command: 'show <run> [rung]',
  describe: 'List the passes of a run that did not pass, with why; with a rung, print one pass as a transcript',
  builder: (yargs) =>
    yargs
      .positional('run', RUN_FOLDER)
      .positional('rung', { type: 'string', describe: 'Rung whose pass to print' })
      .option('arm', { type: 'string', describe: 'Arm of the pass (default: the first pass that did not pass)' })
      .option('pass', { type: 'number', describe: 'Pass index, 0-based (default: the first that did not pass)' })
      .option('step', { type: 'number', describe: 'Only this step (0-based, as the report numbers steps)' })
      .option('full', { type: 'boolean', default: false, describe: 'Fold nothing: print long results whole' }),
  handler: async (argv) => {
    process.exitCode = await runShow(argv);
  },
};
