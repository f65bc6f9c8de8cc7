#!/usr/bin/env node
// The mutation battery: Stryker over src/reliability/, then a second reading of its JSON
// report, because Stryker's own score can be trusted only so far:
// - a mutant reported Survived with testsCompleted 0 is a known Stryker-on-Vitest defect
//   (no test actually ran against it); it fails the battery like any survivor, named as such;
// - a battery with too few mutants proves little, so fewer than MIN_MUTANTS fails it too.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MIN_MUTANTS = 250; // the floor issue 2 set: below it the battery is close to vacuous
const REPORT = 'reports/mutation/mutation.json';
const DETECTED = new Set(['Killed', 'Timeout']);
const INVALID = new Set(['CompileError', 'RuntimeError', 'Ignored']);

const stryker = spawnSync('npx', ['stryker', 'run', 'stryker.conf.json', ...process.argv.slice(2)], {
  stdio: 'inherit',
});

let report;
try {
  report = JSON.parse(readFileSync(REPORT, 'utf8'));
} catch (error) {
  console.error(`mutate: no readable report at ${REPORT} (${error.message}); Stryker exited ${stryker.status}`);
  process.exit(1);
}

const problems = [];
let valid = 0;
let detected = 0;
const perFile = [];
for (const [file, { mutants }] of Object.entries(report.files)) {
  let fileValid = 0;
  let fileDetected = 0;
  for (const m of mutants) {
    if (INVALID.has(m.status)) continue;
    fileValid += 1;
    if (DETECTED.has(m.status)) {
      fileDetected += 1;
      continue;
    }
    const where = `${file}:${m.location.start.line}:${m.location.start.column}`;
    const ran = m.testsCompleted ?? 0;
    const note = m.status === 'Survived' && ran === 0 ? ' (reported Survived but no test ran: Stryker-on-Vitest defect)' : '';
    problems.push(`${m.status} ${m.mutatorName} at ${where}${note}: ${m.replacement ?? ''}`);
  }
  valid += fileValid;
  detected += fileDetected;
  perFile.push(`${file}: ${fileDetected}/${fileValid}`);
}

const score = valid === 0 ? 0 : (100 * detected) / valid;
console.log(`\nmutation battery: ${detected} of ${valid} mutants detected (${score.toFixed(2)}%)`);
for (const line of perFile) console.log(`  ${line}`);
if (valid < MIN_MUTANTS) problems.push(`only ${valid} valid mutants; the battery needs at least ${MIN_MUTANTS}`);
for (const p of problems) console.error(`mutate: ${p}`);
if (problems.length > 0 || stryker.status !== 0) {
  console.error(`mutate: FAILED (${problems.length} problem(s), Stryker exit ${stryker.status})`);
  process.exit(1);
}
console.log('mutate: passed, no survivors');
