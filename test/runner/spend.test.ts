import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AimdLimiter } from '../../src/models/pace.ts';
import type { Pricing } from '../../src/models/prices.ts';
import { passCost, passTokens, spendText } from '../../src/runner/spend.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const PRICED: Pricing = { status: 'priced', model: 'openai:m', usdPerMillion: { input: 1, output: 10, cachedInput: 0.1, cacheWrite: null }, source: null, read: null, from: 'test' };

describe('spendText', () => {
  it('says the money spent, the limit and the level, or nothing', () => {
    const pace = new AimdLimiter({ max: 8, now: () => 0 });
    pace.throttled(pace.sent());
    expect(spendText(PRICED, 0.4212, 5, pace)).toBe('$0.42 spent of $5.00 max, concurrency 4/8');
    expect(spendText(PRICED, 12.5, undefined, undefined)).toBe('$12.50 spent');
    expect(spendText({ status: 'unpriced', model: 'openai:x', why: '' }, null, undefined, pace)).toBe('cost unknown (no price), concurrency 4/8');
    expect(spendText({ status: 'free', model: 'synthetic:mix', why: '' }, 0, undefined, undefined)).toBe('');
    expect(spendText({ status: 'free', model: 'ollama:m', why: '' }, 0, undefined, new AimdLimiter({ max: 1, now: () => 0 }))).toBe('');
  });
});

describe('what a pass spent', () => {
  it('sums the responses of its last attempt, leaves failed requests out and counts responses with no tokens', async () => {
    const dir = await tempDir('ladder-spend-');
    const file = join(dir, 'p.jsonl');
    const start = { v: 2, type: 'pass.start', t: 0, rung: 'r', arm: 'on', pass: 0, seed: 1, time: '2026-12-01T00:00:00.000Z', content: 'full' };
    const response = (input: number | null, output: number | null, extra: object = {}) => ({
      v: 2, type: 'model.response', t: 1, step: 0, round: 1, 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output,
      'gen_ai.response.finish_reasons': ['end'], ms: 1, attempts: 1, textBytes: 0, toolCalls: [], ...extra,
    });
    const lines = [start, response(999, 999), start, response(1_000_000, 100_000, { 'gen_ai.usage.cache_read.input_tokens': 500_000 }),
      response(null, null, { 'error.type': 'rate_limit' }), response(null, 10)];
    writeFileSync(file, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    expect(await passTokens(file)).toStrictEqual({ tokens: { input: 1_000_000, output: 100_010, cacheRead: 500_000, cacheWrite: 0 }, missing: 1 });
    // 500k at $1 + 500k at $0.10 + 100,010 at $10
    expect(await passCost(file, PRICED)).toBeCloseTo(0.5 + 0.05 + 1.0001, 10);
    expect(await passCost(join(dir, 'none.jsonl'), PRICED)).toBe(0);
    expect(await passCost(file, { status: 'unpriced', model: 'openai:x', why: '' })).toBeNull();
  });
});
