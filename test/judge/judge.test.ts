// The judge against the strict OpenAI stand-in with scripted verdicts: what it asks, what it
// keeps, what it serves again without asking, and what it says when it has no verdict.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JUDGEMENTS, judgementKey, openJudge, readJudgements } from '../../src/judge/judge.ts';
import type { JudgeAsk, JudgeOptions } from '../../src/judge/judge.ts';
import { transcriptText } from '../../src/judge/verdict.ts';
import { createModel } from '../../src/models/index.ts';
import type { PriceTable } from '../../src/models/prices.ts';
import { anthropicReply, errorReply, FakeProvider, openaiReply } from '../models/fakeServer.ts';

const MODEL = 'openai:judge-m';
const STEP = {
  prompt: 'Count the open tickets and say how many.',
  calls: [{ tool: 'db__query', key: 'db__query{}', args: { sql: 'select count(*) from tickets' }, outcome: 'ok' }],
  answer: 'There are 4 open tickets.',
};
const ASK: JudgeAsk = { rubric: 'The answer gives the count the query returned.', step: STEP, at: { rung: 'r', arm: 'on', pass: 0, step: 0 } };
const verdict = (v: string, why: string) => openaiReply(JSON.stringify({ verdict: v, why }));

let server: FakeProvider;
let dir: string;
beforeEach(async () => {
  server = await FakeProvider.start();
  dir = await mkdtemp(join(tmpdir(), 'ladder-judge-'));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function options(extra: Partial<JudgeOptions> = {}): JudgeOptions {
  const prices: PriceTable = {
    from: 'test', read: null,
    entries: [{ model: MODEL, baseUrl: `${server.url}/v1`, input: 1, output: 4, from: 'test', read: null }],
  };
  return {
    file: join(dir, JUDGEMENTS), defaultModel: MODEL, prices, now: () => new Date('2026-12-03T00:00:00Z'),
    adapter: (spec) => createModel(spec, { baseUrl: `${server.url}/v1`, apiKey: 'k', env: {}, retry: { maxAttempts: 1 } }),
    ...extra,
  };
}

describe('judge', () => {
  it('asks the model once with the rubric and the transcript, keeps the verdict with its tokens and cost, and serves it again without asking', async () => {
    server.reply(verdict('pass', 'The query returned 4 and the answer says 4.'));
    const judge = await openJudge(options());
    // Bought now: the outcome says what it cost, which the asking pass spent (30 input tokens at $1 per million, 9 output at $4).
    expect(await judge(ASK)).toStrictEqual({ passed: true, why: 'The query returned 4 and the answer says 4.', model: MODEL, cached: false, costUsd: (30 * 1 + 9 * 4) / 1_000_000 });
    // The strict stand-in refused nothing: no tools, temperature 0, a token limit it accepts.
    expect(server.seen).toHaveLength(1);
    expect(server.lastRefused).toBeUndefined();
    const body = server.seen[0]!.body;
    expect(body.model).toBe('judge-m');
    expect(body.tools).toBeUndefined();
    expect(body.temperature).toBe(0);
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[1].content).toContain('# Rubric\nThe answer gives the count the query returned.');
    expect(body.messages[1].content).toContain('1. db__query {"sql":"select count(*) from tickets"} -> ok');
    expect(body.messages[1].content).toContain('There are 4 open tickets.');

    const kept = [...(await readJudgements(join(dir, JUDGEMENTS))).values()];
    expect(kept).toStrictEqual([{
      type: 'judge', key: judgementKey(MODEL, ASK.rubric, transcriptText(STEP)), model: MODEL, rubric: ASK.rubric, passed: true,
      why: 'The query returned 4 and the answer says 4.', inputTokens: 30, outputTokens: 9,
      // 30 input tokens at $1 per million, 9 output at $4.
      costUsd: (30 * 1 + 9 * 4) / 1_000_000, ms: kept[0]!.ms, time: '2026-12-03T00:00:00.000Z', at: ASK.at,
    }]);

    // A second judge over the same file (a rescore) pays nothing for the same content.
    const again = await openJudge(options());
    expect(await again(ASK)).toStrictEqual({ passed: true, why: 'The query returned 4 and the answer says 4.', model: MODEL, cached: true });
    expect(server.seen).toHaveLength(1);
  });

  it('judges through the strict Anthropic stand-in as well: the system prompt where Messages wants it, max_tokens set', async () => {
    server.reply(anthropicReply('{"verdict": "fail", "why": "The count is not the query\'s."}'));
    const judge = await openJudge(options({
      defaultModel: 'anthropic:judge-a',
      adapter: (spec) => createModel(spec, { baseUrl: server.url, apiKey: 'k', env: {}, retry: { maxAttempts: 1 } }),
    }));
    // No entry for this model: at a local server it is free.
    expect(await judge(ASK)).toStrictEqual({ passed: false, why: "The count is not the query's.", model: 'anthropic:judge-a', cached: false, costUsd: 0 });
    expect(server.lastRefused).toBeUndefined();
    const body = server.seen[0]!.body;
    expect(body.system).toContain('You judge one step');
    expect(body.messages.map((m: { role: string }) => m.role)).toStrictEqual(['user']);
    expect(body.max_tokens).toBeGreaterThan(0);
    expect(body.tools).toBeUndefined();
  });

  it('asks again when the rubric, the transcript or the model differs', async () => {
    server.reply(verdict('pass', 'a'), verdict('fail', 'b'), verdict('fail', 'c'), verdict('pass', 'd'));
    const judge = await openJudge(options());
    await judge(ASK);
    expect(await judge({ ...ASK, rubric: 'Something else.' })).toMatchObject({ passed: false, why: 'b', cached: false });
    expect(await judge({ ...ASK, step: { ...STEP, answer: 'There are 5.' } })).toMatchObject({ passed: false, why: 'c', cached: false });
    expect(await judge({ ...ASK, model: 'openai:other' })).toStrictEqual({ passed: true, why: 'd', model: 'openai:other', cached: false, costUsd: 0 });
    expect(server.seen.map((s) => s.body.model)).toStrictEqual(['judge-m', 'judge-m', 'judge-m', 'other']);
    expect((await readJudgements(join(dir, JUDGEMENTS))).size).toBe(4);
  });

  it('buys one verdict when two passes ask about the same content at once', async () => {
    server.reply(verdict('fail', 'wrong count'));
    const judge = await openJudge(options());
    const [a, b] = await Promise.all([judge(ASK), judge(ASK)]);
    // The first asker paid for it; the second is served it, so a run's spending counts it once.
    expect(a).toStrictEqual({ passed: false, why: 'wrong count', model: MODEL, cached: false, costUsd: (30 * 1 + 9 * 4) / 1_000_000 });
    expect(b).toStrictEqual({ passed: false, why: 'wrong count', model: MODEL, cached: true });
    expect(server.seen).toHaveLength(1);
    expect((await readFile(join(dir, JUDGEMENTS), 'utf8')).trim().split('\n')).toHaveLength(1);
    // No verdict from the one request: both askers hear why.
    server.reply(openaiReply('No idea.'));
    const [c, d] = await Promise.all([judge({ ...ASK, rubric: 'other' }), judge({ ...ASK, rubric: 'other' })]);
    expect(c).toStrictEqual({ unknown: 'the judge\'s reply holds no JSON object: "No idea."' });
    expect(d).toStrictEqual(c);
    expect(server.seen).toHaveLength(2);
  });

  it('keys a verdict by the first 16 hex digits of the sha256 of model, rubric and transcript', () => {
    expect(judgementKey('m', 'r', 't')).toBe(createHash('sha256').update('["m","r","t"]').digest('hex').slice(0, 16));
    expect(new Set([judgementKey('m', 'r', 't'), judgementKey('n', 'r', 't'), judgementKey('m', 's', 't'), judgementKey('m', 'r', 'u')]).size).toBe(4);
  });

  it('serves its own verdict again without writing it twice, makes one adapter per model, and prices cached input at its own price', async () => {
    server.reply(
      openaiReply(JSON.stringify({ verdict: 'pass', why: 'a' }), [], { usage: { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39, prompt_tokens_details: { cached_tokens: 10 } } }),
      verdict('fail', 'b'),
    );
    let made = 0;
    const base = options();
    const prices: PriceTable = { ...base.prices!, entries: [{ ...base.prices!.entries[0]!, cachedInput: 0.5 }] };
    const judge = await openJudge({ ...base, prices, adapter: (spec) => (made += 1, base.adapter!(spec)) });
    const { at: _, ...noWhere } = ASK;
    expect(await judge(noWhere)).toMatchObject({ passed: true, cached: false });
    expect(await judge(noWhere)).toMatchObject({ passed: true, cached: true });
    expect(await judge({ ...noWhere, rubric: 'other' })).toMatchObject({ passed: false, cached: false });
    expect(made).toBe(1);
    const lines = (await readFile(join(dir, JUDGEMENTS), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    // 20 uncached input tokens at $1 a million, 10 cached at $0.50, 9 output at $4.
    expect(lines[0].costUsd).toBeCloseTo((20 * 1 + 10 * 0.5 + 9 * 4) / 1_000_000, 15);
    expect(lines[0].at).toBeNull();
  });

  it('reads the first verdict kept for a content, skips what is not a verdict, and fails on a file it cannot read', async () => {
    const file = join(dir, 'mixed.jsonl');
    const line = (passed: boolean, key = 'k1') => JSON.stringify({ type: 'judge', key, passed, why: String(passed) });
    await writeFile(file, [line(true), '', JSON.stringify({ type: 'note', key: 'k2' }), line(false), line(false, 'k3'), ''].join('\n'));
    const kept = await readJudgements(file);
    expect([...kept.keys()]).toStrictEqual(['k1', 'k3']);
    expect(kept.get('k1')!.passed).toBe(true);
    await expect(readJudgements(dir)).rejects.toThrow(/EISDIR/);
  });

  it('prefers its own kept verdict to another file\'s for the same content, and asks nothing with no model to ask', async () => {
    server.reply(verdict('pass', 'own'));
    const other = join(dir, 'other.jsonl');
    await (await openJudge(options()))(ASK);
    const key = judgementKey(MODEL, ASK.rubric, transcriptText(STEP));
    await writeFile(other, `${JSON.stringify({ type: 'judge', key, model: MODEL, rubric: ASK.rubric, passed: false, why: 'theirs' })}\n`);
    expect(await (await openJudge(options({ also: [other] })))(ASK)).toMatchObject({ passed: true, why: 'own' });
    const { adapter: _, ...noAdapter } = options();
    expect(await (await openJudge({ ...noAdapter, file: join(dir, 'fresh.jsonl') }))(ASK)).toStrictEqual({
      unknown: 'no kept verdict for this step from openai:judge-m, and no model may be asked',
    });
    expect(server.seen).toHaveLength(1);
  });

  it('gives no verdict, saying why, for a reply it cannot read, a provider error, a synthetic run, or offline without a kept verdict', async () => {
    server.reply(openaiReply('I think it passes.'));
    const judge = await openJudge(options());
    expect(await judge(ASK)).toStrictEqual({ unknown: 'the judge\'s reply holds no JSON object: "I think it passes."' });
    // Asked again, it asks again: no verdict is kept, and no pending ask is left behind.
    server.reply(verdict('pass', 'now readable'));
    expect(await judge(ASK)).toMatchObject({ passed: true, why: 'now readable', cached: false });
    server.reply(openaiReply('{"verdict": "maybe", "why": "x"}'), errorReply('openai', 401, 'Incorrect API key provided'));
    expect(await judge({ ...ASK, rubric: 'b' })).toStrictEqual({ unknown: 'the judge\'s verdict is "maybe", not "pass" or "fail"' });
    const failed = await judge({ ...ASK, rubric: 'c' });
    expect('unknown' in failed && failed.unknown).toMatch(/^the judge model openai:judge-m failed: .*Incorrect API key provided/);
    // Nothing was kept for any of them but the readable one.
    expect((await readJudgements(join(dir, JUDGEMENTS))).size).toBe(1);

    // Against a file that holds no verdict for ASK.
    const empty = join(dir, 'empty.jsonl');
    const { defaultModel: _, ...noDefault } = options({ file: empty });
    expect(await (await openJudge(noDefault))(ASK)).toStrictEqual({
      unknown: "no judge model: the run's model is synthetic; name one in the check (judge.model) or give --judge-model",
    });
    expect(await (await openJudge(options({ file: empty, offline: 'rescore asks a model only with --judge-model' })))(ASK)).toStrictEqual({
      unknown: 'no kept verdict for this step from openai:judge-m, and rescore asks a model only with --judge-model',
    });
    expect(await (await openJudge(options({ file: empty, adapter: () => { throw new Error('OPENAI_API_KEY is not set'); } })))(ASK)).toStrictEqual({
      unknown: 'judge model openai:judge-m: OPENAI_API_KEY is not set',
    });
    expect(server.seen).toHaveLength(4);
  });

  it('serves a replayed run\'s verdicts offline and copies them into the new run\'s file; a torn last line is asked again', async () => {
    server.reply(verdict('pass', 'kept'));
    const source = join(dir, 'source.jsonl');
    await (await openJudge(options({ file: source })))(ASK);
    const replay = await openJudge(options({ also: [source], offline: 'a replay asks no model' }));
    expect(await replay(ASK)).toMatchObject({ passed: true, why: 'kept', cached: true });
    expect([...(await readJudgements(join(dir, JUDGEMENTS))).keys()]).toStrictEqual([...(await readJudgements(source)).keys()]);
    // Served twice, copied once.
    await replay(ASK);
    expect((await readFile(join(dir, JUDGEMENTS), 'utf8')).trim().split('\n')).toHaveLength(1);

    const torn = join(dir, 'torn.jsonl');
    await writeFile(torn, `${(await readFile(source, 'utf8')).trim().slice(0, -5)}`);
    expect((await readJudgements(torn)).size).toBe(0);
    expect((await readJudgements(join(dir, 'missing.jsonl'))).size).toBe(0);
  });
});
