// The last screen of `ladder run`: at most 40 lines for the shipped rungs, and every figure on it
// the same as the full comparison's.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareOutput, runEndLines } from '../../src/report/output.ts';
import { passJsonl, tempDir, writeRun } from '../report/runBuilder.ts';
import type { PassSpec } from '../report/runBuilder.ts';

const SCREEN_LINES = 40; // the budget: what a user reads after a default run
const SHIPPED = readdirSync(join(import.meta.dirname, '../../rungs')).filter((f) => f.endsWith('.yaml')).map((f) => f.replace(/\.yaml$/, ''));

let dir: string;
let remove: () => void;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

/**
 * The default run's shape: every shipped rung, arms on and off, 10 passes each. Off fails more
 * often on some rungs than others, so the verdicts differ; one pass ended by a harness error
 * and one damaged trace give the problem lines something to say.
 */
function defaultShapedRun(): string {
  const passes: PassSpec[] = [];
  SHIPPED.forEach((rung, r) => {
    for (let pass = 0; pass < 10; pass += 1) {
      passes.push({ rung, arm: 'on', pass, steps: [{ passed: pass !== r % 10, calls: [{ key: 'a' }] }] });
      const errored = rung === 'git-over-http' && pass === 4;
      passes.push({
        rung, arm: 'off', pass, steps: [{ passed: pass >= r % 7 && pass !== 9, calls: [{ key: 'a', outcome: 'failed' }, { key: 'a' }] }],
        ...(errored ? { error: 'server "git" did not answer (http://127.0.0.1:1/mcp): fetch failed (ECONNRESET)' } : {}),
      });
    }
  });
  writeRun(dir, { runId: '2026-12-01T21-30-00-synthetic-mix', rungs: SHIPPED.map((name) => ({ name })), passes });
  // A trace with a line that is not an event: that pass is left out as damaged.
  const [start, ...rest] = passJsonl({ rung: SHIPPED[0], arm: 'on', pass: 10, steps: [{}] }).split('\n');
  writeFileSync(join(dir, 'traces', 'damaged.jsonl'), [start, 'not json', ...rest].join('\n'));
  return dir;
}

const WHERE = 'results/2026-12-01T21-30-00-synthetic-mix';

describe('the last screen of ladder run', () => {
  it('fits the budget for the shipped rungs, with the complete line above it', async () => {
    expect(SHIPPED.length).toBeGreaterThanOrEqual(13);
    const lines = await runEndLines(defaultShapedRun(), WHERE, 'npx ladder');
    // `complete: N passes in <folder>` is printed just above these lines.
    expect(1 + lines.length).toBeLessThanOrEqual(SCREEN_LINES);
    const text = lines.join('\n');
    expect(lines[0]).toBe('NOTE: Synthetic agents exercise the harness; they do not measure any model.');
    expect(lines[2]).toMatch(/^on against off \(\d+ paired passes\): step pass rate /);
    for (const rung of SHIPPED) expect(text).toMatch(new RegExp(`^  ${rung} `, 'm'));
    expect(text).toContain('Errored: 1 pass, git-over-http off pass 4 (a provider or harness failure, left out of every rate): ' +
      `npx ladder show ${WHERE} git-over-http --arm off --pass 4`);
    expect(text).toContain(`Left out of every figure: 1 damaged pass (their traces do not read whole): npx ladder show ${WHERE} lists them`);
    expect(lines.slice(-4)).toEqual([
      'Next:',
      `  npx ladder show ${WHERE}     the passes that did not pass, and why; add a rung for one as a transcript`,
      `  npx ladder report ${WHERE}   HTML with plots and transcripts (writes ${WHERE}/report.html)`,
      `  npx ladder compare ${WHERE}  every metric, and each arm's own tables`,
    ]);
  });

  it('quotes the full comparison: its summary sentence begins with the headline, and its rung rows hold the same cells', async () => {
    const run = defaultShapedRun();
    const lines = await runEndLines(run, WHERE, 'ladder');
    const { report, text } = await compareOutput(run, undefined, { format: 'table' });
    const c = report.comparisons[0]!;
    expect(c.summary.startsWith(lines[2]!.replace(/\.$/, ''))).toBe(true);
    const full = text.split('\n');
    const table = full.slice(full.indexOf('Step pass rate per rung, paired'));
    for (const rung of SHIPPED) {
      const short = lines.find((l) => l.startsWith(`  ${rung} `))!.trim().split(/\s{2,}/);
      const long = table.find((l) => l.startsWith(`  ${rung} `))!.trim().split(/\s{2,}/);
      // rung, pairs, A, B, B - A, p, verdict: the short row drops pairs and p.
      expect(short).toEqual([long[0], long[2], long[3], long[4], long[6]]);
    }
  });

  it('names the other metrics by the verdicts the comparison gives them, without figures of its own', async () => {
    const run = defaultShapedRun();
    const lines = await runEndLines(run, WHERE, 'ladder');
    const { report } = await compareOutput(run, undefined, { format: 'json' });
    const better = report.comparisons[0]!.metrics.filter((m) => m.metric !== 'step_pass_rate' && m.verdict === 'better').map((m) => m.label);
    expect(better).toEqual(['clean-run rate', 'dead calls']);
    expect(lines[3]).toBe('Other metrics: B better on clean-run rate, dead calls.');
  });

  it('gives a run of one arm its step pass rate per rung, and no compare command', async () => {
    writeRun(dir, { arms: ['on'], passes: [{ rung: 'a', steps: [{}] }, { rung: 'b', steps: [{ passed: false }] }] });
    const lines = await runEndLines(dir, 'results/x', 'ladder');
    expect(lines).toContain('Arm on (2 passes): step pass rate 1/2 50% (3%-97%).');
    expect(lines.join('\n')).not.toContain('compare');
    expect(lines.filter((l) => /^ {2}[ab] /.test(l))).toHaveLength(2);
  });
});
