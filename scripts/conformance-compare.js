// Compares two `conformance server --output-dir` folders: the scenarios a server passed run
// directly against those it passed behind `ladder gateway`. A scenario passes when none of its
// checks is a FAILURE (the suite's own rule for its summary). Prints both lists side by side and
// exits 1 unless the gateway passes every scenario the direct server passes, bar the entries of
// the baseline file (each with its reason); an entry that no longer holds fails too, so the
// baseline cannot go stale.
// Usage: node scripts/conformance-compare.js DIRECT_DIR GATEWAY_DIR BASELINE.yml
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** Scenario name -> passed, from folders named `server-<scenario>-<ISO time with - for : and .>`. */
function results(dir) {
  const passed = new Map();
  for (const entry of readdirSync(dir)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.exec(entry)?.[1];
    if (scenario === undefined) continue;
    const checks = JSON.parse(readFileSync(join(dir, entry, 'checks.json'), 'utf8'));
    passed.set(scenario, checks.length > 0 && checks.every((check) => check.status !== 'FAILURE'));
  }
  return passed;
}

const [directDir, gatewayDir, baselineFile] = process.argv.slice(2);
const direct = results(directDir);
const gateway = results(gatewayDir);
const excluded = parse(readFileSync(baselineFile, 'utf8'))?.excluded ?? [];
const problems = [];
if (direct.size === 0 || gateway.size === 0) problems.push(`no results (direct ${direct.size}, gateway ${gateway.size} scenarios): did the suite run?`);
const scenarios = [...new Set([...direct.keys(), ...gateway.keys()])];
const mark = (value) => (value === undefined ? 'not run' : value ? 'pass' : 'fail');
const width = Math.max(...scenarios.map((s) => s.length));
console.log(`${'scenario'.padEnd(width)}  direct   gateway`);
for (const scenario of scenarios) {
  const [d, g] = [direct.get(scenario), gateway.get(scenario)];
  let note = '';
  if (d === true && g !== true) {
    if (excluded.includes(scenario)) note = 'excluded (baseline)';
    else {
      note = 'GAP';
      problems.push(`${scenario}: passes directly, fails through the gateway, and is not in ${baselineFile}`);
    }
  } else if (excluded.includes(scenario)) {
    note = 'STALE baseline entry';
    problems.push(`${scenario}: in ${baselineFile}, but ${g === true ? 'the gateway passes it' : 'the direct server does not pass it'}; remove the entry`);
  } else if (d !== true && g === true) note = 'gateway only';
  console.log(`${scenario.padEnd(width)}  ${mark(d).padEnd(7)}  ${mark(g).padEnd(7)}  ${note}`.trimEnd());
}
for (const entry of excluded) if (!scenarios.includes(entry)) problems.push(`${entry}: in ${baselineFile}, but the suite has no such scenario`);
const count = (map) => [...map.values()].filter(Boolean).length;
console.log(`\npassed: direct ${count(direct)} of ${direct.size}, gateway ${count(gateway)} of ${gateway.size}; excluded by design: ${excluded.length}`);
for (const problem of problems) console.error(`conformance-gateway: ${problem}`);
process.exit(problems.length === 0 ? 0 : 1);
