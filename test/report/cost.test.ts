// Cost in the report: per pass, rung and arm at the run's recorded price (or a --prices file),
// cost per passed step compared with a paired bootstrap interval, and every format saying what a
// run cost or why it has no cost.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pairedRatioDifference } from '../../src/report/bootstrap.ts';
import { compareOutput } from '../../src/report/output.ts';
import { summarizeRun } from '../../src/report/summary.ts';
import { loadPrices } from '../../src/models/prices.ts';
import type { Pricing } from '../../src/models/prices.ts';
import { tempDir, writeRun } from './runBuilder.ts';
import type { PassSpec, RunSpec } from './runBuilder.ts';

let dir: string;
let remove: () => void;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

/** $1 per million input, $0.10 cached, $2 written to the cache, $10 per million output: round numbers to count by hand. */
const PRICE: Pricing = {
  status: 'priced', model: 'openai:m', usdPerMillion: { input: 1, output: 10, cachedInput: 0.1, cacheWrite: 2 },
  source: 'https://example.test/pricing', read: '2026-12-01', from: 'shipped',
};
const MODEL = { spec: 'openai:m', reason: 'test', synthetic: false, settings: { baseUrl: 'https://api.openai.com/v1' }, price: PRICE };

function run(name: string, spec: Omit<RunSpec, 'model'> & { model?: Record<string, unknown> }): string {
  return writeRun(join(dir, name), { model: MODEL, ...spec });
}

describe('cost in summary.json', () => {
  it('prices each rung, step and arm from the tokens, cached ones at their own price', async () => {
    const s = await summarizeRun(run('a', { arms: ['on'], passes: [
      // 1M input of which 400k read from cache and 100k written; 100k output
      { rung: 'r', steps: [{ tokens: [[1_000_000, 100_000, 400_000, 100_000]] }, { passed: false, tokens: [[0, 0]] }] },
      { rung: 'r', pass: 1, steps: [{ tokens: [[500_000, 0]] }, { tokens: [[0, 50_000]] }] },
    ] }));
    // pass 0: 500k x $1 + 400k x $0.10 + 100k x $2 + 100k x $10 = 0.5 + 0.04 + 0.2 + 1 = $1.74; pass 1: 0.5 + 0.5 = $1
    const all = s.arms[0]!.overall;
    expect(all.cost.usd).toBeCloseTo(2.74, 10);
    expect(all.cost.perAttempt).toBeCloseTo(1.37, 10);
    expect(all.cost.perPassedStep).toBeCloseTo(2.74 / 3, 10);
    expect(all.cost.responsesMissingTokens).toBe(0);
    expect(all.cachedTokens).toStrictEqual({ read: 400_000, write: 100_000 });
    expect(s.arms[0]!.rungs[0]!.steps[1]!.metrics.cost.usd).toBeCloseTo(0.5, 10);
    expect(s.pricing).toStrictEqual(PRICE);
  });

  it('marks a cost from responses with no token count, and has none for an unpriced model', async () => {
    const missing = await summarizeRun(run('m', { arms: ['on'], passes: [{ steps: [{ tokens: [[1_000_000, null]] }] }] }));
    expect(missing.arms[0]!.overall.cost).toMatchObject({ usd: 1, responsesMissingTokens: 1 });
    const unpriced = await summarizeRun(run('u', { arms: ['on'], model: { spec: 'openai:gpt-9', reason: 't', synthetic: false, settings: { baseUrl: 'https://api.openai.com/v1' } },
      passes: [{ steps: [{ tokens: [[10, 10]] }] }] }));
    expect(unpriced.pricing).toMatchObject({ status: 'unpriced' });
    expect(unpriced.arms[0]!.overall.cost).toStrictEqual({ usd: null, perAttempt: null, perPassedStep: null, responsesMissingTokens: 0 });
  });

  it('is free for synthetic agents and says so', async () => {
    const s = await summarizeRun(writeRun(join(dir, 's'), { arms: ['on'], passes: [{ steps: [{ tokens: [[10, 10]] }] }] }));
    expect(s.pricing).toStrictEqual({ status: 'free', model: 'synthetic:looper', why: 'synthetic agents call no model' });
    expect(s.arms[0]!.overall.cost.usd).toBe(0);
  });
});

/** One rung, `n` passes per arm; `passed(arm, i)` and `tokens(arm, i)` set each pass. */
function paired(n: number, passed: (arm: string, i: number) => boolean, output: (arm: string, i: number) => number): PassSpec[] {
  return ['off', 'on'].flatMap((arm) => Array.from({ length: n }, (_, i) => ({
    arm, pass: i, steps: [{ passed: passed(arm, i), tokens: [[0, output(arm, i)]] as [number, number][] }],
  })));
}

describe('cost per passed step, compared', () => {
  it('is the cost over passed steps on each side, B minus A, with a bootstrap interval', async () => {
    // off: $1 a pass (100k output), passes 8 of 10; on: $0.50 a pass, passes all 10
    const a = run('pair', { passes: paired(10, (arm, i) => arm === 'on' || i < 8, (arm) => (arm === 'on' ? 50_000 : 100_000)) });
    const { report } = await compareOutput(a, undefined, { format: 'json' });
    const cost = report.comparisons[0]!.cost;
    expect(cost).toMatchObject({
      status: 'compared', pairs: 10, excluded: 0, note: null, verdict: 'better',
      a: { usd: expect.closeTo(10, 9), passedSteps: 8 }, b: { usd: expect.closeTo(5, 9), passedSteps: 10 },
    });
    expect(cost.a!.perPassedStep).toBeCloseTo(1.25, 10);
    expect(cost.b!.perPassedStep).toBeCloseTo(0.5, 10);
    expect(cost.difference!.estimate).toBeCloseTo(-0.75, 10);
    expect(cost.difference!.lower).toBeLessThan(cost.difference!.estimate);
    expect(cost.difference!.upper).toBeLessThan(0);
  });

  it('calls it worse when B pays more per passed step, and unclear inside the noise', async () => {
    const worse = await compareOutput(run('w', { passes: paired(10, () => true, (arm) => (arm === 'on' ? 200_000 : 100_000)) }), undefined, { format: 'json' });
    expect(worse.report.comparisons[0]!.cost.verdict).toBe('worse');
    const noisy = await compareOutput(run('n', { passes: paired(10, () => true, (arm, i) => 100_000 + ((i * 7919 + (arm === 'on' ? 3 : 0)) % 5) * 20_000) }), undefined, { format: 'json' });
    expect(noisy.report.comparisons[0]!.cost.verdict).toBe('unclear');
  });

  it('leaves out pairs with an errored side or a response without token counts, and counts them', async () => {
    const passes = paired(4, () => true, () => 100_000);
    passes[0] = { arm: 'off', pass: 0, steps: [{ reason: 'errored', passed: false, tokens: [[0, 100_000]] }] };
    passes[5] = { arm: 'on', pass: 1, steps: [{ tokens: [[null, 100_000]] }] };
    const { report } = await compareOutput(run('x', { passes }), undefined, { format: 'json' });
    expect(report.comparisons[0]!.cost).toMatchObject({ pairs: 2, excluded: 2, verdict: 'same' });
  });

  it('says why when there is nothing to compare', async () => {
    const free = await compareOutput(writeRun(join(dir, 'f'), { passes: paired(2, () => true, () => 1) }), undefined, { format: 'json' });
    expect(free.report.comparisons[0]!.cost).toMatchObject({ status: 'free', note: 'A and B cost nothing: synthetic agents call no model', difference: null });
    const none = await compareOutput(run('z', { passes: paired(2, () => false, () => 1) }), undefined, { format: 'json' });
    expect(none.report.comparisons[0]!.cost).toMatchObject({ status: 'compared', verdict: 'unclear', difference: null,
      note: 'no step passed under A or B, so a passed step has no cost to compare' });
  });

  it('reprices both runs with --prices instead of the prices they recorded', async () => {
    const a = run('p', { passes: paired(3, () => true, () => 1_000_000) });
    const file = join(dir, 'prices.json');
    writeFileSync(file, JSON.stringify({ read: '2027-01-01', prices: [{ model: 'openai:m', input: 0, output: 1 }] }));
    const recorded = await compareOutput(a, undefined, { format: 'json' });
    expect(recorded.report.comparisons[0]!.cost.a!.usd).toBeCloseTo(30, 9);
    const repriced = await compareOutput(a, undefined, { format: 'json', prices: loadPrices(file) });
    expect(repriced.report.comparisons[0]!.cost.a!.usd).toBeCloseTo(3, 9);
    expect(repriced.report.summaries[0]!.pricing).toMatchObject({ status: 'priced', read: '2027-01-01', from: file });
  });
});

describe('cost in every text format', () => {
  it('says what each run cost at which price, and compares cost per passed step in the paired metrics', async () => {
    const a = run('t', { passes: paired(4, () => true, (arm) => (arm === 'on' ? 50_000 : 100_000)) });
    const md = (await compareOutput(a, undefined, { format: 'md' })).text;
    expect(md).toContain('- Run: cost $6.00 over 8 passes, at $1 in, $0.10 cached in, $2 cache write, $10 out per million tokens (https://example.test/pricing, read 2026-12-01; prices change).');
    for (const format of ['table', 'md'] as const) {
      const { text } = await compareOutput(a, undefined, { format });
      expect(text).toMatch(/cost per passed step \(ratio of sums\)[ |]+4 passes[ |]+\$1\.00[ |]+\$0\.50[ |]+-\$0\.50 \(-\$0\.50 to -\$0\.50\)[ |]+-[ |]+B better/);
      expect(text).toContain('Cost (arm on)');
    }
    const synthetic = await compareOutput(writeRun(join(dir, 's2'), { passes: paired(2, () => true, () => 1) }), undefined, { format: 'table' });
    expect(synthetic.text).toContain('Run: cost none: synthetic agents call no model.');
    expect(synthetic.text).toContain('Cost: not compared; A and B cost nothing: synthetic agents call no model.');
    expect(synthetic.text).not.toContain('Cost (arm');
  });
});

describe('pairedRatioDifference', () => {
  it('is the difference of the two ratios of sums, not a mean of per-pair ratios', () => {
    const d = pairedRatioDifference({ num: [1, 3], den: [1, 1] }, { num: [2, 2], den: [0, 2] });
    expect(d.estimate).toBeCloseTo(4 / 2 - 4 / 2, 12);
    expect(d.pairs).toBe(2);
  });

  it('is seeded: the same input and seed give the same interval, another seed another', () => {
    const a = { num: [1.3, 2.9, 3.1, 4.7, 5.2, 6.6, 0.4, 2.2], den: [1, 2, 1, 3, 0, 1, 2, 1] };
    const b = { num: [2.1, 1.7, 2.8, 2.2, 3.9, 2.5, 1.1, 0.9], den: [1, 1, 2, 1, 1, 3, 1, 1] };
    expect(pairedRatioDifference(a, b, 3)).toStrictEqual(pairedRatioDifference(a, b, 3));
    expect(pairedRatioDifference(a, b, 3)).not.toStrictEqual(pairedRatioDifference(a, b, 4));
  });

  it('leaves out and counts resamples where a side has nothing to divide by', () => {
    const d = pairedRatioDifference({ num: [1, 1], den: [1, 0] }, { num: [1, 1], den: [1, 1] }, 1, 400);
    // about a quarter of the resamples draw only the second pair, whose A has no passed step
    expect(d.undefinedResamples).toBeGreaterThan(50);
    expect(d.undefinedResamples).toBeLessThan(150);
  });

  it('has no estimate when a side has nothing to divide by at all, and refuses pairs of unequal length', () => {
    expect(pairedRatioDifference({ num: [1], den: [0] }, { num: [1], den: [1] }).estimate).toBeNaN();
    expect(() => pairedRatioDifference({ num: [1, 2], den: [1] }, { num: [1, 2], den: [1, 1] })).toThrow(RangeError);
  });
});

describe('--prices on ladder compare and ladder report', () => {
  it('reprices, and refuses a bad price file in one line with exit 2', async () => {
    const { runCompare } = await import('../../src/cli/compare.ts');
    const { runReport } = await import('../../src/cli/report.ts');
    const a = run('cli', { passes: paired(2, () => true, () => 1_000_000) });
    const file = join(dir, 'cheap.json');
    writeFileSync(file, JSON.stringify({ prices: [{ model: 'openai:m', input: 0, output: 0.5 }] }));
    let text = '';
    expect(await runCompare({ runA: a, format: 'json', prices: file }, { out: (t) => void (text = t) })).toBe(0);
    expect(JSON.parse(text).comparisons[0].cost.a.usd).toBeCloseTo(1, 9);
    const errors: string[] = [];
    expect(await runCompare({ runA: a, prices: join(dir, 'none.json') }, { out: () => undefined, err: (l) => errors.push(l) })).toBe(2);
    expect(await runReport({ run: a, prices: join(dir, 'none.json') }, { out: () => undefined, err: (l) => errors.push(l) })).toBe(2);
    expect(errors).toStrictEqual([
      expect.stringMatching(/^ladder compare: --prices .*none\.json: no such file; give a JSON price file \(docs\/report\.md, "Cost"\)$/),
      expect.stringMatching(/^ladder report: --prices .*none\.json: no such file/),
    ]);
  });
});
