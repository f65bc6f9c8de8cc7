// A run against a hosted-model stand-in: the real `openai` client and HTTP against a local
// server that plays a scripted policy slowly, throttles, and reports cached tokens. What is
// checked is what a user of a paid, rate-limited provider relies on: the run never sends more
// passes at once than the level allows, lowers it on 429s without erroring a step, costs each
// pass at the price given, and stops, resumable, before passing --max-cost.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readTraceAll } from '../../src/trace/index.ts';
import { listTraces } from '../../src/results/store.ts';
import { PassThrough } from 'node:stream';
import { runLadder } from '../../src/cli/runLadder.ts';
import type { RunArgs } from '../../src/cli/runLadder.ts';
import { PolicyServer } from '../helpers/policyServer.ts';
import { SCRIPTED_POLICY, scriptedRung } from './scriptedRung.ts';
import { removeTempDirs, ROOT, tempDir } from './helpers.ts';

/** A run in this process: standard output and the progress lines in `lines`, standard error in `errors`. */
async function quietRun(args: RunArgs): Promise<{ code: number; lines: string[]; errors: string[] }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const progress = new PassThrough();
  progress.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const code = await runLadder(args, {
    cwd: ROOT, env: {}, stdout: (line) => lines.push(line), stderr: (line) => errors.push(line), progress, signal: new AbortController().signal,
  });
  return { code, lines, errors };
}

const RUNG = scriptedRung('provider-paced');
const POLICY = SCRIPTED_POLICY;

let dir: string;
let rung: string;
let server: PolicyServer | undefined;

beforeAll(async () => {
  dir = await tempDir('ladder-provider-');
  rung = join(dir, 'provider-paced.yaml');
  await writeFile(rung, RUNG);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(removeTempDirs);

async function stepEnds(out: string) {
  const ends = [];
  for (const path of await listTraces(out)) {
    const { events } = await readTraceAll(join(out, 'traces', path));
    ends.push(...events.filter((e) => e.type === 'step.end'));
  }
  return ends;
}

describe('a run against a rate-limited provider', () => {
  it('sends at most --concurrency passes at once, lowers its level on 429s, and errors no step', async () => {
    server = await PolicyServer.start(POLICY, { delayMs: 20, throttleEvery: 3, retryAfter: '0' });
    const out = join(dir, 'paced');
    const { code, lines } = await quietRun({
      rungs: [rung], model: 'openai:scripted', baseUrl: server.url, passes: 3, concurrency: 4, timeFactor: 0.01, out,
    });
    expect(code).toBe(0);
    expect(server.throttled).toBeGreaterThan(0);
    // Each pass holds at most one request at a time: the requests at once are the passes at once.
    expect(server.mostAtOnce).toBeLessThanOrEqual(4);
    const ends = await stepEnds(out);
    expect(ends).toHaveLength(2 * 3 * 2);
    expect(ends.filter((e) => e.reason === 'errored')).toStrictEqual([]);
    expect(lines).toContainEqual(expect.stringMatching(/^concurrency: settled at [1-4] of 4 \(\d+ throttled requests?, lowered [1-9]\d* and raised \d+ times?, lowest [1-3]\)$/));
    expect(lines.filter((l) => l.startsWith('['))).toContainEqual(expect.stringMatching(/ \| concurrency [1-4]\/4$/));
  }, 120_000);
});

describe('the cost of a run', () => {
  it('is counted at the given price, stops before passing --max-cost, and resumes under a higher one', async () => {
    server = await PolicyServer.start(POLICY, { cachedTokens: 100 });
    // Dear on purpose, so a pass costs a few dollars: 5 requests of about 105 input tokens (100
    // of them cached) and 12 to 20 output tokens each.
    const prices = join(dir, 'prices.json');
    await writeFile(prices, JSON.stringify({ read: '2026-12-01', prices: [
      { model: 'openai:scripted', baseUrl: server.url, input: 10_000, cachedInput: 1_000, output: 20_000 },
    ] }));
    const out = join(dir, 'costed');
    const args = { rungs: [rung], model: 'openai:scripted', baseUrl: server.url, passes: 2, timeFactor: 0.01, out, prices };
    const first = await quietRun({ ...args, maxCost: 6 });
    expect(first.lines).toContain(
      `cost: openai:scripted at $10000 in, $1000 cached in, $20000 out per million tokens (${prices}, read 2026-12-01; prices change); stops before passing $6.00 (--max-cost)`,
    );
    const stop = first.errors.find((l) => l.startsWith('ladder run: stopped before passing'));
    expect(first.code).toBe(1);
    expect(first.errors).toHaveLength(1);
    expect(stop).toMatch(/^ladder run: stopped before passing --max-cost \$6\.00: \$(\d\.\d\d) spent, the next pass would cost about \$(\d\.\d\d); 2\/4 passes complete in .*costed; continue with: ladder run --resume --out .*costed --max-cost <a higher limit>$/);
    const [, spent, next] = /\$(\d\.\d\d) spent, .* about \$(\d\.\d\d)/.exec(stop!)!;
    expect(Number(spent) + Number(next)).toBeGreaterThan(6);
    expect(Number(spent)).toBeLessThanOrEqual(6);
    expect(first.lines.filter((l) => l.startsWith('['))).toContainEqual(expect.stringMatching(/ \| \$\d\.\d\d spent of \$6\.00 max$/));
    const manifest = JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8')) as { status: string; model: { price: { status: string } } };
    expect(manifest.status).toBe('interrupted');
    expect(manifest.model.price.status).toBe('priced');

    const rest = await quietRun({ ...args, resume: true, maxCost: 20 });
    expect(rest.code).toBe(0);
    const complete = rest.lines.find((l) => l.startsWith('complete:'));
    const total = Number(/, \$(\d+\.\d\d) spent$/.exec(complete!)![1]);
    // the resumed run counts what the first one spent: four passes of about the same price
    expect(total / Number(spent)).toBeCloseTo(2, 0);
    // The report prices the same tokens at the price the run recorded: it agrees with the runner.
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8')) as { arms: { overall: { cost: { usd: number } } }[] };
    expect(summary.arms.reduce((sum, arm) => sum + arm.overall.cost.usd, 0)).toBeCloseTo(total, 2);
    const { events } = await readTraceAll(join(out, 'traces', (await listTraces(out))[0]!));
    const response = events.find((e) => e.type === 'model.response');
    expect(response).toMatchObject({ 'gen_ai.usage.cache_read.input_tokens': 100 });
  }, 120_000);

  it('will not keep to a limit it cannot price', async () => {
    const out = join(dir, 'unpriced');
    const { code, errors } = await quietRun({ rungs: [rung], model: 'openai:gpt-9', baseUrl: 'https://example.invalid/v1', maxCost: 1, out });
    expect(code).toBe(2);
    expect(errors).toStrictEqual([
      'ladder run: --max-cost 1: the run has no price to keep to (no price for openai:gpt-9 at https://example.invalid/v1, ' +
      "which is not openai's own API; give one with --prices FILE)",
    ]);
  });
});
