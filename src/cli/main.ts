// The `ladder` program: thin commands that parse, call one function and print.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { reportMistakes, runProgram } from './errors.ts';
import { serveCommand } from './serve.ts';

const args = hideBin(process.argv);
const program = yargs(args).scriptName('ladder').command(serveCommand);
// `ladder serve` starts once per pass of a run (the workbench of every pass), so it loads only
// its own command: the others import the model SDKs, about 2 s of CPU per start on the 2-core
// target machine (measured), which would be most of what a synthetic pass costs.
if (args[0] !== 'serve') {
  const [{ runCommand }, { doctorCommand }, { rungsCommand }, { mergeCommand }, { compareCommand }, { reportCommand }, { probeCommand }, { exportCommand }] =
    await Promise.all([
      import('./run.ts'),
      import('./doctor.ts'),
      import('./rungs.ts'),
      import('./merge.ts'),
      import('./compare.ts'),
      import('./report.ts'),
      import('./probe.ts'),
      import('./export.ts'),
    ]);
  program
    .command(runCommand)
    .command(doctorCommand)
    .command(rungsCommand)
    .command(mergeCommand)
    .command(compareCommand)
    .command(reportCommand)
    .command(probeCommand)
    .command(exportCommand);
  program.command((await import('./show.ts')).showCommand);
}
reportMistakes(program, args)
  .demandCommand(1, 'Name a command: ladder run, or ladder --help for the list.')
  .strict()
  .help();
await runProgram(program);
