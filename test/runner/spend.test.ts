import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AimdLimiter } from '../../src/models/pace.ts';
import type { Pricing } from '../../src/models/prices.ts';
import { CostLimit } from '../../src/runner/costLimit.ts';
import { passCost, passTokens, spendText } from '../../src/runner/spend.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const PRICED: Pricing = { status: 'priced', model: 'openai:m', usdPerMillion: { input: 1, output: 10, cachedInput: 0.1, cacheWrite: 2 }, source: null, read: null, from: 'test' };
const UNPRICED: Pricing = { status: 'unpriced', model: 'openai:x', why: '' };
const FREE: Pricing = { status: 'free', model: 'synthetic:mix', why: '' };

const START = { v: 2, type: 'pass.start', t: 0, rung: 'r', arm: 'on', pass: 0, seed: 1, time: '2026-12-01T00:00:00.000Z', content: 'full' };
const response = (input: number | null, output: number | null, extra: object = {}) => ({
  v: 2, type: 'model.response', t: 1, step: 0, round: 1, 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output,
  'gen_ai.response.finish_reasons': ['end'], ms: 1, attempts: 1, textBytes: 0, toolCalls: [], ...extra,
});
const NO_JUDGES = { usd: 0, unpriced: 0 };
/** A step's end with its judged verdicts (`usd` absent: served kept; null: an unpriced judge). */
const stepEnd = (...judged: { usd?: number | null }[]) => ({
  v: 2, type: 'step.end', t: 2, step: 0, passed: true, reason: 'answered', failedChecks: [], rounds: 1, calls: 0, ms: 1,
  judged: judged.map((j, i) => ({ check: `judge {"rubric":"r${i}"}`, passed: true, model: 'openai:j', ...j })),
});
/** A request the step's time limit cut off: the slot the agent loop records for it. */
const CUT_OFF = { ...response(null, null), 'gen_ai.response.finish_reasons': [], 'error.type': 'time_limit' };

async function trace(lines: object[]): Promise<string> {
  const file = join(await tempDir('ladder-spend-'), 'p.jsonl');
  writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return file;
}

describe('spendText', () => {
  it('says the money spent, the limit and the level', () => {
    const pace = new AimdLimiter({ max: 8, now: () => 0 });
    pace.throttled(pace.sent());
    expect(spendText(PRICED, { spentUsd: 0.4212, maxUsd: 5, lowerBound: false }, pace)).toBe('$0.42 spent of $5.00 max, concurrency 4/8');
  });

  it('says the money spent without a limit when none is given', () => {
    expect(spendText(PRICED, { spentUsd: 12.5, maxUsd: undefined, lowerBound: false }, undefined)).toBe('$12.50 spent');
  });

  it('marks a spending that is a lower bound with +, as the report marks a cost', () => {
    expect(spendText(PRICED, { spentUsd: 0.5, maxUsd: 1, lowerBound: true }, undefined)).toBe('$0.50+ spent of $1.00 max');
  });

  it('says nothing spent before a spending is kept', () => {
    expect(spendText(PRICED, undefined, undefined)).toBe('$0 spent');
  });

  it('says the cost is unknown for a model with no price, and the level', () => {
    const pace = new AimdLimiter({ max: 8, now: () => 0 });
    pace.throttled(pace.sent());
    expect(spendText(UNPRICED, undefined, pace)).toBe('cost unknown (no price), concurrency 4/8');
  });

  it('says what a free model\'s run spent on its judges, once they spent', () => {
    expect(spendText(FREE, { spentUsd: 0.031, maxUsd: 1, lowerBound: false }, undefined)).toBe('$0.031 spent of $1.00 max');
  });

  it('says nothing of money for a free model, nor of a level that cannot move', () => {
    expect(spendText(FREE, { spentUsd: 0, maxUsd: undefined, lowerBound: false }, undefined)).toBe('');
    expect(spendText({ status: 'free', model: 'ollama:m', why: '' }, undefined, new AimdLimiter({ max: 1, now: () => 0 }))).toBe('');
  });

  it('says the level of a provider that allows two at a time', () => {
    expect(spendText(FREE, undefined, new AimdLimiter({ max: 2, now: () => 0 }))).toBe('concurrency 2/2');
  });
});

describe('what a pass spent', () => {
  it('sums the responses of its last attempt, cached reads and writes apart', async () => {
    const file = await trace([START, response(999, 999), START,
      response(1_000_000, 100_000, { 'gen_ai.usage.cache_read.input_tokens': 500_000 }),
      response(10, 5, { 'gen_ai.usage.cache_creation.input_tokens': 7 })]);
    expect(await passTokens(file)).toStrictEqual({ tokens: { input: 1_000_010, output: 100_005, cacheRead: 500_000, cacheWrite: 7 }, missing: 0, judges: NO_JUDGES });
  });

  it('prices a pass\'s cache writes at the input price when the model has no write price', async () => {
    const noWrite: Pricing = { ...PRICED, usdPerMillion: { input: 1, output: 10, cachedInput: 0.1, cacheWrite: null } } as Pricing;
    const file = await trace([START, response(1_000_000, 0, { 'gen_ai.usage.cache_creation.input_tokens': 1_000_000 })]);
    // A million tokens written: $1 at the input price (a tenth of that at the cached-read price).
    expect(await passCost(file, noWrite)).toStrictEqual({ usd: 1, missing: 0 });
  });

  it('counts a response with no input count, or no output count, as missing', async () => {
    expect((await passTokens(await trace([START, response(null, 10)]))).missing).toBe(1);
    expect((await passTokens(await trace([START, response(10, null)]))).missing).toBe(1);
    expect(await passTokens(await trace([START, response(null, 10), response(3, null), response(1, 1)])))
      .toStrictEqual({ tokens: { input: 4, output: 11, cacheRead: 0, cacheWrite: 0 }, missing: 2, judges: NO_JUDGES });
  });

  it('counts a request cut off by the time limit as missing, as the report does, never as free', async () => {
    expect(await passTokens(await trace([START, response(5, 5), CUT_OFF])))
      .toStrictEqual({ tokens: { input: 5, output: 5, cacheRead: 0, cacheWrite: 0 }, missing: 1, judges: NO_JUDGES });
    expect((await passTokens(await trace([START, { ...CUT_OFF, 'error.type': 'rate_limit' }]))).missing).toBe(1);
  });

  it('reads other events as costing nothing', async () => {
    const request = {
      v: 2, type: 'model.request', t: 1, step: 0, round: 1, 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'm', tools: 0, messages: 1, messageBytes: 10,
    };
    expect(await passTokens(await trace([START, request]))).toStrictEqual({ tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, missing: 0, judges: NO_JUDGES });
  });

  it('reads a trace that does not exist as costing nothing', async () => {
    const dir = await tempDir('ladder-spend-');
    expect(await passTokens(join(dir, 'none.jsonl'))).toStrictEqual({ tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, missing: 0, judges: NO_JUDGES });
  });

  it('says why a trace that cannot be read is not costed', async () => {
    const dir = await tempDir('ladder-spend-');
    await expect(passTokens(dir)).rejects.toMatchObject({ code: 'EISDIR' });
  });

  it('prices the tokens, with the responses that had no count', async () => {
    const file = await trace([START, response(1_000_000, 100_000, { 'gen_ai.usage.cache_read.input_tokens': 500_000 }), CUT_OFF]);
    // 500k at $1 + 500k at $0.10 + 100k at $10
    const cost = await passCost(file, PRICED);
    expect(cost?.usd).toBeCloseTo(0.5 + 0.05 + 1, 10);
    expect(cost?.missing).toBe(1);
  });

  it('adds what its judges bought, of its last attempt; a verdict served kept cost nothing, an unpriced one is missing', async () => {
    const file = await trace([START, response(5, 5), stepEnd({ usd: 9 }), START, response(1_000_000, 0), stepEnd({ usd: 0.25 }, {}, { usd: null }), stepEnd({ usd: 0.5 })]);
    expect(await passTokens(file)).toStrictEqual({ tokens: { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 }, missing: 0, judges: { usd: 0.75, unpriced: 1 } });
    // $1 for the model's million input tokens, $0.75 for the judges; the unpriced verdict makes it a lower bound.
    expect(await passCost(file, PRICED)).toStrictEqual({ usd: 1.75, missing: 1 });
    // A free model (synthetic, local) spent only on its judges, read when the rung has any.
    expect(await passCost(file, FREE, true)).toStrictEqual({ usd: 0.75, missing: 1 });
    expect(await passCost(file, FREE)).toStrictEqual({ usd: 0, missing: 0 });
    expect(await passCost(file, UNPRICED, true)).toBeNull();
    // A free model's response with no token count costs nothing either way: only the judges' unpriced verdicts make a lower bound.
    const uncounted = await trace([START, response(null, null), stepEnd({ usd: 0.5 })]);
    expect(await passCost(uncounted, FREE, true)).toStrictEqual({ usd: 0.5, missing: 0 });
    expect(await passCost(uncounted, PRICED, true)).toStrictEqual({ usd: 0.5, missing: 1 });
  });

  it('costs nothing for a free model and has no cost for an unpriced one, without reading the trace', async () => {
    const dir = await tempDir('ladder-spend-');
    expect(await passCost(dir, FREE)).toStrictEqual({ usd: 0, missing: 0 });
    expect(await passCost(dir, UNPRICED)).toBeNull();
  });
});

describe('the run\'s spending', () => {
  it('is a lower bound once a pass had a response with no token count, as a resumed run\'s earlier passes can', () => {
    const spending = new CostLimit(undefined, [{ rung: 'a', usd: 0.2 }]);
    expect(spending.lowerBound).toBe(false);
    spending.finished('a1', 'a', 0.1, 0);
    expect(spending.lowerBound).toBe(false);
    spending.finished('a2', 'a', 0.1, 1);
    expect(spending.lowerBound).toBe(true);
    expect(spending.spentUsd).toBeCloseTo(0.4, 10);
    expect(new CostLimit(undefined, [{ rung: 'a', usd: 0.2, missing: 1 }]).lowerBound).toBe(true);
  });
});
