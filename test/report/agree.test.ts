// A report agrees with itself: the sentence and the tables quote the same figures, rounded the
// same way; a verdict never contradicts the interval or p-value printed beside it; and a row
// with nothing to say is left out and named.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/report/compare.ts';
import type { ArmComparison } from '../../src/report/compare.ts';
import { compareOutput } from '../../src/report/output.ts';
import type { MetricName } from '../../src/report/paired.ts';
import { roundHalfAway, shownQuantity } from '../../src/report/precision.ts';
import { percent, quantity, signedPoints, signedQuantity } from '../../src/report/words.ts';
import { tempDir, writeRun } from './runBuilder.ts';
import type { PassSpec, StepSpec } from './runBuilder.ts';

let dir: string;
let remove: () => void;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

function passes(arm: string, n: number, steps: (i: number) => StepSpec[]): PassSpec[] {
  return Array.from({ length: n }, (_, pass) => ({ arm, rung: 'r', pass, steps: steps(pass) }));
}
const metric = (c: ArmComparison, name: MetricName) => c.metrics.find((m) => m.metric === name)!;

describe('rounding', () => {
  it('rounds halves away from zero, so a difference and the rates it comes from agree', () => {
    expect(roundHalfAway(12.5)).toBe(13);
    expect(roundHalfAway(-12.5)).toBe(-13);
    expect(roundHalfAway(-0.4)).toBe(0);
    expect(Object.is(roundHalfAway(-0.4), -0)).toBe(false);
    expect(roundHalfAway(18.85, 1)).toBe(18.9);
    // 1 of 8 is 13%; 0 of 8 minus 1 of 8 is -13 points, not -12.
    expect(percent(1 / 8)).toBe('13%');
    expect(signedPoints(-1 / 8)).toBe('-13');
  });

  it('shows a difference that rounds to zero as 0, never +0 or -0', () => {
    expect(signedQuantity(0.3, 'ms')).toBe('0 ms');
    expect(signedQuantity(-0.3, 'ms')).toBe('0 ms');
    expect(signedQuantity(0.6, 'ms')).toBe('+1 ms');
    expect(signedQuantity(-15.5, 'ms')).toBe('-16 ms');
    expect(quantity(15.5, 'ms')).toBe('16 ms');
    expect(signedQuantity(1_950, 'ms')).toBe('+2.0 s');
    expect(shownQuantity(999.6, 'ms')).toBe(1_000);
    expect(quantity(999.6, 'ms')).toBe('1.0 s');
  });
});

describe('the sentence and the table', () => {
  it('quote the same interval and the same A and B figures', async () => {
    // Dead calls: off has 1 or 2 per pass, on none; the table shows means per 10 passes.
    const dead = (n: number): StepSpec => ({ calls: Array.from({ length: n + 1 }, () => ({ key: 'k', outcome: 'failed' as const })) });
    writeRun(dir, { passes: [...passes('on', 6, () => [{}]), ...passes('off', 6, (i) => [dead(1 + (i % 2))])] });
    const { text, report } = await compareOutput(dir, undefined, { format: 'table' });
    const c = report.comparisons[0]!;
    const m = metric(c, 'dead_calls');
    expect(m.verdict).toBe('better');
    const row = text.split('\n').find((l) => l.includes('dead calls per 10 passes'))!;
    const [, a, b, estimate, lower, upper] = /\s(\d[\d.]*)\s+(\d[\d.]*)\s+(-[\d.]+) \((-[\d.]+) to (-[\d.]+)\)/.exec(row)!;
    expect(c.summary).toContain(`dead calls: ${estimate!.slice(1)} fewer per 10 passes (mean of paired differences, 95% CI ` +
      `${lower!.slice(1)} fewer to ${upper!.slice(1)} fewer; A ${a}, B ${b} per 10 passes (means) over 6 paired passes)`);
    expect([a, b]).toEqual(['15', '0']);
  });
});

describe('a verdict', () => {
  it('is unclear, with an interval that reaches past 0, when the test does not reach p < 0.05', async () => {
    // 4 discordant pairs, all for B: (4 - 1) / sqrt 4 = 1.5, p = 0.13, and the interval, the
    // differences that test keeps, runs from -21 to +100 points. Before, the exact test and
    // Tango's interval (+2 to +100) disagreed here, and the table said so.
    writeRun(dir, { passes: [...passes('on', 4, () => [{}]), ...passes('off', 4, () => [{ passed: false }])] });
    const [c] = (await compareRuns(dir)).comparisons;
    const rate = metric(c!, 'step_pass_rate');
    expect(rate).toMatchObject({ verdict: 'unclear' });
    expect(rate).not.toHaveProperty('disagreement');
    expect(c!.summary).toContain('step pass rate +100 points (95% CI -21 to +100), not distinguishable from noise at this N (p = 0.13)');
    const { text } = await compareOutput(dir, undefined, { format: 'table' });
    expect(text).toMatch(/step pass rate\s+4 step-runs\s+0\/4 0%\s+4\/4 100%\s+\+100 pts \(-21 to \+100\)\s+0\.13\s+no clear difference\n/);
    expect(text).not.toContain('disagree');
  });

  it('is better when the test says so, and then the interval is clear of 0', async () => {
    writeRun(dir, { passes: [...passes('on', 8, () => [{}]), ...passes('off', 8, () => [{ passed: false }])] });
    const [c] = (await compareRuns(dir)).comparisons;
    const rate = metric(c!, 'step_pass_rate');
    expect(rate).toMatchObject({ verdict: 'better' });
    expect(rate.difference!.lower).toBeGreaterThan(0);
    expect(c!.summary).toContain('step pass rate +100 points (95% CI +20 to +100; p = 0.01)');
  });

  it('is same for a time whose interval is 0 to 0 as shown, and the sentence does not claim every pair equal', async () => {
    // Answers 0.1 to 0.4 ms before the step ends: differences of a fraction of a millisecond.
    writeRun(dir, {
      passes: [
        ...passes('on', 6, (i) => [{ ms: 100, answeredAfter: 99.9 - (i % 3) * 0.1 }]),
        ...passes('off', 6, (i) => [{ ms: 100, answeredAfter: 99.6 + (i % 2) * 0.1 }]),
      ],
    });
    const [c] = (await compareRuns(dir)).comparisons;
    const m = metric(c!, 'time_to_answer');
    expect(m).toMatchObject({ verdict: 'same', identical: false });
    expect(m.difference!.estimate).not.toBe(0);
    const { text } = await compareOutput(dir, undefined, { format: 'table' });
    expect(text).not.toMatch(/answer-to-end time per step-run/);
    expect(text).toContain('Not shown, zero in both arms: ceiling share, dead calls, identical repeats, zero-tool rounds, tokens\n' +
      '  in, tokens out, answer-to-end time (under a millisecond); no pairs to compare: tool precision, tool\n' +
      '  recall, tool F1, path efficiency, extra calls.');
  });
});

describe('rows with nothing to say', () => {
  it('are left out of the table and the forest plot, and named in one line', async () => {
    writeRun(dir, { passes: [...passes('on', 4, () => [{}]), ...passes('off', 4, (i) => [{ passed: i > 0 }])] });
    const { text } = await compareOutput(dir, undefined, { format: 'md' });
    expect(text).not.toMatch(/\| dead calls per 10 passes/);
    expect(text).not.toMatch(/\| ceiling share \| \d+ step-runs/);
    expect(text).toMatch(/\| step pass rate \| 4 step-runs/);
    const line = 'Not shown, zero in both arms: ceiling share, dead calls, identical repeats, zero-tool rounds, tokens in, tokens out; ' +
      // Traces written before the reference was recorded: no tool-selection figure to compare.
      'no pairs to compare: answer-to-end time, tool precision, tool recall, tool F1, path efficiency, extra calls.';
    expect(text).toContain(line);
    const html = (await compareOutput(dir, undefined, { format: 'html' })).text;
    expect(html).toContain(`<p class="note">${line}</p>`);
    expect(html).toMatch(/<figcaption><strong>Paired differences \(B minus A\)\.<\/strong> [^<]*Not shown, zero in both arms: ceiling share/);
  });

  it('says "Run" once in the line that names the run', async () => {
    writeRun(dir, { runId: 'r1', passes: [...passes('on', 2, () => [{}]), ...passes('off', 2, () => [{}])] });
    const { text } = await compareOutput(dir, undefined, { format: 'table' });
    expect(text).toMatch(/^Run r1 \(complete\), model /m);
    expect(text).not.toMatch(/Run: run/);
  });
});
