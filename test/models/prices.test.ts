import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname as dirOf, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { costOf, formatUsd, loadPrices, perMillion, PriceFileError, priceOf, priceSource, priceText, pricingLine, shippedPrices } from '../../src/models/prices.ts';
import type { Pricing } from '../../src/models/prices.ts';

const dir = mkdtempSync(join(tmpdir(), 'ladder-prices-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const OPENAI = { baseUrl: 'https://api.openai.com/v1' };
const ANTHROPIC = { baseUrl: 'https://api.anthropic.com' };

describe('the shipped price table', () => {
  it('says when it was read, and names a source for every price', () => {
    expect(shippedPrices().read).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(shippedPrices().entries.length).toBeGreaterThan(10);
    for (const entry of shippedPrices().entries) {
      expect(entry.source, entry.model).toMatch(/^https:\/\/(developers\.openai\.com|platform\.claude\.com)\//);
      expect(entry.output, entry.model).toBeGreaterThan(entry.input);
      if (entry.cachedInput !== undefined) expect(entry.cachedInput, entry.model).toBeLessThan(entry.input);
    }
  });

  it('names each model once', () => {
    const names = shippedPrices().entries.flatMap((e) => [e.model, ...(e.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('priceOf', () => {
  it('prices a hosted model at its provider, with the source and date of the price', () => {
    const p = priceOf({ spec: 'openai:gpt-4o-mini', settings: OPENAI }, shippedPrices());
    expect(p).toStrictEqual({
      status: 'priced', model: 'openai:gpt-4o-mini', usdPerMillion: { input: 0.15, output: 0.6, cachedInput: 0.075, cacheWrite: null },
      source: 'https://developers.openai.com/api/docs/pricing', read: shippedPrices().read, from: 'shipped',
    });
  });

  it('prices a dated snapshot named as an alias', () => {
    const p = priceOf({ spec: 'anthropic:claude-sonnet-4-5-20250929', settings: ANTHROPIC }, shippedPrices());
    expect(p).toMatchObject({ status: 'priced', usdPerMillion: { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 } });
  });

  it('has no price for a model it does not know, and says what to do', () => {
    expect(priceOf({ spec: 'openai:gpt-9', settings: OPENAI }, shippedPrices())).toStrictEqual({
      status: 'unpriced', model: 'openai:gpt-9', why: 'no price for openai:gpt-9 at https://api.openai.com/v1; give one with --prices FILE',
    });
  });

  it('does not price a known model at another hosted endpoint (a router may charge otherwise)', () => {
    const p = priceOf({ spec: 'openai:gpt-4o-mini', settings: { baseUrl: 'https://openrouter.ai/api/v1' } }, shippedPrices());
    expect(p).toStrictEqual({
      status: 'unpriced', model: 'openai:gpt-4o-mini',
      why: "no price for openai:gpt-4o-mini at https://openrouter.ai/api/v1, which is not openai's own API; give one with --prices FILE",
    });
  });

  it('does not guess when the run recorded no endpoint', () => {
    expect(priceOf({ spec: 'openai:gpt-4o-mini' }, shippedPrices())).toMatchObject({ status: 'unpriced', why: expect.stringContaining('did not record') });
  });

  it.each<[string, Parameters<typeof priceOf>[0], string | undefined, string]>([
    ['a synthetic agent', { spec: 'synthetic:mix', synthetic: true }, undefined, 'synthetic agents call no model'],
    ['a replay', { spec: 'openai:gpt-4o-mini', settings: OPENAI }, 'run-a', 'replayed from run-a: no provider was called'],
    ['Ollama', { spec: 'ollama:qwen3:8b', settings: { baseUrl: 'http://127.0.0.1:11434' } }, undefined, 'a local model (Ollama) has no per-token price'],
    ['a local OpenAI-compatible server', { spec: 'openai:qwen3', settings: { baseUrl: 'http://127.0.0.1:8000/v1' } }, undefined,
      'a local server (http://127.0.0.1:8000/v1) has no per-token price'],
  ])('costs nothing for %s, and says why', (_name, model, replay, why) => {
    expect(priceOf(model, shippedPrices(), replay)).toStrictEqual({ status: 'free', model: model.spec, why });
  });
});

describe('a price file', () => {
  it('overrides the shipped price of a model and keeps the rest', () => {
    const prices = loadPrices(file('own.json', { read: '2027-01-02', prices: [{ model: 'openai:gpt-4o-mini', input: 1, output: 2 }] }));
    expect(priceOf({ spec: 'openai:gpt-4o-mini', settings: OPENAI }, prices)).toMatchObject({
      status: 'priced', usdPerMillion: { input: 1, output: 2, cachedInput: null, cacheWrite: null }, read: '2027-01-02', source: null,
    });
    expect(priceOf({ spec: 'openai:gpt-4o', settings: OPENAI }, prices)).toMatchObject({ status: 'priced', from: 'shipped' });
  });

  it('prices a compatible endpoint it names, local ones included', () => {
    const path = file('router.json', { prices: [
      { model: 'openai:gpt-4o-mini', baseUrl: 'https://openrouter.ai/api/v1/', input: 0.2, output: 0.7 },
      { model: 'openai:local-70b', baseUrl: 'http://127.0.0.1:8000/v1', input: 0.01, output: 0.02 },
    ] });
    const prices = loadPrices(path);
    expect(priceOf({ spec: 'openai:gpt-4o-mini', settings: { baseUrl: 'https://openrouter.ai/api/v1' } }, prices))
      .toMatchObject({ status: 'priced', usdPerMillion: { input: 0.2 }, from: path });
    expect(priceOf({ spec: 'openai:local-70b', settings: { baseUrl: 'http://127.0.0.1:8000/v1' } }, prices)).toMatchObject({ status: 'priced' });
    // an entry for one endpoint says nothing of the provider's own
    expect(priceOf({ spec: 'openai:gpt-4o-mini', settings: OPENAI }, prices)).toMatchObject({ usdPerMillion: { input: 0.15 } });
  });

  it('says a price file that exists but cannot be read cannot be read, not that it is missing', () => {
    expect(() => loadPrices(dir)).toThrow(/^--prices .*: cannot be read \(EISDIR\); give a JSON price file/);
  });

  it.each([
    ['missing.json', undefined, /^--prices .*missing\.json: no such file; give a JSON price file/],
    ['broken.json', '{"prices": [', /^--prices .*broken\.json: not valid JSON \(/],
    ['negative.json', { prices: [{ model: 'openai:m', input: -1, output: 2 }] }, /negative\.json: prices\[0\]\.input: .*; see docs\/report\.md, "Cost", for the format$/],
    ['spec.json', { prices: [{ model: 'gpt-4o', input: 1, output: 2 }] }, /spec\.json: prices\[0\]\.model: expected a model spec such as openai:gpt-4o-mini/],
    ['extra.json', { prices: [{ model: 'openai:m', input: 1, output: 2, inptu: 3 }] }, /extra\.json: prices\[0\]: /],
  ])('%s is refused in one line', (name, content, message) => {
    const path = content === undefined ? join(dir, name) : file(name, content);
    const load = () => loadPrices(path);
    expect(load).toThrow(PriceFileError);
    expect(load).toThrow(message);
    try {
      load();
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('costOf', () => {
  const priced = (p: Partial<Extract<Pricing, { status: 'priced' }>['usdPerMillion']>): Pricing => ({
    status: 'priced', model: 'openai:m', source: null, read: null, from: 'test',
    usdPerMillion: { input: 2, output: 8, cachedInput: null, cacheWrite: null, ...p },
  });

  it('prices input and output per million tokens', () => {
    expect(costOf(priced({}), { input: 1_000_000, output: 500_000, cacheRead: 0, cacheWrite: 0 })).toBeCloseTo(6, 10);
  });

  it('prices the cached part of the input at the cached price and writes at the write price', () => {
    const p = priced({ cachedInput: 0.5, cacheWrite: 2.5 });
    // 600k uncached at $2, 300k read at $0.50, 100k written at $2.50, 10k out at $8
    expect(costOf(p, { input: 1_000_000, output: 10_000, cacheRead: 300_000, cacheWrite: 100_000 })).toBeCloseTo(1.2 + 0.15 + 0.25 + 0.08, 10);
  });

  it('bills cached input as input when the entry has no cached price', () => {
    expect(costOf(priced({}), { input: 1_000_000, output: 0, cacheRead: 900_000, cacheWrite: 100_000 })).toBeCloseTo(2, 10);
  });

  it('bills cache writes at the input price when the entry has no write price, not at its cached-read price', () => {
    // A write is input processed in full, then stored: no provider bills it below its input
    // price (OpenAI and Google bill writes as input; Anthropic at 1.25x, or 2x for an hour). The
    // cached-read price is what later reads of it cost, a tenth of the input here.
    const p = priced({ cachedInput: 0.2 });
    // 500k uncached and 500k written, both at $2; 10k out at $8
    expect(costOf(p, { input: 1_000_000, output: 10_000, cacheRead: 0, cacheWrite: 500_000 })).toBeCloseTo(2 + 0.08, 10);
    // 300k read at $0.20, 200k written at $2, 500k uncached at $2
    expect(costOf(p, { input: 1_000_000, output: 0, cacheRead: 300_000, cacheWrite: 200_000 })).toBeCloseTo(0.06 + 0.4 + 1, 10);
  });

  it('never counts more cached tokens than there was input', () => {
    expect(costOf(priced({ cachedInput: 0 }), { input: 100, output: 0, cacheRead: 300, cacheWrite: 0 })).toBe(0);
    expect(costOf(priced({ cachedInput: 0, cacheWrite: 0 }), { input: 100, output: 0, cacheRead: 60, cacheWrite: 60 })).toBe(0);
    expect(costOf(priced({ cachedInput: 1, cacheWrite: 10 }), { input: 100, output: 0, cacheRead: 60, cacheWrite: 60 })).toBeCloseTo((60 + 400) / 1e6, 12);
  });

  it('is null for an unpriced model and 0 for a free one', () => {
    const tokens = { input: 10, output: 10, cacheRead: 0, cacheWrite: 0 };
    expect(costOf({ status: 'unpriced', model: 'openai:x', why: '' }, tokens)).toBeNull();
    expect(costOf({ status: 'free', model: 'synthetic:mix', why: '' }, tokens)).toBe(0);
  });
});

describe('formatUsd', () => {
  it.each([
    [null, '-'], [0, '$0'], [0.42, '$0.42'], [0.0031, '$0.0031'], [0.05, '$0.050'], [12.4, '$12.40'], [-0.25, '-$0.25'], [0.0000004, '$0.000000'],
  ])('%s reads %s', (value, text) => {
    expect(formatUsd(value)).toBe(text);
  });
});

describe('pricingLine', () => {
  it('says the price, where it comes from and when it was read', () => {
    const p = priceOf({ spec: 'anthropic:claude-haiku-4-5', settings: ANTHROPIC }, shippedPrices());
    expect(pricingLine(p)).toBe(
      `anthropic:claude-haiku-4-5 at $1 in, $0.10 cached in, $1.25 cache write, $5 out per million tokens (https://platform.claude.com/docs/en/about-claude/pricing, read ${shippedPrices().read}; prices change)`,
    );
  });

  it('says why a model costs nothing, or has no cost', () => {
    expect(pricingLine({ status: 'free', model: 'synthetic:mix', why: 'synthetic agents call no model' })).toBe('none: synthetic agents call no model');
    expect(pricingLine({ status: 'unpriced', model: 'openai:x', why: 'no price for openai:x' })).toBe('unknown: no price for openai:x');
  });
});

describe('a price file, at its edges', () => {
  it('is read from the folder given, and the shipped table stands alone without one', () => {
    const shipped = loadPrices(undefined);
    expect(shipped).toStrictEqual(shippedPrices());
    expect(shipped.from).toBe('shipped');
    const own = loadPrices('own-cwd.json', dirOf(file('own-cwd.json', { prices: [] })));
    expect(own.from).toBe('own-cwd.json');
    expect(own.read).toBeNull();
    expect(own.entries).toStrictEqual(shippedPrices().entries);
  });

  it('names the root when the file is not a table, and an entry past the tenth by its index', () => {
    expect(() => loadPrices(file('root.json', []))).toThrow(/root\.json: \(root\): /);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ model: `openai:m${i}`, input: i === 10 ? -1 : 1, output: 1 }));
    expect(() => loadPrices(file('eleven.json', { prices: eleven }))).toThrow(/eleven\.json: prices\[10\]\.input: /);
  });

  it('is refused as a PriceFileError by name', () => {
    let caught: unknown;
    try {
      loadPrices(file('bad.json', { prices: 1 }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PriceFileError);
    expect((caught as Error).name).toBe('PriceFileError');
  });

  it('takes a provider of any length and refuses a spec with no provider or no model', () => {
    const entry = (model: string) => ({ prices: [{ model, input: 1, output: 1 }] });
    expect(loadPrices(file('long.json', entry('anthropic:claude-x'))).entries[0]!.model).toBe('anthropic:claude-x');
    expect(() => loadPrices(file('upper.json', entry('OpenAI:m')))).toThrow(/prices\[0\]\.model: expected a model spec/);
    expect(() => loadPrices(file('prefixed.json', entry('x openai:m')))).toThrow(/prices\[0\]\.model: expected a model spec/);
    expect(() => loadPrices(file('nomodel.json', entry('openai:')))).toThrow(/prices\[0\]\.model: expected a model spec/);
  });

  it('refuses a key the table does not have', () => {
    expect(() => loadPrices(file('table-extra.json', { prices: [], price: [] }))).toThrow(/table-extra\.json: \(root\): /);
  });
});

describe('priceOf, at its edges', () => {
  const table = (entries: object[]) => loadPrices(file(`t${Math.random().toString(36).slice(2)}.json`, { prices: entries }));

  it('matches an endpoint with or without trailing slashes', () => {
    const prices = table([{ model: 'openai:m', baseUrl: 'https://router.example/v1//', input: 3, output: 3 }]);
    expect(priceOf({ spec: 'openai:m', settings: { baseUrl: 'https://router.example/v1' } }, prices)).toMatchObject({ status: 'priced', usdPerMillion: { input: 3 } });
  });

  it('prices no entry of an endpoint for a run that recorded none', () => {
    const prices = table([{ model: 'openai:m', baseUrl: 'https://router.example/v1', input: 3, output: 3 }]);
    expect(priceOf({ spec: 'openai:m' }, prices)).toMatchObject({ status: 'unpriced', why: 'no price for openai:m at an endpoint the run did not record; give one with --prices FILE' });
  });

  it('reads an endpoint that is not a URL as not the provider\'s own', () => {
    expect(priceOf({ spec: 'openai:gpt-4o-mini', settings: { baseUrl: 'not a url' } }, shippedPrices()))
      .toStrictEqual({ status: 'unpriced', model: 'openai:gpt-4o-mini', why: "no price for openai:gpt-4o-mini at not a url, which is not openai's own API; give one with --prices FILE" });
  });

  it('prices a provider with no own API only at an endpoint an entry names', () => {
    const prices = table([{ model: 'ollama:m', input: 3, output: 3 }]);
    expect(priceOf({ spec: 'ollama:m' }, prices)).toMatchObject({ status: 'free' });
  });

  it('matches a spec by its model or an alias, and an entry with no aliases by its model only', () => {
    const prices = table([{ model: 'openai:plain', input: 1, output: 1 }, { model: 'openai:named', aliases: ['openai:named-2025'], input: 2, output: 2 }]);
    expect(priceOf({ spec: 'openai:named-2025', settings: OPENAI }, prices)).toMatchObject({ status: 'priced', usdPerMillion: { input: 2 } });
    expect(priceOf({ spec: 'openai:plain', settings: OPENAI }, prices)).toMatchObject({ status: 'priced', usdPerMillion: { input: 1 } });
    expect(priceOf({ spec: 'openai:other', settings: OPENAI }, prices)).toMatchObject({ status: 'unpriced' });
  });

  it('calls a server on this machine free, and a hosted one it does not know unpriced', () => {
    expect(priceOf({ spec: 'openai:x', settings: { baseUrl: 'http://localhost:8000/v1' } }, shippedPrices()))
      .toStrictEqual({ status: 'free', model: 'openai:x', why: 'a local server (http://localhost:8000/v1) has no per-token price' });
  });
});

describe('the price text', () => {
  const rates = { input: 1, output: 5, cachedInput: 0.1, cacheWrite: 1.25 };
  const priced = (over: object = {}) => ({ status: 'priced' as const, model: 'openai:m', usdPerMillion: rates, source: 'https://x.test', read: '2026-12-01', from: 'shipped', ...over });

  it('says each rate the entry has, and none it lacks', () => {
    expect(priceText(rates)).toBe('$1 in, $0.10 cached in, $1.25 cache write, $5 out per million tokens');
    expect(priceText({ ...rates, cachedInput: null, cacheWrite: null })).toBe('$1 in, $5 out per million tokens');
    expect(priceText({ ...rates, cacheWrite: null })).toBe('$1 in, $0.10 cached in, $5 out per million tokens');
    expect(priceText({ ...rates, cachedInput: null })).toBe('$1 in, $1.25 cache write, $5 out per million tokens');
  });

  it('says where a price comes from: its source, else the shipped table or the file, and when it was read', () => {
    expect(priceSource(priced())).toBe('https://x.test, read 2026-12-01');
    expect(priceSource(priced({ source: null }))).toBe('the shipped table, read 2026-12-01');
    expect(priceSource(priced({ source: null, from: 'my.json', read: null }))).toBe('my.json');
  });

  it('drops whole cents from a rate but keeps what is below a cent', () => {
    expect([perMillion(2), perMillion(0.1), perMillion(0.0031), perMillion(12.5)]).toStrictEqual(['$2', '$0.10', '$0.0031', '$12.50']);
  });

  it('shows cents from a dollar up, and from ten cents', () => {
    expect([formatUsd(1), formatUsd(0.1), formatUsd(0.099), formatUsd(-0.0031)]).toStrictEqual(['$1.00', '$0.10', '$0.099', '-$0.0031']);
  });
});
