import type { CommandModule } from 'yargs';
import { inputMistake } from './errors.ts';

// `ladder merge <out> <shards..>`: joins shard folders of one run into one results folder,
// then writes its summary.json. The runner is imported when the command runs.

export interface MergeArgs {
  out: string;
  shards: string[];
}

/** Returns 0 merged, 2 when the shards cannot be joined (one line per reason). */
export async function runMerge(
  args: MergeArgs,
  say: (line: string) => void = (line) => void process.stdout.write(`${line}\n`),
  err: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
): Promise<number> {
  const { mergeShards } = await import('../runner/merge.ts');
  const { InputError } = await import('../runner/rungFiles.ts');
  const { writeSummary } = await import('../report/summary.ts');
  try {
    const merged = await mergeShards(args.out, args.shards, process.cwd());
    const summary = await writeSummary(merged.out);
    const { damaged } = summary.traces;
    const { plural } = await import('../report/words.ts');
    // Traces are copied whole, damage included: the merged run says what its figures leave out.
    say(`merged ${plural(args.shards.length, 'shard')} into ${args.out}: ${plural(merged.passes, 'pass', 'passes')}` +
      (damaged === 0 ? '' : ` (${damaged} damaged, left out of every figure)`));
    return 0;
  } catch (error) {
    return inputMistake('merge', error, err, [InputError]);
  }
}

export const mergeCommand: CommandModule<object, MergeArgs> = {
  command: 'merge <out> <shards..>',
  describe: 'Join the folders of ladder run --shard i/n into one run (same run and options, every shard complete)',
  builder: (yargs) =>
    yargs
      .positional('out', { type: 'string', demandOption: true, describe: 'The merged results folder (must not exist)' })
      .positional('shards', { type: 'string', array: true, demandOption: true, describe: 'The shard folders' }),
  handler: async (argv) => {
    process.exitCode = await runMerge(argv);
  },
};
