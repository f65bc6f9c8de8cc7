// The `ladder` program: thin commands that parse, call one function and print.
//
// Every command module here is only its definition (flags, help) and imports what it runs
// inside its handler, so `ladder --help` and each command load nothing another command needs:
// no provider SDK, Vega, SQLite binding, MCP SDK or zod at start-up (test/cli/startup.test.ts
// checks the compiled entry point for this). A new command is one line below, written the same way.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { agentsCommand } from './agents.ts';
import { compareCommand } from './compare.ts';
import { doctorCommand } from './doctor.ts';
import { reportMistakes, runProgram } from './errors.ts';
import { exportCommand } from './export.ts';
import { gatewayCommand } from './gateway.ts';
import { judgeCommand } from './judge.ts';
import { mergeCommand } from './merge.ts';
import { probeCommand } from './probe.ts';
import { reportCommand } from './report.ts';
import { rescoreCommand } from './rescore.ts';
import { rungsCommand } from './rungs.ts';
import { runCommand } from './run.ts';
import { serveCommand } from './serve.ts';
import { showCommand } from './show.ts';

const args = hideBin(process.argv);
const program = yargs(args)
  .scriptName('ladder')
  .command(runCommand)
  .command(rungsCommand)
  .command(mergeCommand)
  .command(compareCommand)
  .command(reportCommand)
  .command(showCommand)
  .command(rescoreCommand)
  .command(judgeCommand)
  .command(exportCommand)
  .command(doctorCommand)
  .command(agentsCommand)
  .command(serveCommand)
  .command(gatewayCommand)
  .command(probeCommand);
reportMistakes(program, args)
  .demandCommand(1, 'Name a command: ladder run, or ladder --help for the list.')
  .strict()
  .help();
await runProgram(program);
