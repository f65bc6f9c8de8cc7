#!/usr/bin/env node
// The mutation battery: Stryker over the files stryker.conf.json names, then a second reading
// of its JSON report, because Stryker's own score can be trusted only so far:
// - a mutant reported Survived with testsCompleted 0 is a known Stryker-on-Vitest defect
//   (no test actually ran against it); it fails the battery like any survivor, named as such;
// - a battery with too few mutants proves little, so fewer than MIN_MUTANTS fails it too;
// - a compile error that is a missing module fails it: the checkout changed under the run;
// - a mutant that cannot change behaviour may be listed in test/mutation/equivalent.json with
//   its reason; it is then not a survivor, and an entry that matches no surviving (or timed-out)
//   mutant fails the battery, so the list cannot outlive the code it describes.
// Runs are incremental (the committed test/mutation/stryker-incremental.json): only mutants of
// changed code, or covered by changed tests, are tested again. `npm run mutate -- --force`
// tests every mutant.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MIN_MUTANTS = 250; // the floor issue 2 set: below it the battery is close to vacuous
const REPORT = 'reports/mutation/mutation.json';
const EQUIVALENT = 'test/mutation/equivalent.json';
const DETECTED = new Set(['Killed', 'Timeout']);
const INVALID = new Set(['CompileError', 'RuntimeError', 'Ignored']);

/** A mutant's id in the equivalent list: where it is and what it does, stable across runs. */
const idOf = (file, m) => `${file}@${m.location.start.line}:${m.location.start.column} ${m.mutatorName}`;

const equivalent = JSON.parse(readFileSync(EQUIVALENT, 'utf8'));
const started = Date.now();
const stryker = spawnSync('npx', ['stryker', 'run', 'stryker.conf.json', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
const minutes = ((Date.now() - started) / 60_000).toFixed(1);

let report;
try {
  report = JSON.parse(readFileSync(REPORT, 'utf8'));
} catch (error) {
  console.error(`mutate: no readable report at ${REPORT} (${error.message}); Stryker exited ${stryker.status}`);
  process.exit(1);
}

const problems = [];
const unused = new Map(equivalent.map((e) => [e.id, e]));
let valid = 0;
let detected = 0;
let excused = 0;
const perFile = [];
for (const [file, { mutants }] of Object.entries(report.files)) {
  let fileValid = 0;
  let fileDetected = 0;
  let fileExcused = 0;
  for (const m of mutants) {
    // A module the checker cannot find is never a mutant's doing (no mutator touches an import):
    // the checkout changed under a running Stryker. Counted as invalid it would hide the mutant.
    if (m.status === 'CompileError' && /error TS2307: Cannot find module/.test(m.statusReason ?? '')) {
      problems.push(`CompileError at ${file}:${m.location.start.line}:${m.location.start.column} is not the mutant's: ${m.statusReason.split('\n')[0]}; run again on an unchanged checkout`);
      continue;
    }
    if (INVALID.has(m.status)) continue;
    fileValid += 1;
    const listed = unused.get(idOf(file, m));
    if (DETECTED.has(m.status)) {
      fileDetected += 1;
      // An equivalent mutant whose tests outlast Stryker's timeout (the interval bisection's 60
      // halvings under its coverage counters) is reported Timeout on one machine and Survived on
      // another: its entry stands either way, and the mutant counts as detected as Stryker counts it.
      if (m.status === 'Timeout' && listed !== undefined && listed.replacement === m.replacement) unused.delete(listed.id);
      continue;
    }
    if (m.status === 'Survived' && listed !== undefined && listed.replacement === m.replacement) {
      unused.delete(listed.id);
      fileExcused += 1;
      continue;
    }
    const where = `${file}:${m.location.start.line}:${m.location.start.column}`;
    const ran = m.testsCompleted ?? 0;
    const note = m.status === 'Survived' && ran === 0 ? ' (reported Survived but no test ran: Stryker-on-Vitest defect)' : '';
    problems.push(`${m.status} ${m.mutatorName} at ${where}${note}: ${m.replacement ?? ''}`);
  }
  valid += fileValid;
  detected += fileDetected;
  excused += fileExcused;
  perFile.push(`${file}: ${fileDetected}/${fileValid} killed${fileExcused > 0 ? `, ${fileExcused} equivalent` : ''}`);
}
// An entry for a file this run did not mutate (a run over fewer files, `-- --mutate <files>`) is not judged.
for (const e of unused.values()) {
  if (report.files[e.id.slice(0, e.id.indexOf('@'))] === undefined) continue;
  problems.push(`${EQUIVALENT}: ${e.id} matches no surviving mutant; remove or update it`);
}

const score = valid === 0 ? 0 : (100 * detected) / valid;
console.log(`\nmutation battery: ${detected} of ${valid} mutants detected (${score.toFixed(2)}%)` +
  `${excused > 0 ? `, ${excused} listed as equivalent` : ''}, in ${minutes} min`);
for (const line of perFile) console.log(`  ${line}`);
if (valid < MIN_MUTANTS) problems.push(`only ${valid} valid mutants; the battery needs at least ${MIN_MUTANTS}`);
for (const p of problems) console.error(`mutate: ${p}`);
if (problems.length > 0 || stryker.status !== 0) {
  console.error(`mutate: FAILED (${problems.length} problem(s), Stryker exit ${stryker.status})`);
  process.exit(1);
}
console.log('mutate: passed, no survivors');
