// Every command-line mistake is one line naming it (and the nearest valid flag or command) on
// stderr, and exit code 2: the real commands' definitions, parsed as the program parses them.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { compareCommand } from '../../src/cli/compare.ts';
import { doctorCommand } from '../../src/cli/doctor.ts';
import { editDistance, nearest, reportMistakes, runProgram, typedValue } from '../../src/cli/errors.ts';
import { mergeCommand } from '../../src/cli/merge.ts';
import { probeCommand } from '../../src/cli/probe.ts';
import { reportCommand } from '../../src/cli/report.ts';
import { runCommand } from '../../src/cli/run.ts';
import { rungsCommand } from '../../src/cli/rungs.ts';
import { serveCommand } from '../../src/cli/serve.ts';

/** The program as main.ts builds it; only mistakes are fed to it, so no handler runs. */
async function mistake(line: string): Promise<{ lines: string[]; exitCode: number | undefined }> {
  const args = line === '' ? [] : line.split(' ');
  const program = yargs(args).scriptName('ladder')
    .command(serveCommand).command(runCommand).command(doctorCommand).command(rungsCommand)
    .command(mergeCommand).command(compareCommand).command(reportCommand).command(probeCommand);
  reportMistakes(program, args).demandCommand(1, 'Name a command: ladder run, or ladder --help for the list.').strict().help();
  const lines: string[] = [];
  await runProgram(program, (l) => void lines.push(l));
  const exitCode = process.exitCode as number | undefined;
  process.exitCode = undefined;
  return { lines, exitCode };
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('a mistake on the command line', () => {
  it.each([
    ['run --pases 3', 'ladder run: unknown flag --pases; did you mean --passes?'],
    ['run --pases 3 --foo', 'ladder run: unknown flag --pases; did you mean --passes? (and --foo)'],
    ['run --zzzzzz', 'ladder run: unknown flag --zzzzzz; ladder run --help lists the flags'],
    ['run --time-factr 0.01', 'ladder run: unknown flag --time-factr; did you mean --time-factor?'],
    ['rnu', 'ladder: unknown command rnu; did you mean ladder run?'],
    ['comprae a b', 'ladder: unknown command comprae; did you mean ladder compare?'],
    ['xyzzy', 'ladder: unknown command xyzzy; the commands are serve, run, doctor, rungs, merge, compare, report, probe'],
    ['', 'ladder: name a command: serve, run, doctor, rungs, merge, compare, report, probe (ladder --help says what each does)'],
    ['rungs valdate', 'ladder rungs: unknown command valdate; did you mean ladder rungs validate?'],
    ['rungs', 'ladder rungs: name a command: validate, calibrate, new (ladder rungs --help says what each does)'],
    ['run --passes abc', 'ladder run: --passes abc: expected a number'],
    ['run --passes=abc', 'ladder run: --passes abc: expected a number'],
    ['run --seed 1e', 'ladder run: --seed 1e: expected a number'],
    ['run --passes', 'ladder run: --passes needs a value'],
    ['run --model --passes 2', 'ladder run: --model needs a value'],
    ['run --mode fast', 'ladder run: --mode fast is not one of steps, oneshot'],
    ['run --mode step', 'ladder run: --mode step is not one of steps, oneshot; did you mean steps?'],
    ['doctor', 'ladder doctor: name what to check: --model <spec> (a model) or --agent <name> (an external agent)'],
    ['doctor --modle ollama:x', 'ladder doctor: unknown flag --modle; did you mean --model?'],
    ['compare', 'ladder compare: missing an argument; usage: ladder compare <runA> [runB]'],
    ['merge out', 'ladder merge: missing an argument; usage: ladder merge <out> <shards..>'],
    ['compare a --format pdf', 'ladder compare: --format pdf is not one of table, md, json, html'],
    ['serve --workspace', 'ladder serve: --workspace needs a value'],
    ['serve --workspace w --port eighty', 'ladder serve: --port eighty: expected a number'],
    ['rungs validate --time-factor', 'ladder rungs validate: --time-factor needs a value'],
    ['probe --timeout soon', 'ladder probe: --timeout soon: expected a number'],
  ])('ladder %s', async (line, expected) => {
    const { lines, exitCode } = await mistake(line);
    expect(lines).toEqual([expected]);
    expect(exitCode).toBe(2);
  });

  it('leaves a negative number and a bare boolean alone', async () => {
    // A value that starts with a minus sign is still a value; --resume takes none.
    const { lines } = await mistake('run --seed -3 --resume --pases 1');
    expect(lines).toEqual(['ladder run: unknown flag --pases; did you mean --passes?']);
  });
});

describe('nearest', () => {
  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('modle', 'model')).toBe(1);
    expect(editDistance('passes', 'passes')).toBe(0);
    expect(editDistance('', 'arm')).toBe(3);
  });

  it('suggests only what is close enough to be meant', () => {
    expect(nearest('pases', ['passes', 'arms', 'seed'])).toBe('passes');
    expect(nearest('arm', ['passes', 'arms'])).toBe('arms');
    expect(nearest('zzzz', ['passes', 'arms'])).toBeUndefined();
    expect(nearest('x', [])).toBeUndefined();
  });

  it('reads the value typed for a flag, the last one given', () => {
    expect(typedValue(['--passes', 'abc'], 'passes')).toBe('abc');
    expect(typedValue(['--time-factor=x', '--time-factor', 'y'], 'time-factor')).toBe('y');
    expect(typedValue(['--', '--passes', 'abc'], 'passes')).toBeUndefined();
  });
});

describe('the ladder command', () => {
  const exec = promisify(execFile);
  it('prints the one line on stderr, nothing on stdout, and exits 2', async () => {
    const failed = await exec(process.execPath, ['bin/ladder.js', 'run', '--pases', '3']).then(() => undefined, (e: { code: number; stdout: string; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2, stdout: '', stderr: 'ladder run: unknown flag --pases; did you mean --passes?\n' });
  });
});
