// The named mutation battery: each mutation in test/mutation/named.ts is one behaviour broken
// on purpose (an exact search and replace in one file), applied alone to a scratch copy of the
// repository, with only the test files it declares run against it. Prints the table
// (mutation | tests failed) and fails when any mutation fails no test, or when its search text
// is no longer in the file exactly once (the code moved: the mutation must follow it).
//
//   npm run mutate:named                 # every mutation
//   npm run mutate:named -- --only cap   # those whose name or file contains "cap"
import { spawnSync } from 'node:child_process';
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

function vitest(dir: string, files: readonly string[]): Run {
  const out = join(dir, '.named-result.json');
  rmSync(out, { force: true });
  spawnSync(process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...files, '--reporter=json', `--outputFile=${out}`], {
    cwd: dir, encoding: 'utf8', env: { ...process.env, CI: 'true' },
  });
  let result: { numFailedTests: number; numPassedTests: number; testResults: { status: string; assertionResults: unknown[] }[] };
  try {
    result = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    return { failed: 0, passed: 0, broken: 1 };
  }
  const broken = result.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  return { failed: result.numFailedTests, passed: result.numPassedTests, broken };
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

function main(): void {
  const only = process.argv.indexOf('--only');
  const filter = only >= 0 ? process.argv[only + 1] ?? '' : '';
  const chosen = NAMED_MUTATIONS.filter((m) => m.name.includes(filter) || m.file.includes(filter));
  const names = new Set<string>();
  for (const m of NAMED_MUTATIONS) {
    if (names.has(m.name)) throw new Error(`two named mutations are called ${JSON.stringify(m.name)}`);
    names.add(m.name);
  }
  const dir = scratchCopy();
  const problems: string[] = [];
  const rows: string[] = [];
  try {
    const files = [...new Set(chosen.flatMap((m) => m.tests))];
    const baseline = vitest(dir, files);
    if (baseline.failed > 0 || baseline.broken > 0 || baseline.passed === 0) {
      throw new Error(`the declared tests do not pass unmutated (${baseline.failed} failed, ${baseline.broken} files broken)`);
    }
    console.log(`named mutations: ${chosen.length}, over ${files.length} test files (${baseline.passed} tests pass unmutated)\n`);
    console.log('| mutation | file | tests failed |');
    console.log('|---|---|---|');
    for (const m of chosen) {
      const original = readFileSync(join(dir, m.file), 'utf8');
      const problem = apply(dir, m);
      let cell: string;
      if (problem !== undefined) {
        problems.push(`${m.name}: ${problem}`);
        cell = 'not applied';
      } else {
        const run = vitest(dir, m.tests);
        writeFileSync(join(dir, m.file), original);
        const failed = run.failed + run.broken;
        cell = run.broken > 0 ? `${failed} (a file did not load)` : String(failed);
        if (failed === 0) problems.push(`${m.name}: no test failed (${m.breaks})`);
      }
      const row = `| ${m.name} | ${m.file} | ${cell} |`;
      rows.push(row);
      console.log(row);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const p of problems) console.error(`mutate:named: ${p}`);
  if (problems.length > 0) {
    console.error(`mutate:named: FAILED (${problems.length} of ${chosen.length})`);
    process.exit(1);
  }
  console.log(`\nmutate:named: passed, every one of ${chosen.length} mutations failed at least one test`);
}

main();
