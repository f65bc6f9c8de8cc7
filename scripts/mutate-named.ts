// The named mutation battery: each mutation in test/mutation/named.ts is one behaviour broken
// on purpose (an exact search and replace in one file), applied alone to a scratch copy of the
// repository, with only the test files it declares run against it. Prints the table
// (mutation | tests failed) and fails when any mutation fails no test, or when its search text
// is no longer in the file exactly once (the code moved: the mutation must follow it).
//
// Two mutations run at a time, each in a scratch copy of its own (--jobs N for another count):
// a run is mostly Vitest starting and transforming, one core's work, so two keep both cores of
// the CI machine busy. Every mutation still runs, alone in its copy, against all its tests.
//
//   npm run mutate:named                   # every mutation
//   npm run mutate:named -- --only cap     # those whose name or file contains "cap"
//   npm run mutate:named -- --jobs 1       # one at a time
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NAMED_MUTATIONS, type NamedMutation } from '../test/mutation/named.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ladder-named-'));
  const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter((f) => f !== '')) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

interface Run {
  failed: number;
  passed: number;
  /** A file that failed to load (a syntax error the mutation made) counts as one failure. */
  broken: number;
}

/** The test files' results when they run in `dir`; `failing` names the tests that failed. */
async function vitest(dir: string, files: readonly string[]): Promise<Run & { failing: string[] }> {
  const out = join(dir, '.named-result.json');
  rmSync(out, { force: true });
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...files, '--reporter=json', `--outputFile=${out}`], {
    cwd: dir, stdio: 'ignore', env: { ...process.env, CI: 'true' },
  });
  await new Promise((resolve) => child.once('close', resolve));
  let result: {
    numFailedTests: number; numPassedTests: number;
    testResults: { name: string; status: string; assertionResults: { fullName: string; status: string }[] }[];
  };
  try {
    result = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    return { failed: 0, passed: 0, broken: 1, failing: ['(no result: Vitest did not finish)'] };
  }
  const broken = result.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0);
  const failing = result.testResults.flatMap((f) => [
    ...(f.status === 'failed' && f.assertionResults.length === 0 ? [`${f.name.slice(dir.length + 1)} (did not load)`] : []),
    ...f.assertionResults.filter((a) => a.status === 'failed').map((a) => `${f.name.slice(dir.length + 1)} > ${a.fullName}`),
  ]);
  return { failed: result.numFailedTests, passed: result.numPassedTests, broken: broken.length, failing };
}

function apply(dir: string, m: NamedMutation): string | undefined {
  const path = join(dir, m.file);
  let text = readFileSync(path, 'utf8');
  for (const { search, replace } of m.edits) {
    const at = text.indexOf(search);
    if (at < 0) return `search text not found in ${m.file}: ${JSON.stringify(search.slice(0, 80))}`;
    if (text.indexOf(search, at + 1) >= 0) return `search text found more than once in ${m.file}: ${JSON.stringify(search.slice(0, 80))}`;
    text = text.slice(0, at) + replace + text.slice(at + search.length);
  }
  writeFileSync(path, text);
  return undefined;
}

/** Applies `m` alone in `dir`, runs its tests, puts the file back; the table's cell and any problem. */
async function runOne(dir: string, m: NamedMutation): Promise<{ cell: string; problem?: string }> {
  const original = readFileSync(join(dir, m.file), 'utf8');
  const problem = apply(dir, m);
  if (problem !== undefined) return { cell: 'not applied', problem: `${m.name}: ${problem}` };
  try {
    const run = await vitest(dir, m.tests);
    const failed = run.failed + run.broken;
    const cell = run.broken > 0 ? `${failed} (a file did not load)` : String(failed);
    return failed === 0 ? { cell, problem: `${m.name}: no test failed (${m.breaks})` } : { cell };
  } finally {
    writeFileSync(join(dir, m.file), original);
  }
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] ?? '' : undefined;
}

async function main(): Promise<void> {
  const filter = option('--only') ?? '';
  const jobs = Number(option('--jobs') ?? '2');
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error(`--jobs must be a whole number of at least 1, got ${option('--jobs')}`);
  const chosen = NAMED_MUTATIONS.filter((m) => m.name.includes(filter) || m.file.includes(filter));
  const names = new Set<string>();
  for (const m of NAMED_MUTATIONS) {
    if (names.has(m.name)) throw new Error(`two named mutations are called ${JSON.stringify(m.name)}`);
    names.add(m.name);
  }
  const started = Date.now();
  const dirs = Array.from({ length: Math.min(jobs, Math.max(chosen.length, 1)) }, scratchCopy);
  const problems: string[] = [];
  try {
    // The baseline: every declared test file passes unmutated, split between the copies.
    const files = [...new Set(chosen.flatMap((m) => m.tests))];
    const shares = dirs.map((_, i) => files.filter((__, j) => j % dirs.length === i));
    const baselines = await Promise.all(dirs.map((dir, i) => (shares[i]!.length === 0 ? undefined : vitest(dir, shares[i]!))));
    const passed = baselines.reduce((sum, b) => sum + (b?.passed ?? 0), 0);
    const failing = baselines.flatMap((b) => b?.failing ?? []);
    if (failing.length > 0 || passed === 0) {
      throw new Error(`the declared tests do not pass unmutated: ${failing.length === 0 ? 'no test ran' : failing.join('; ')}`);
    }
    console.log(`named mutations: ${chosen.length}, over ${files.length} test files (${passed} tests pass unmutated), ${dirs.length} at a time\n`);
    console.log('| mutation | file | tests failed |');
    console.log('|---|---|---|');
    // Each copy takes the next mutation when it is free; rows print in the list's order.
    const results: ({ cell: string; problem?: string } | undefined)[] = chosen.map(() => undefined);
    let next = 0;
    let printed = 0;
    const print = (): void => {
      while (printed < chosen.length && results[printed] !== undefined) {
        const m = chosen[printed]!;
        const { cell, problem } = results[printed]!;
        if (problem !== undefined) problems.push(problem);
        console.log(`| ${m.name} | ${m.file} | ${cell} |`);
        printed += 1;
      }
    };
    await Promise.all(dirs.map(async (dir) => {
      while (next < chosen.length) {
        const i = next;
        next += 1;
        results[i] = await runOne(dir, chosen[i]!);
        print();
      }
    }));
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  for (const p of problems) console.error(`mutate:named: ${p}`);
  if (problems.length > 0) {
    console.error(`mutate:named: FAILED (${problems.length} of ${chosen.length}), in ${minutes} min`);
    process.exit(1);
  }
  console.log(`\nmutate:named: passed, every one of ${chosen.length} mutations failed at least one test, in ${minutes} min`);
}

await main();
