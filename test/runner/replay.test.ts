// Recording a real-model run and replaying it without the model: a local OpenAI-compatible
// server plays a scripted policy through the real `openai` client; the replay runs with that
// server stopped, against the same live MCP servers, and must reproduce the run.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runLadder } from '../../src/cli/runLadder.ts';
import type { RunArgs } from '../../src/cli/runLadder.ts';
import { listTraces } from '../../src/results/store.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { PolicyServer } from '../helpers/policyServer.ts';
import { SCRIPTED_POLICY, scriptedRung } from './scriptedRung.ts';
import { removeTempDirs, ROOT, tempDir, tracesWithoutTimes } from './helpers.ts';

const RUNG = scriptedRung('replayed');
const POLICY = SCRIPTED_POLICY;

const KEY = 'sk-replay-test-key-0123456789';

async function run(args: RunArgs): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const progress = new PassThrough();
  progress.resume();
  const code = await runLadder({ passes: 2, timeFactor: 0.01, ...args }, {
    cwd: ROOT, env: { OPENAI_API_KEY: KEY }, stdout: (line) => lines.push(line), progress, signal: new AbortController().signal,
  });
  return { code, lines };
}

const stepEnds = async (out: string) =>
  [...(await tracesWithoutTimes(out)).entries()].flatMap(([path, events]) =>
    (events as unknown as TraceEvent[]).filter((e) => e.type === 'step.end').map((e) => ({ path, ...e })));

describe('ladder run --replay', () => {
  let dir: string;
  let rung: string;
  let recorded: string;
  let server: PolicyServer;

  beforeAll(async () => {
    dir = await tempDir('ladder-replay-');
    rung = join(dir, 'replayed.yaml');
    await writeFile(rung, RUNG);
    server = await PolicyServer.start(POLICY);
    vi.stubEnv('OPENAI_BASE_URL', server.url);
    vi.stubEnv('OPENAI_API_KEY', KEY);
    recorded = join(dir, 'recorded');
    const { code } = await run({ rungs: [rung], model: 'openai:scripted', out: recorded });
    expect(code).toBe(0);
    await server.close();
  }, 120_000);
  afterEach(() => undefined);
  afterAll(async () => {
    vi.unstubAllEnvs();
    await removeTempDirs();
  });

  it('reproduces every step result, check and count with the provider stopped', async () => {
    // 2 arms x 2 passes x (3 requests in step 0 + 2 in step 1), after the reachability check's one.
    expect(server.bodies.length).toBe(1 + 2 * 2 * 5);
    const replayed = join(dir, 'replayed');
    const before = server.bodies.length;
    const { code, lines } = await run({ rungs: [rung], replay: recorded, out: replayed });
    expect(code).toBe(0);
    expect(server.bodies.length).toBe(before);
    expect(lines[0]).toMatch(/^model: openai:scripted \(replaying .*recorded: every model response comes from that recording, no provider is called\)$/);
    const manifest = JSON.parse(await readFile(join(replayed, 'manifest.json'), 'utf8')) as { replay: unknown };
    expect(manifest.replay).toEqual({ run: recorded, runId: 'recorded' });
    // Every event but its times: the prompts, the model's turns, every tool result, each
    // outcome, token count, request hash and verdict.
    expect(await tracesWithoutTimes(replayed)).toEqual(await tracesWithoutTimes(recorded));
    expect((await stepEnds(replayed)).every((e) => e.passed)).toBe(true);
  }, 120_000);

  it('ends a step as replay_diverged at the first message that differs, and runs the steps before it as recorded', async () => {
    const edited = join(dir, 'edited.yaml');
    await writeFile(edited, RUNG.replace('according to the catalog?', 'according to the service catalog?'));
    const out = join(dir, 'diverged');
    const { code } = await run({ rungs: [edited], replay: recorded, out });
    // Every pass errored (each diverged at step 1): such a run never ends complete with exit 0.
    expect(code).toBe(1);
    const ends = await stepEnds(out);
    expect(ends.filter((e) => e.step === 0).every((e) => e.passed)).toBe(true);
    const second = ends.filter((e) => e.step === 1);
    expect(second).toHaveLength(4);
    for (const end of second) {
      expect(end).toMatchObject({ passed: false, reason: 'errored' });
      expect(end.error).toMatch(
        /^replay of .*recorded: replayed (on|off) pass \d diverged at step 1 round 1: message 7 \(user\) differs: recorded "...e listen on, according to the catalog\?", now "...e listen on, according to the service catalog\?"$/,
      );
    }
    const { events } = await readTraceAll(join(out, 'traces', (await listTraces(out))[0]!));
    expect(events.find((e) => e.type === 'model.response' && e.step === 1)).toMatchObject({ 'error.type': 'replay_diverged' });
  }, 120_000);

  it('refuses a run it cannot replay, in one line, before a results folder exists', async () => {
    const out = join(dir, 'never');
    const stderr: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr.push(String(chunk));
      return true;
    });
    try {
      expect((await run({ rungs: [rung], replay: join(dir, 'nothing-here'), out })).code).toBe(2);
      expect((await run({ rungs: [rung], replay: recorded, model: 'openai:other', out })).code).toBe(2);
      const redacted = join(dir, 'redacted');
      await run({ rungs: [rung], model: 'synthetic:reference', passes: 1, redact: 'content', out: redacted });
      expect((await run({ rungs: [rung], replay: redacted, out })).code).toBe(2);
    } finally {
      write.mockRestore();
    }
    // No results folder was started for any of them.
    expect(existsSync(out)).toBe(false);
    expect(stderr).toEqual([
      expect.stringMatching(/^ladder run: --replay: .*nothing-here: no such results folder; name a folder written by ladder run \(results\/<run-id>\)\n$/),
      'ladder run: --replay answers as the recorded model did, so it takes no --model; drop one of them\n',
      expect.stringMatching(/^ladder run: --replay .*redacted: this run was recorded with --redact content, so its traces hold no model responses to replay\n$/),
    ]);
  }, 120_000);
});
