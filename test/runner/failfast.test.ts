// A model that cannot be reached stops `ladder run` before any pass, in one line; one that
// keeps failing mid-run stops it as interrupted and resumable. Against local HTTP servers
// speaking Ollama's wire format, through the real client library; waits are injected.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runLadder } from '../../src/cli/runLadder.ts';
import type { RunArgs } from '../../src/cli/runLadder.ts';
import { closedPort, FakeProvider, ollamaReply, recordingSleep } from '../models/fakeServer.ts';
import { passesIn, removeTempDirs, ROOT, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const TINY = 'test/runner/fixtures/tiny-catalog.yaml';

/** A run of `args` against the model server at `host` (its --base-url). */
async function run(args: RunArgs, host: string, sleep: (ms: number) => Promise<void> = async () => undefined) {
  const out: string[] = [];
  const err: string[] = [];
  const progress: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => progress.push(...chunk.toString().split('\n').filter(Boolean)));
  const code = await runLadder({ ...args, ...(args.resume === true ? {} : { baseUrl: host }) }, {
    cwd: ROOT, env: {}, stdout: (l) => out.push(l), stderr: (l) => err.push(l), progress: stream,
    signal: new AbortController().signal, adapter: { retry: { sleep } },
  });
  return { code, out, err, progress };
}

describe('a model that cannot be reached', () => {
  it('is one line and exit 2 before any pass, with no results folder, after two quick attempts', async () => {
    const url = await closedPort();
    const out = join(await tempDir('ladder-reach-'), 'run');
    const { waits, sleep } = recordingSleep();
    const result = await run({ rungs: [TINY], model: 'ollama:qwen3:8b', out }, url, sleep);
    expect(result.code).toBe(2);
    expect(result.err).toEqual([
      `ladder run: ollama:qwen3:8b: connection failed after 2 attempts: connection refused; is Ollama running at ${url}? ` +
        'start it with "ollama serve" or set OLLAMA_HOST; --base-url points ladder run at another endpoint; no pass was started',
    ]);
    expect(result.out).toEqual([]);
    expect(existsSync(out)).toBe(false);
    // One back-off between the two attempts, under the first ceiling of 1 s: said well within 10 s.
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeLessThan(1000);
  });

  it('names a model the server does not have, before any pass', async () => {
    await using server = await started();
    server.reply({ status: 404, json: { error: "model 'nope' not found" } });
    const out = join(await tempDir('ladder-reach-'), 'run');
    const result = await run({ rungs: [TINY], model: 'ollama:nope', out }, server.url);
    expect(result.code).toBe(2);
    expect(result.err).toEqual([
      'ladder run: ollama:nope: request rejected: HTTP 404: model \'nope\' not found; pull the model with "ollama pull nope"; no pass was started',
    ]);
    expect(existsSync(out)).toBe(false);
  });
});

async function started(): Promise<FakeProvider & AsyncDisposable> {
  const server = await FakeProvider.start();
  return Object.assign(server, { [Symbol.asyncDispose]: () => server.close() });
}

describe('a model that keeps failing during a run', () => {
  let server: FakeProvider | undefined;
  afterEach(async () => server?.close());

  it('stops the run as interrupted after three errored passes in a row, and --resume makes them again', async () => {
    server = await FakeProvider.start();
    // The reachability check is answered; every request after it fails (HTTP 599).
    server.reply(ollamaReply('ready'));
    const out = join(await tempDir('ladder-streak-'), 'run');
    const args: RunArgs = { rungs: [TINY], model: 'ollama:m', arms: 'on', passes: 4, timeFactor: 0.01, out };
    const first = await run(args, server.url);
    expect(first.code).toBe(1);
    expect(first.out[1]).toBe(`run ${out}: 1 rung x 1 arm (on) x 4 passes, 1 at a time`);
    expect(first.err).toEqual([
      'ladder run: stopped, 3 passes in a row errored: ollama:m: server error after 4 attempts: HTTP 599: no scripted reply left; ' +
        `0/4 passes complete in ${out}; once the model answers, continue with: ladder run --resume --out ${out}`,
    ]);
    expect(first.progress).toHaveLength(3);
    for (const line of first.progress) expect(line).toMatch(/^\[\d\/4\] tiny-catalog on #\d errored \(HTTP 599: no scripted reply left\) after \d+\.\d s \| /);
    expect(first.progress.join('\n')).not.toMatch(/failed/);
    expect(JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'))).toMatchObject({ status: 'interrupted' });
    expect(await passesIn(out)).toEqual([]);

    // The model is back: a check, then one plain answer per step of each of the 4 passes.
    server.reply(...Array.from({ length: 5 }, () => ollamaReply('The catalog says port 8080.')));
    const second = await run({ ...args, rungs: [], resume: true }, server.url);
    expect(second.err).toEqual([]);
    expect(second.code).toBe(0);
    expect((await passesIn(out)).filter((p) => p.complete)).toHaveLength(4);
  }, 60_000);
});
