// A model that cannot be reached stops `ladder run` before any pass, in one line; one that
// keeps failing mid-run stops it as interrupted and resumable. Against local HTTP servers
// speaking Ollama's wire format, through the real client library; waits are injected.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runLadder } from '../../src/cli/runLadder.ts';
import type { RunArgs } from '../../src/cli/runLadder.ts';
import { closedPort, FakeProvider, ollamaReply, recordingSleep } from '../models/fakeServer.ts';
import { passesIn, removeTempDirs, ROOT, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const TINY = 'test/runner/fixtures/tiny-catalog.yaml';

/** A run of `args` against the model server at `host` (its --base-url; none when '': a synthetic model). */
async function run(args: RunArgs, host: string, sleep: (ms: number) => Promise<void> = async () => undefined) {
  const out: string[] = [];
  const err: string[] = [];
  const progress: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => progress.push(...chunk.toString().split('\n').filter(Boolean)));
  const code = await runLadder({ ...args, ...(args.resume === true || host === '' ? {} : { baseUrl: host }) }, {
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
      'ladder run: stopped, 3 passes in a row errored (the model failed): ollama:m: server error after 4 attempts: HTTP 599: no scripted reply left; ' +
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

/**
 * An MCP server over HTTP that fails every session, by turns in two ways: a JSON-RPC internal
 * error in answer to initialize, and an HTTP 500. (A refusal of the protocol version is a
 * definite answer that stops a run at once: test/runner/refusal.test.ts.)
 */
async function failingServer(): Promise<{ url: string; initializes: () => number } & AsyncDisposable> {
  let seen = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body || '{}') as { id?: number; method?: string };
      if (message.method !== 'initialize') return void res.writeHead(400).end('start with initialize');
      seen += 1;
      if (seen % 2 === 0) return void res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({
        jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'Internal error: the database is not open yet' },
      }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`, initializes: () => seen,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function rungAgainst(url: string): Promise<string> {
  const path = join(await tempDir('ladder-refused-'), 'refused.yaml');
  await writeFile(path, [
    'name: refused', 'description: A server that fails every session.', 'origin: test fixture',
    'servers:', '  s:', `    url: ${url}`,
    'steps:', '  - prompt: Say hello.', '    ceiling: 2', '    checks:', "      - answer: { mentions: ['hello'] }",
    '    reference:', '      answer: hello',
  ].join('\n'));
  return path;
}

describe('a server that fails every pass', () => {
  it('stops the run after three passes in a row it failed, by turns for two causes, and says the server failed', async () => {
    await using server = await failingServer();
    const out = join(await tempDir('ladder-refused-'), 'run');
    const rung = await rungAgainst(server.url);
    const result = await run({ rungs: [rung], model: 'synthetic:reference', arms: 'on', passes: 6, concurrency: 1, timeFactor: 0.01, out }, '');
    expect(result.code).toBe(1);
    expect(server.initializes()).toBe(3);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/^ladder run: stopped, 3 passes in a row errored \(a server failed\): server "s" did not answer \(http:\/\/127\.0\.0\.1:\d+\/mcp\): MCP error -32603: Internal error: the database is not open yet; 0\/6 passes complete in /);
    expect(result.err[0]).toContain(`once the server answers, continue with: ladder run --resume --out ${out}`);
    expect(result.progress.map((line) => /errored \((.*)\) after/.exec(line)?.[1])).toEqual([
      expect.stringContaining('-32603'), expect.stringContaining('boom'), expect.stringContaining('-32603'),
    ]);
    expect(JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'))).toMatchObject({ status: 'interrupted' });
    expect(await passesIn(out)).toEqual([]);
  }, 60_000);

  it('never ends a run of fewer passes than the streak "complete": every pass errored, exit 1, left to --resume', async () => {
    await using server = await failingServer();
    const out = join(await tempDir('ladder-refused-'), 'run');
    const rung = await rungAgainst(server.url);
    const result = await run({ rungs: [rung], model: 'synthetic:reference', arms: 'on', passes: 2, concurrency: 1, timeFactor: 0.01, out }, '');
    expect(result.code).toBe(1);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(/^ladder run: stopped, every pass errored \(2 passes, a server failed\): server "s" did not answer \(http:\/\/127\.0\.0\.1:\d+\/mcp\): .*boom; 0\/2 passes complete in /);
    expect(result.out.some((line) => line.startsWith('complete:'))).toBe(false);
    expect(JSON.parse(await readFile(join(out, 'manifest.json'), 'utf8'))).toMatchObject({ status: 'interrupted' });
    expect(await passesIn(out)).toEqual([]);
  }, 60_000);
});
