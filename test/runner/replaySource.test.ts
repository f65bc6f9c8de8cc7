// The recorded run a replay reads (src/runner/replay.ts), at its boundary: trace files and a
// manifest written by hand, no run, no server. What each recorded pass offers the replay, and
// the replay model it makes for a pass. The whole record-and-replay loop is
// test/runner/replay.test.ts.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../src/models/types.ts';
import type { PassId } from '../../src/runner/plan.ts';
import { recordedPass, ReplaySource } from '../../src/runner/replay.ts';
import { InputError } from '../../src/runner/rungFiles.ts';
import { requestHash, Scrubber } from '../../src/trace/index.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const start = (over: object = {}) => ({ v: 2, type: 'pass.start', t: 0, rung: 'r', arm: 'on', pass: 0, seed: 1, time: '2026-12-01T00:00:00.000Z', content: 'full', ...over });
const stepStart = (step: number) => ({ v: 2, type: 'step.start', t: 1, step, ceiling: 5, timeLimitMs: 1000 });
const prompt = (step: number, content: string) => ({ v: 2, type: 'message', t: 1, step, message: { role: 'user', content } });
const request = (step: number, round: number, over: object = {}) => ({
  v: 2, type: 'model.request', t: 2, step, round, 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': 'gpt-x', tools: 0, messages: 1, messageBytes: 1, hash: '0123456789abcdef', ...over,
});
const response = (step: number, round: number, text: string, over: object = {}) => ({
  v: 2, type: 'model.response', t: 3, step, round, 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 2,
  'gen_ai.response.finish_reasons': ['end'], ms: 1, attempts: 1, textBytes: text.length, toolCalls: [],
  message: { role: 'assistant', content: text }, ...over,
});
const failed = (step: number, round: number, type: string) =>
  ({ ...response(step, round, ''), 'gen_ai.usage.input_tokens': null, 'gen_ai.usage.output_tokens': null, 'gen_ai.response.finish_reasons': [], message: undefined, 'error.type': type });
const stepEnd = (step: number, over: object = {}) => ({
  v: 2, type: 'step.end', t: 4, step, passed: true, reason: 'answered', failedChecks: [], rounds: 1, calls: 0, ms: 3, ...over,
});

const lines = (events: object[]): string => events.map((e) => `${JSON.stringify(e)}\n`).join('');

async function traceFile(events: object[] | string): Promise<string> {
  const file = join(await tempDir('ladder-replay-unit-'), 'p.jsonl');
  writeFileSync(file, typeof events === 'string' ? events : lines(events));
  return file;
}

const MANIFEST = {
  format: 1, runId: 'rec', ladderVersion: '0.1.0', gitSha: 'abc', node: 'v20', model: { spec: 'openai:gpt-x', reason: '--model' },
  arms: ['on', 'off'], passes: 1, seed: 1, timeFactor: 1, rungs: [], options: { content: 'full' }, status: 'complete',
  startedAt: '2026-12-01T00:00:00.000Z', endedAt: '2026-12-01T00:00:01.000Z',
};

/**
 * A results folder `rec` with its manifest (`null`: none) and trace files by path under traces/;
 * returns the folder it is in, which a replay names it from.
 */
async function run(manifest: object | null, traces: Record<string, object[] | string> = {}): Promise<string> {
  const base = await tempDir('ladder-replay-run-');
  const dir = join(base, 'rec');
  mkdirSync(dir);
  if (manifest !== null) writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  for (const [rel, events] of Object.entries(traces)) {
    mkdirSync(join(dir, 'traces', rel, '..'), { recursive: true });
    writeFileSync(join(dir, 'traces', rel), typeof events === 'string' ? events : lines(events));
  }
  return base;
}

const id = (over: Partial<PassId> = {}): PassId => ({ rung: 'r', arm: 'on', armSlug: 'on', pass: 0, seed: 1, ...over });

async function inputError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return (error as InputError).message;
}

describe('recordedPass', () => {
  it('pairs each response with the request before it, keyed step/round, with the request rebuilt', async () => {
    const pass = await recordedPass(await traceFile([
      start(), stepStart(0), prompt(0, 'first'), request(0, 1), response(0, 1, 'one'),
      stepEnd(0), stepStart(1), prompt(1, 'second'), request(1, 1, { options: { temperature: 0 } }), response(1, 1, 'two'), stepEnd(1),
    ]));
    expect(pass.missing).toBeUndefined();
    expect([...pass.exchanges.keys()]).toStrictEqual(['0/1', '1/1']);
    const second = pass.exchanges.get('1/1')!;
    expect(second.request).toMatchObject({ step: 1, round: 1, options: { temperature: 0 }, hash: '0123456789abcdef', complete: true });
    expect(second.request.messages).toStrictEqual([
      { role: 'user', content: 'first' }, { role: 'assistant', content: 'one' }, { role: 'user', content: 'second' },
    ]);
    expect(second.response.message).toStrictEqual({ role: 'assistant', content: 'two' });
    expect(second.stepError).toBeUndefined();
    expect([pass.provider, pass.model, pass.missing]).toStrictEqual(['openai', 'gpt-x', undefined]);
  });

  it('reads only the last attempt of a resumed pass', async () => {
    const pass = await recordedPass(await traceFile([
      start(), stepStart(0), prompt(0, 'p'), request(0, 1), response(0, 1, 'first attempt'), request(0, 2),
      start(), stepStart(0), prompt(0, 'p'), request(0, 1), response(0, 1, 'last attempt'), stepEnd(0),
    ]));
    expect([...pass.exchanges.keys()]).toStrictEqual(['0/1']);
    expect(pass.exchanges.get('0/1')!.response.message?.content).toBe('last attempt');
    expect(pass.exchanges.get('0/1')!.request.messages).toStrictEqual([{ role: 'user', content: 'p' }]);
  });

  it('names the provider and model of the first request, as a mix of policies names its first', async () => {
    const pass = await recordedPass(await traceFile([
      start(), stepStart(0), prompt(0, 'p'), request(0, 1, { 'gen_ai.provider.name': 'synthetic', 'gen_ai.request.model': 'looper' }),
      response(0, 1, 'a'), request(0, 2, { 'gen_ai.provider.name': 'other', 'gen_ai.request.model': 'later' }), response(0, 2, 'b'),
    ]));
    expect([pass.provider, pass.model]).toStrictEqual(['synthetic', 'looper']);
  });

  it('names neither when the pass made no request', async () => {
    const pass = await recordedPass(await traceFile([start(), stepStart(0)]));
    expect(pass).toStrictEqual({ exchanges: new Map() });
  });

  it('gives a failed step\'s line to the step\'s last exchange when the provider failed there', async () => {
    const pass = await recordedPass(await traceFile([
      start(), stepStart(0), prompt(0, 'p'), request(0, 1), response(0, 1, 'ok'), request(0, 2), response(0, 2, 'ok'), request(0, 3),
      failed(0, 3, 'rate_limit'), stepEnd(0, { passed: false, reason: 'errored', error: 'openai:gpt-x: rate limited after 4 attempts' }),
    ]));
    expect(pass.exchanges.get('0/3')!.stepError).toBe('openai:gpt-x: rate limited after 4 attempts');
    expect(Object.keys(pass.exchanges.get('0/2')!)).toStrictEqual(['request', 'response']);
    expect(Object.keys(pass.exchanges.get('0/1')!)).toStrictEqual(['request', 'response']);
  });

  it('gives the line of a step that made no request to no exchange of the step before it', async () => {
    const pass = await recordedPass(await traceFile([
      start(), stepStart(0), prompt(0, 'p'), request(0, 1), failed(0, 1, 'time_limit'), stepEnd(0, { passed: false, reason: 'time_limit' }),
      stepStart(1), stepEnd(1, { passed: false, reason: 'errored', error: 'a server did not start' }),
    ]));
    expect(Object.keys(pass.exchanges.get('0/1')!)).toStrictEqual(['request', 'response']);
  });

  it('gives the line to no exchange when the step\'s last response did not fail, nor to another step\'s', async () => {
    const pass = await recordedPass(await traceFile([
      start(), stepStart(0), prompt(0, 'p'), request(0, 1), failed(0, 1, 'time_limit'), stepEnd(0),
      stepStart(1), prompt(1, 'q'), request(1, 1), response(1, 1, 'fine'),
      stepEnd(1, { passed: false, reason: 'errored', error: 'a server did not start' }),
    ]));
    expect(pass.exchanges.get('1/1')!.stepError).toBeUndefined();
    expect(pass.exchanges.get('0/1')!.stepError).toBeUndefined();
  });

  it('records no exchange for a response with no request before it', async () => {
    const pass = await recordedPass(await traceFile([start(), stepStart(0), response(0, 1, 'orphan'), request(0, 2), response(0, 2, 'paired')]));
    expect([...pass.exchanges.keys()]).toStrictEqual(['0/2']);
  });

  it('pairs a request with one response only', async () => {
    const pass = await recordedPass(await traceFile([start(), stepStart(0), prompt(0, 'p'), request(0, 1), response(0, 1, 'a'), response(0, 2, 'b')]));
    expect([...pass.exchanges.keys()]).toStrictEqual(['0/1']);
  });

  it('says the recorded trace is damaged, and offers nothing from it', async () => {
    const pass = await recordedPass(await traceFile(`${lines([start(), stepStart(0), prompt(0, 'p'), request(0, 1)])}{"v":2,"type":"model.response","t":"x"}\n`));
    expect(pass.exchanges.size).toBe(0);
    expect(pass.missing).toMatch(/^the recorded trace is damaged \(.*p\.jsonl:5: field "t": .*\)$/);
  });

  it('lets an unreadable file fail loudly, as a bug, not as a divergence', async () => {
    await expect(recordedPass(join(await tempDir('ladder-replay-unit-'), 'absent.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('ReplaySource.open', () => {
  it('refuses a folder with no manifest in one line naming the flag', async () => {
    const base = await run(null);
    expect(await inputError(ReplaySource.open('rec', base))).toBe('--replay: rec: no manifest.json; is this a results folder written by ladder run?');
  });

  it('refuses a run recorded in trace format 1, which holds no conversation', async () => {
    const { content: _, ...options } = MANIFEST.options;
    const dir = await run({ ...MANIFEST, options });
    expect(await inputError(ReplaySource.open('rec', dir)))
      .toBe('--replay rec: this run was recorded in trace format 1, which holds no conversation; re-run it with this Ladder to replay it');
  });

  it('refuses a redacted run, which holds no responses', async () => {
    const dir = await run({ ...MANIFEST, options: { content: 'redacted' } });
    expect(await inputError(ReplaySource.open('rec', dir)))
      .toBe('--replay rec: this run was recorded with --redact content, so its traces hold no model responses to replay');
  });

  it('lets a trace it cannot read fail loudly, not as a pass the run lacks', async () => {
    const base = await run(MANIFEST, { 'r/on/0.jsonl': [start()] });
    symlinkSync(join(base, 'rec', 'nowhere'), join(base, 'rec', 'traces', 'r', 'on', '1.jsonl'));
    await expect(ReplaySource.open('rec', base)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('opens a folder named relative to the working folder, and keeps the name as given', async () => {
    const base = await run(MANIFEST);
    const source = await ReplaySource.open('rec', base);
    expect([source.name, source.dir, source.manifest.runId]).toStrictEqual(['rec', join(base, 'rec'), 'rec']);
  });
});

describe('ReplaySource.pass', () => {
  const pass0 = [start(), stepStart(0), prompt(0, 'p'), request(0, 1), response(0, 1, 'from pass 0')];
  const pass1 = [start({ pass: 1 }), stepStart(0), prompt(0, 'p'), request(0, 1), response(0, 1, 'from pass 1')];
  const offArm = [start({ arm: 'off' }), stepStart(0), prompt(0, 'p'), request(0, 1), response(0, 1, 'from off')];

  it('finds a pass by rung, arm and index from its pass.start, whatever its file is called', async () => {
    const dir = await run(MANIFEST, { 'r/on/b.jsonl': pass0, 'r/on/a.jsonl': pass1, 'r/off/0.jsonl': offArm });
    const source = await ReplaySource.open('rec', dir);
    const text = async (p: PassId) => (await source.pass(p)).exchanges.get('0/1')?.response.message?.content;
    expect(await text(id())).toBe('from pass 0');
    expect(await text(id({ pass: 1 }))).toBe('from pass 1');
    expect(await text(id({ arm: 'off', armSlug: 'off' }))).toBe('from off');
  });

  it('matches an arm recorded in another spelling by its canonical form', async () => {
    const dir = await run(MANIFEST, { 'r/x/0.jsonl': [start({ arm: 'on,breaker=on' }), ...pass0.slice(1)] });
    const source = await ReplaySource.open('rec', dir);
    expect((await source.pass(id())).exchanges.size).toBe(1);
  });

  it('keeps an arm it cannot read as it was written', async () => {
    const dir = await run(MANIFEST, { 'r/x/0.jsonl': [start({ arm: 'on,,' }), ...pass0.slice(1)] });
    const source = await ReplaySource.open('rec', dir);
    expect((await source.pass(id({ arm: 'on,,' }))).exchanges.size).toBe(1);
  });

  it('says which pass the recorded run does not have', async () => {
    const dir = await run(MANIFEST, { 'r/on/0.jsonl': pass0 });
    const source = await ReplaySource.open('rec', dir);
    expect(await source.pass(id({ rung: 's', pass: 3 }))).toStrictEqual({ exchanges: new Map(), missing: 'the recorded run has no pass s on #3' });
  });

  it('skips a trace that does not open with a readable pass.start', async () => {
    const dir = await run(MANIFEST, { 'r/on/0.jsonl': '{"v":2,"type":"pass.start"\n', 'r/on/1.jsonl': [stepStart(0)], 'r/on/2.jsonl': '' });
    const source = await ReplaySource.open('rec', dir);
    expect((await source.pass(id())).missing).toBe('the recorded run has no pass r on #0');
  });
});

describe('ReplaySource.agent', () => {
  const input = (scrubber: Scrubber, over: Partial<PassId> = {}) => ({ id: id(over), scrubber }) as Parameters<ReturnType<ReplaySource['agent']>>[0];
  const WORKSPACE = '/tmp/ladder-replay-ws-7f3a';

  it('answers as the recorded model, with the recorded options, from the recorded pass', async () => {
    const asked: ModelRequest = { messages: [{ role: 'user', content: 'p' }], tools: [], options: { temperature: 0.5, seed: 7 } };
    const dir = await run(MANIFEST, { 'r/on/0.jsonl': [start(), stepStart(0), prompt(0, 'p'),
      request(0, 1, { hash: requestHash(asked), options: { temperature: 0.5, seed: 7 }, 'gen_ai.provider.name': 'azure', 'gen_ai.request.model': 'dep-1' }),
      response(0, 1, 'recorded answer')] });
    const source = await ReplaySource.open('rec', dir);
    const agent = await source.agent()(input(new Scrubber()));
    expect(agent.sampling).toStrictEqual({ temperature: 0.5, seed: 7 });
    expect([agent.model.spec, agent.model.provider, agent.model.model]).toStrictEqual(['openai:gpt-x', 'azure', 'dep-1']);
    expect((await agent.model.complete(asked)).text).toBe('recorded answer');
  });

  it('hashes each request with the pass\'s scrubber, so a pass in another folder matches its recording', async () => {
    // The recording hashed its requests with its own workspace scrubbed: the replaying pass
    // runs in another folder, and matches only when its own path is scrubbed the same way.
    const recordedAsked: ModelRequest = { messages: [{ role: 'user', content: 'list {workspace}/notes' }], tools: [] };
    const dir = await run(MANIFEST, { 'r/on/0.jsonl': [start(), stepStart(0), prompt(0, 'list {workspace}/notes'),
      request(0, 1, { hash: requestHash(recordedAsked) }), response(0, 1, 'replayed')] });
    const source = await ReplaySource.open('rec', dir);
    const agent = await source.agent()(input(new Scrubber({ workspace: WORKSPACE })));
    expect(agent.sampling).toBeUndefined();
    expect((await agent.model.complete({ messages: [{ role: 'user', content: `list ${WORKSPACE}/notes` }], tools: [] })).text).toBe('replayed');
  });

  it('answers as the manifest\'s model, split at its first colon, for a pass that made no request', async () => {
    const dir = await run({ ...MANIFEST, model: { spec: 'openai:ft:gpt-x:org', reason: '--model' } }, { 'r/on/0.jsonl': [start(), stepStart(0)] });
    const agent = await (await ReplaySource.open('rec', dir)).agent()(input(new Scrubber()));
    expect([agent.model.spec, agent.model.provider, agent.model.model]).toStrictEqual(['openai:ft:gpt-x:org', 'openai', 'ft:gpt-x:org']);
    expect(agent.sampling).toBeUndefined();
  });

  it('diverges, naming the pass it replays and why, where the recording has nothing', async () => {
    const dir = await run(MANIFEST, { 'r/on/0.jsonl': [start(), stepStart(0)] });
    const source = await ReplaySource.open('rec/', dir);
    const missing = await source.agent()(input(new Scrubber(), { pass: 2 }));
    await expect(missing.model.complete({ messages: [{ role: 'user', content: 'p' }], tools: [] }))
      .rejects.toThrow('replay of rec/: r on pass 2 diverged at step 0 round 1: the recorded run has no pass r on #2');
    const empty = await source.agent()(input(new Scrubber()));
    await expect(empty.model.complete({ messages: [{ role: 'user', content: 'p' }], tools: [] }))
      .rejects.toThrow('replay of rec/: r on pass 0 diverged at step 0 round 1: the recorded pass made no such request');
  });
});
