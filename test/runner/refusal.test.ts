// `ladder rungs validate` and `ladder run` against a server that speaks only the 2026-07-28
// revision (test/fixtures/v2-server.mjs, a real process on the SDK's v2 line), over stdio and
// over Streamable HTTP as a server the pass starts itself: by default the rung validates, runs on
// both arms in that revision and replays; told to speak 2025 only, the refusal is said in one
// line with the setting that works, the server is asked once, and the run stops at its first
// pass with the server named as the culprit. And the era as an arm, on the dual-era server.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/rungs.ts';
import { runLadder } from '../../src/cli/runLadder.ts';
import { fixtureLog, V2_SERVER } from '../helpers/v2Server.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import { listTraces } from '../../src/results/store.ts';
import { manifestOf, passesIn, quietRun, removeTempDirs, ROOT, tempDir, tracesWithoutTimes } from './helpers.ts';

afterAll(removeTempDirs);

type Over = 'stdio' | 'http';

/** A one-step rung whose server `v2` is the modern-only fixture over `over`, logging to `log`. */
async function modernRung(over: Over, log: string, era: 'modern' | 'dual' = 'modern'): Promise<string> {
  const env = `env: { V2_FIXTURE_LOG: ${JSON.stringify(log)} }`;
  const server = over === 'stdio'
    ? `{ command: node, args: ${JSON.stringify([V2_SERVER, era, 'stdio'])}, ${env} }`
    : `{ url: "http://127.0.0.1:{port}/mcp", start: { command: node, args: ${JSON.stringify([V2_SERVER, era, 'http', '{port}'])}, ${env} } }`;
  const file = join(await tempDir('ladder-refusal-rung-'), `${era}.yaml`);
  writeFileSync(file, `name: ${era}-${over}
description: Add two numbers on a server that speaks only 2026-07-28.
servers:
  v2: ${server}
steps:
  - prompt: Add 2 and 3 with the add tool.
    ceiling: 3
    checks:
      - called: v2__add
      - answer: { mentions: ['5'] }
    reference:
      calls:
        - tool: v2__add
          args: { a: 2, b: 3 }
      answer: 2 + 3 = 5
`);
  return file;
}

/** How the fixture was reached: its starts over stdio, its initialize requests over HTTP. */
const reached = (over: Over, log: string) => fixtureLog(log).filter((line) => (over === 'stdio' ? line.startsWith('start ') : line === 'POST initialize'));

const REFUSED = /server "v2" refused Ladder's protocol version \(\S*node \S*v2-server\.mjs modern (stdio|http \d+)\): it speaks 2026-07-28, Ladder offered 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07 \(protocol: legacy\) \(MCP error -32022: Unsupported protocol version: 2025-11-25(, HTTP 400)?\); it was not tried again: give it protocol: auto in its server entry, or --protocol auto/;

/** The revisions each pass's first listing recorded, by trace path. */
async function revisionsIn(out: string): Promise<Map<string, unknown>> {
  const seen = new Map<string, unknown>();
  for (const path of await listTraces(out)) {
    const { events } = await readTraceAll(join(out, 'traces', path));
    const first = events.find((e) => e.type === 'tools.list');
    seen.set(path, first?.type === 'tools.list' ? first.protocols : undefined);
  }
  return seen;
}

describe.each(['stdio', 'http'] as const)('a modern-only server over %s', (over) => {
  it('validates, runs both arms in the 2026-07-28 era, and replays the run to the same traces', async () => {
    const log = join(await tempDir('ladder-refusal-log-'), 'server.log');
    const file = await modernRung(over, log);
    const said: string[] = [];
    expect(await runValidate({ files: [file] }, (line) => said.push(line))).toBe(0);
    const out = join(await tempDir('ladder-modern-run-'), 'run');
    const run = await quietRun({ rungs: [file], model: 'synthetic:mix?p=1', passes: 2, seed: 3, timeFactor: 0.01, concurrency: 2, out });
    expect(run.code).toBe(0);
    const passes = await passesIn(out);
    expect(passes.map((p) => `${p.id} ${p.complete}`)).toEqual([
      `modern-${over}/off/0 true`, `modern-${over}/off/1 true`, `modern-${over}/on/0 true`, `modern-${over}/on/1 true`,
    ]);
    expect([...(await revisionsIn(out)).values()]).toEqual(Array(4).fill({ v2: '2026-07-28' }));
    const again = join(await tempDir('ladder-modern-replay-'), 'run');
    expect((await quietRun({ rungs: [file], replay: out, passes: 2, seed: 3, timeFactor: 0.01, concurrency: 2, out: again })).code).toBe(0);
    expect(await tracesWithoutTimes(again)).toEqual(await tracesWithoutTimes(out));
  }, 120_000);

  it('told to speak 2025 only, fails validation in one line naming both sides\' revisions and protocol: auto, after one attempt', async () => {
    const log = join(await tempDir('ladder-refusal-log-'), 'server.log');
    const file = await modernRung(over, log);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^( {2}v2: \{ )/m, '$1protocol: legacy, '));
    const said: string[] = [];
    const started = performance.now();
    expect(await runValidate({ files: [file] }, (line) => said.push(line))).toBe(1);
    // Over HTTP the readiness check used to ask again for the whole 60 s connect timeout.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(said).toEqual([expect.stringMatching(new RegExp(`^\\S*/modern\\.yaml: cannot run: ${REFUSED.source}$`)), '1 problem in 1 rung']);
    // The reference pass reached it once and stopped there: validation ends at a pass that cannot run.
    expect(reached(over, log)).toHaveLength(1);
  }, 60_000);

  it('run with --protocol legacy, stops at its first pass, the server named, never complete', async () => {
    const log = join(await tempDir('ladder-refusal-log-'), 'server.log');
    const file = await modernRung(over, log);
    const out = join(await tempDir('ladder-refusal-run-'), 'run');
    const said: string[] = [];
    const progress = new PassThrough().resume();
    const code = await runLadder({ rungs: [file], passes: 3, timeFactor: 0.01, concurrency: 1, out, protocol: 'legacy' }, {
      cwd: ROOT, env: {}, stdout: (line) => said.push(line), stderr: (line) => said.push(line), progress, signal: new AbortController().signal,
    });
    expect(code).toBe(1);
    const stop = said.find((line) => line.startsWith('ladder run: stopped'));
    expect(stop).toMatch(new RegExp(`^ladder run: stopped, a server refused Ladder's protocol, as it would on every pass: ${REFUSED.source}; ` +
      `0/6 passes complete in ${out}; once the server, or the protocol setting it is given, is changed as the line says, continue with: ladder run --resume --out ${out}$`));
    const manifest = await manifestOf(out);
    expect(manifest.status).toBe('interrupted');
    expect(manifest.arms).toEqual(['on,protocol=legacy', 'off,protocol=legacy']);
    // One pass made, not three: the first refusal is the answer every pass would get.
    expect(reached(over, log)).toHaveLength(1);
  }, 60_000);
});

describe('the era as an arm', () => {
  it('pairs passes over 2026-07-28 with passes over 2025-11-25 on the dual-era server, on the same seeds', async () => {
    const file = await modernRung('stdio', join(await tempDir('ladder-era-log-'), 'server.log'), 'dual');
    const out = join(await tempDir('ladder-era-run-'), 'run');
    const run = await quietRun({ rungs: [file], model: 'synthetic:mix?p=1', passes: 2, seed: 4, timeFactor: 0.01, arms: 'on;on,protocol=legacy', out });
    expect(run.code).toBe(0);
    const revisions = await revisionsIn(out);
    expect(Object.fromEntries(revisions)).toEqual({
      'dual-stdio/on/0.jsonl': { v2: '2026-07-28' }, 'dual-stdio/on/1.jsonl': { v2: '2026-07-28' },
      // The arm's folder name is its text made safe for a path.
      'dual-stdio/on_protocol-legacy/0.jsonl': { v2: '2025-11-25' }, 'dual-stdio/on_protocol-legacy/1.jsonl': { v2: '2025-11-25' },
    });
    const seeds = (await passesIn(out)).map((p) => `${p.id.split('/').at(-1)} ${p.seed}`);
    expect(new Set(seeds).size).toBe(2);
  }, 120_000);
});
