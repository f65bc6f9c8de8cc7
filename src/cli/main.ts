// The `ladder` program: thin commands that parse, call one function and print.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { doctorCommand } from './doctor.ts';
import { runCommand } from './run.ts';

await yargs(hideBin(process.argv))
  .scriptName('ladder')
  .command(runCommand)
  .command(doctorCommand)
  .demandCommand(1, 'Name a command: ladder run, or ladder --help for the list.')
  .strict()
  .help()
  .parseAsync();
