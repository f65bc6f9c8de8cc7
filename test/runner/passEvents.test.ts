// What one pass writes and returns, field by field, against a tool server served in this
// process over Streamable HTTP (a `url:` server: no process to start, so each pass takes
// milliseconds) and a scripted model. pass.test.ts covers what needs real processes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProviderError } from '../../src/models/retry.ts';
import { parseRung } from '../../src/rungs/load.ts';
import type { Rung } from '../../src/rungs/schema.ts';
import { runPass } from '../../src/runner/pass.ts';
import type { PassInput } from '../../src/runner/pass.ts';
import { unpackSnapshot } from '../../src/runner/snapshot.ts';
import { readTraceAll } from '../../src/trace/index.ts';
import type { TraceEvent } from '../../src/trace/index.ts';
import { FakeModel } from '../agent/world.ts';
import { startStatelessMcp } from '../helpers/statelessMcp.ts';
import type { StatelessMcp } from '../helpers/statelessMcp.ts';
import type { Reply } from '../agent/world.ts';
import { V2_SERVER } from '../helpers/v2Server.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

let server: StatelessMcp;
let url: string;
/** Every call a tool of the served server received, by tool name. */
const received: string[] = [];
/** HTTP requests the server has had. */
let requests = 0;

beforeAll(async () => {
  server = await startStatelessMcp('notes', (mcp) => {
    // `read` says it is deterministic; `list` says nothing.
    mcp.registerTool('read', { description: 'reads the note', _meta: { 'ladder/deterministic': true } }, () => {
      received.push('read');
      return { content: [{ type: 'text', text: 'the note says alpha' }] };
    });
    mcp.registerTool('list', { description: 'lists the notes' }, () => {
      received.push('list');
      return { content: [{ type: 'text', text: 'a.txt' }], isError: true };
    });
    // `write` puts text in a file the model names by its full path (the pass's workspace).
    mcp.registerTool('write', { description: 'writes a file', inputSchema: { path: z.string(), text: z.string() } }, async ({ path, text }) => {
      await writeFile(path, text);
      return { content: [{ type: 'text', text: 'written' }] };
    });
  }, () => {
    requests += 1;
  });
  ({ url } = server);
});
afterAll(async () => {
  await server.close();
  await removeTempDirs();
});

const id = { rung: 'r', arm: 'on', armSlug: 'on', pass: 2, seed: 41 };

/** A rung over the served server (`notes`), with `top` YAML before `steps:` and the steps given. */
function rungOf(steps: string, top = ''): Rung {
  return parseRung('r.yaml', `name: r
description: d
servers:
  notes: { url: "${url}" }
${top}setup:
  files: { notes/a.txt: "alpha\\n" }
steps:
${steps}`);
}

const STEP = (prompt: string, ceiling: number, checks: string, timeLimitS = 300) => `  - prompt: ${prompt}
    ceiling: ${ceiling}
    timeLimitS: ${timeLimitS}
    checks: ${checks}
    reference: { answer: it says alpha }
`;
const read = { name: 'notes__read' };

/** Runs one pass with a scripted model; the outcome, the trace's events and what the model was sent. */
async function pass(rung: Rung, script: (n: number) => Reply, extra: Partial<PassInput> = {}) {
  const tempRoot = await tempDir('ladder-pass-events-');
  const model = new FakeModel((_request, n) => script(n));
  const tracePath = join(tempRoot, 'trace.jsonl');
  const outcome = await runPass({
    rung, id, tracePath, agent: () => ({ model }), timeFactor: 1, mode: 'steps', tempRoot, ...extra,
  });
  const { events } = await readTraceAll(tracePath);
  return { outcome, events, model, tempRoot };
}

const ofType = <T extends TraceEvent['type']>(events: readonly TraceEvent[], type: T) =>
  events.filter((e): e is Extract<TraceEvent, { type: T }> => e.type === type);

describe('a pass\'s first and last events', () => {
  it('start with the pass\'s id and full content, and end with the step count, the time and no error', async () => {
    const { outcome, events } = await pass(rungOf(STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]')), () => ({ text: 'alpha' }));
    expect(outcome).toEqual({
      passed: true, interrupted: false,
      steps: [{ step: 0, passed: true, reason: 'answered', checks: [{ check: 'answer {"mentions":["alpha"]}', passed: true }] }],
    });
    const start = events[0]!;
    expect(start).toMatchObject({ type: 'pass.start', rung: 'r', arm: 'on', pass: 2, seed: 41, content: 'full' });
    expect(Date.parse((start as { time: string }).time)).not.toBeNaN();
    const end = events.at(-1)!;
    expect(Object.keys(end).sort()).toEqual(['ms', 'passed', 'steps', 't', 'type', 'v']);
    expect(end).toMatchObject({ type: 'pass.end', passed: true, steps: 1 });
    // The pass's time is read on the trace's own clock, in whole milliseconds, after the event
    // before pass.end and before pass.end itself is stamped (bounds, not a gap: a loaded machine
    // may pause between the two readings).
    const { ms, t } = end as { ms: number; t: number };
    expect(Number.isInteger(ms)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(events.at(-2)!.t - 0.5);
    expect(ms).toBeLessThanOrEqual(t + 0.5);
  });

  it('says the content is redacted when it is', async () => {
    const { events } = await pass(rungOf(STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]')), () => ({ text: 'alpha' }), { content: 'redacted' });
    expect(events[0]).toMatchObject({ type: 'pass.start', content: 'redacted' });
    expect(ofType(events, 'message')[0]).not.toHaveProperty('message.content');
  });

  it('scrubs the secrets it is given from the trace', async () => {
    const { events } = await pass(rungOf(STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]')), () => ({ text: 'alpha and key-4711-secret' }),
      { secrets: [{ name: 'API_KEY', value: 'key-4711-secret' }] });
    expect(JSON.stringify(events)).not.toContain('key-4711-secret');
    expect(JSON.stringify(events)).toContain('alpha and');
  });
});

describe('a step\'s end', () => {
  it('lists each failed check with why, and counts rounds and calls', async () => {
    const rung = rungOf(STEP('read it', 3, '[{ called: notes__read }, { notCalled: notes__list }, { answer: { mentions: [beta] } }]'));
    const { outcome, events } = await pass(rung, (n) => (n === 1 ? { calls: [read, { name: 'notes__list' }] } : { text: 'it says alpha' }));
    const [end] = ofType(events, 'step.end');
    expect(end).toMatchObject({
      step: 0, passed: false, reason: 'answered', rounds: 2, calls: 2,
      failedChecks: [
        { check: 'notCalled "notes__list"', why: 'notes__list was called 1 time(s)' },
        { check: 'answer {"mentions":["beta"]}', why: 'the answer does not mention "beta"' },
      ],
    });
    expect(end).not.toHaveProperty('answeredAt');
    expect(end).not.toHaveProperty('error');
    expect(Number.isInteger(end!.ms)).toBe(true);
    expect(end!.ms).toBeLessThanOrEqual(Math.ceil(end!.t));
    expect(outcome.steps[0]!.checks.map((c) => c.passed)).toEqual([true, false, false]);
    expect(outcome.steps[0]).not.toHaveProperty('error');
    expect(outcome.passed).toBe(false);
  });

  it('records when the answer first passed, on the trace\'s clock, to the microsecond', async () => {
    const rung = rungOf(STEP('read it', 3, '[{ answer: { mentions: [alpha] } }]'));
    const { events } = await pass(rung, (n) => (n === 1 ? { text: 'alpha first', calls: [read] } : { text: 'alpha again' }));
    const [end] = ofType(events, 'step.end');
    const responses = ofType(events, 'model.response');
    const answeredAt = end!.answeredAt!;
    // The first response already mentioned alpha: answeredAt lies between it and the next request.
    expect(answeredAt).toBeGreaterThanOrEqual(responses[0]!.t - 0.001);
    expect(answeredAt).toBeLessThanOrEqual(ofType(events, 'model.request')[1]!.t);
    expect(Math.abs(answeredAt * 1000 - Math.round(answeredAt * 1000))).toBeLessThan(1e-6);
  });

  it('of a provider that kept failing carries the error line and its cause, and the pass no error', async () => {
    const rung = rungOf(STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]'));
    const { outcome, events } = await pass(rung, () => {
      throw new ProviderError('model fake:scripted failed after 3 attempts: HTTP 503', 'server', 503, 3, 'HTTP 503');
    });
    expect(outcome.steps[0]).toMatchObject({
      passed: false, reason: 'errored', error: { line: 'model fake:scripted failed after 3 attempts: HTTP 503', cause: 'HTTP 503' },
    });
    expect(ofType(events, 'step.end')[0]).toMatchObject({ reason: 'errored', error: 'model fake:scripted failed after 3 attempts: HTTP 503' });
    expect(events.at(-1)).toMatchObject({ type: 'pass.end', passed: false, steps: 1 });
    expect(events.at(-1)).not.toHaveProperty('error');
  });
});

describe('a pass\'s verdict', () => {
  it('fails a step that ended at its ceiling, though every check passed', async () => {
    const { outcome, events } = await pass(rungOf(STEP('read it', 1, '[{ called: notes__read }]')), () => ({ calls: [read, read] }));
    expect(outcome.steps).toEqual([{ step: 0, passed: false, reason: 'ceiling', checks: [{ check: 'called "notes__read"', passed: true }] }]);
    expect(ofType(events, 'step.end')[0]).toMatchObject({ passed: false, reason: 'ceiling', failedChecks: [] });
    expect(outcome.passed).toBe(false);
  });

  it('passes only when every step passed', async () => {
    const rung = rungOf(STEP('read it', 2, '[{ called: notes__read }]') + STEP('say it', 2, '[{ answer: { mentions: [beta] } }]'));
    const { outcome, events } = await pass(rung, (n) => (n === 1 ? { calls: [read] } : { text: 'alpha' }));
    expect(outcome.steps.map((s) => [s.step, s.passed])).toEqual([[0, true], [1, false]]);
    expect(outcome.passed).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'pass.end', passed: false, steps: 2 });
  });

  it('interrupted before its servers connect, connects to none, runs no step and ends as interrupted', async () => {
    const stop = new AbortController();
    stop.abort();
    const before = requests;
    const { outcome, events, model } = await pass(rungOf(STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]')), () => ({ text: 'alpha' }),
      { signal: stop.signal });
    expect(requests).toBe(before);
    expect(model.requests).toEqual([]);
    expect(outcome).toEqual({ passed: false, interrupted: true, steps: [] });
    expect(events.map((e) => e.type)).toEqual(['pass.start']);
  });
});

describe('an interrupted step', () => {
  it('ends the pass as interrupted, without pass.end, judging nothing', async () => {
    const stop = new AbortController();
    const { outcome, events } = await pass(rungOf(STEP('read it', 3, '[{ called: notes__read }]') + STEP('say it', 2, '[{ called: notes__read }]')), (n) => {
      if (n === 2) stop.abort();
      return n === 1 ? { text: 'first', calls: [read] } : { text: 'done' };
    }, { signal: stop.signal });
    expect(outcome).toEqual({ passed: false, interrupted: true, steps: [] });
    expect(events.map((e) => e.type)).not.toContain('pass.end');
    expect(events.map((e) => e.type)).not.toContain('step.end');
  });
});

describe('what a pass hands its caller and its agent', () => {
  it('shows every turn\'s tool names and every call\'s result as the model got it', async () => {
    const rung = rungOf(STEP('read it', 3, '[{ called: notes__read }]') + STEP('list them', 3, '[{ called: notes__list }]'));
    const tools: string[][] = [];
    const calls: [string, string, boolean][] = [];
    const { outcome } = await pass(rung, (n) => (n % 2 === 1 ? { calls: [n === 1 ? read : { name: 'notes__list' }] } : { text: 'done' }), {
      onTools: (names) => tools.push([...names]),
      onCall: (name, result) => calls.push([name, result.text, result.isError]),
    });
    expect(outcome.passed).toBe(true);
    const offered = ['notes__read', 'notes__list', 'notes__write', 'harness__refresh_tools'];
    expect(tools).toEqual([offered, offered]);
    expect(calls).toEqual([['notes__read', 'the note says alpha', false], ['notes__list', 'a.txt', true]]);
  });

  it('calls back on tools alone, or on calls alone', async () => {
    const rung = rungOf(STEP('read it', 3, '[{ called: notes__read }]'));
    const script = (n: number): Reply => (n === 1 ? { calls: [read] } : { text: 'done' });
    const tools: number[] = [];
    await pass(rung, script, { onTools: (names) => tools.push(names.length) });
    expect(tools).toEqual([4]);
    const calls: string[] = [];
    await pass(rung, script, { onCall: (name) => calls.push(name) });
    expect(calls).toEqual(['notes__read']);
  });

  it('gives the agent the pass\'s rung, id, workspace and mode, and sends its sampling with every request', async () => {
    const rung = rungOf(STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]'));
    const tempRoot = await tempDir('ladder-pass-events-');
    const model = new FakeModel(() => ({ text: 'alpha' }));
    const seen: { oneShot: boolean; workspace: string; seed: number; rung: string }[] = [];
    await runPass({
      rung, id, tracePath: join(tempRoot, 'trace.jsonl'), timeFactor: 1, mode: 'oneshot', tempRoot,
      agent: (input) => {
        seen.push({ oneShot: input.oneShot, workspace: input.workspace, seed: input.id.seed, rung: input.rung.name });
        return { model, sampling: { temperature: 0.25, seed: 41 } };
      },
    });
    expect(seen).toEqual([{ oneShot: true, workspace: expect.stringMatching(/workspace$/), seed: 41, rung: 'r' }]);
    expect(model.requests.map((r) => r.options)).toEqual([{ temperature: 0.25, seed: 41 }]);
    // Step by step, the agent is not told it has one shot; with no sampling, requests carry none.
    await runPass({
      rung, id, tracePath: join(tempRoot, 'steps.jsonl'), timeFactor: 1, mode: 'steps', tempRoot,
      agent: (input) => {
        seen.push({ oneShot: input.oneShot, workspace: input.workspace, seed: input.id.seed, rung: input.rung.name });
        return { model };
      },
    });
    expect(seen[1]!.oneShot).toBe(false);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]).not.toHaveProperty('options');
  });
});

describe('which tools a pass treats as deterministic', () => {
  const calledTwice = (n: number): Reply => (n === 1 ? { calls: [read, { name: 'notes__list' }] } : { text: 'done' });
  const flags = (events: readonly TraceEvent[]) => ofType(events, 'tool.call').map((e) => [e['gen_ai.tool.name'], e.deterministic]);

  it('believes the server\'s hint by default, and adds the rung\'s own list', async () => {
    const { events } = await pass(rungOf(STEP('read it', 3, '[{ called: notes__read }]'), 'deterministic: [notes__list]\n'), calledTwice);
    expect(flags(events)).toEqual([['notes__read', true], ['notes__list', true]]);
  });

  it('ignores the hint when the rung says not to trust it', async () => {
    const { events } = await pass(rungOf(STEP('read it', 3, '[{ called: notes__read }]'), 'trustServerHints: false\n'), calledTwice);
    expect(flags(events)).toEqual([['notes__read', false], ['notes__list', false]]);
  });
});

describe('one-shot mode', () => {
  it('announces each later step with its own ceiling and time limit, scaled', async () => {
    const rung = rungOf(STEP('read it', 2, '[{ called: notes__read }]', 40) + STEP('say it', 4, '[{ answer: { mentions: [alpha] } }]', 50));
    const { outcome, events } = await pass(rung, (n) => (n === 1 ? { calls: [read] } : { text: 'alpha' }), { mode: 'oneshot', timeFactor: 0.5 });
    expect(ofType(events, 'step.start').map((e) => [e.step, e.ceiling, e.timeLimitMs])).toEqual([[0, 6, 45_000], [1, 4, 25_000]]);
    expect(outcome.steps.map((s) => [s.step, s.passed])).toEqual([[0, true], [1, true]]);
    // One run of the agent: one prompt, both tasks in it.
    expect(ofType(events, 'message')[0]).toMatchObject({ message: { role: 'user', content: 'Task 1: read it\n\nTask 2: say it' } });
  });
});

describe('the reference at each step.start', () => {
  const withCalls = (prompt: string, tools: string[]) => `  - prompt: ${prompt}
    ceiling: 4
    checks: [{ called: notes__read }]
    reference:
      calls: [${tools.map((tool) => `{ tool: ${tool} }`).join(', ')}]
      answer: it says alpha
`;
  const rung = () => rungOf(withCalls('read it', ['notes__read', 'notes__list']) + withCalls('read again', ['notes__read']));
  const script = (n: number): Reply => (n % 2 === 1 ? { calls: [read] } : { text: 'alpha' });

  it("records the tools the reference calls in the step, in its order, so the report can score the step's calls", async () => {
    const { events } = await pass(rung(), script);
    expect(ofType(events, 'step.start').map((e) => [e.step, e.reference])).toEqual([[0, ['notes__read', 'notes__list']], [1, ['notes__read']]]);
  });

  it('records every step\'s under one-shot, where one run does them all, and none for a step judged after it', async () => {
    const { events } = await pass(rung(), script, { mode: 'oneshot' });
    expect(ofType(events, 'step.start').map((e) => [e.step, e.reference])).toEqual([[0, ['notes__read', 'notes__list', 'notes__read']], [1, undefined]]);
  });
});

describe('a pass that cannot run its servers', () => {
  it('names every server that did not answer, in one line', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const rung = parseRung('r.yaml', `name: r
description: d
servers:
  one: { url: "http://127.0.0.1:${port}/one" }
  two: { url: "http://127.0.0.1:${port}/two" }
steps:
${STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]')}`);
    const { outcome, events } = await pass(rung, () => ({ text: 'alpha' }));
    expect(outcome).toEqual({
      passed: false, interrupted: false, steps: [],
      error: `server "one" did not answer (http://127.0.0.1:${port}/one): Version negotiation probe failed: fetch failed (ECONNREFUSED); `
        + `server "two" did not answer (http://127.0.0.1:${port}/two): Version negotiation probe failed: fetch failed (ECONNREFUSED)`,
    });
    expect(events.map((e) => e.type)).toEqual(['pass.start', 'pass.end']);
    expect(events[1]).toMatchObject({ passed: false, steps: 0, error: outcome.error });
  });

  it('says a server refused the protocol when one of them did, even beside one that is only down', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    // The SDK v2 fixture that speaks 2026-07-28 only, given protocol: legacy, refuses the 2025
    // handshake: an answer every pass would get.
    const rung = parseRung('r.yaml', `name: r
description: d
servers:
  modern: { command: node, args: ${JSON.stringify([V2_SERVER, 'modern', 'stdio'])}, protocol: legacy }
  gone: { url: "http://127.0.0.1:${port}/mcp" }
steps:
${STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]')}`);
    const { outcome } = await pass(rung, () => ({ text: 'alpha' }));
    expect(outcome).toEqual({ passed: false, interrupted: false, steps: [], error: expect.any(String), refused: true });
    expect(outcome.error).toMatch(/^server "modern" refused Ladder's protocol version .*; server "gone" did not answer /);
  });

  it('names every server it starts itself that exited before it listened, in the rung\'s order, in one line, and ends with pass.end', async () => {
    // "one" exits after "two" has, so a list kept in the order of the failures would start with "two".
    const exits = (code: number, afterMs = 0) => `{ url: "http://127.0.0.1:{port}/mcp", start: { command: ${JSON.stringify(process.execPath)}, `
      + `args: ["-e", "setTimeout(() => process.exit(${code}), ${afterMs})"] } }`;
    const rung = parseRung('r.yaml', `name: r
description: d
servers:
  one: ${exits(3, 500)}
  two: ${exits(4)}
steps:
${STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]')}`);
    const { outcome, events } = await pass(rung, () => ({ text: 'alpha' }));
    expect(outcome).toMatchObject({ passed: false, interrupted: false, steps: [] });
    const lines = outcome.error!.split('; ');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^server "one" did not start \(.*\): exited \(code 3\)$/);
    expect(lines[1]).toMatch(/^server "two" did not start \(.*\): exited \(code 4\)$/);
    expect(events.map((e) => e.type)).toEqual(['pass.start', 'pass.end']);
    expect(events[1]).toMatchObject({ passed: false, steps: 0, error: outcome.error });
  });

  it('records a server the lane cannot be configured for (a package not installed) as the pass\'s error', async () => {
    const rung = parseRung('r.yaml', `name: r
description: d
servers:
  gone: { package: ladder-no-such-package-here }
steps:
${STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]')}`);
    const { outcome, events } = await pass(rung, () => ({ text: 'alpha' }));
    expect(outcome).toMatchObject({ passed: false, interrupted: false, steps: [] });
    expect(outcome.error).toMatch(/^package ladder-no-such-package-here is not installed under /);
    expect(events.at(-1)).toMatchObject({ type: 'pass.end', error: outcome.error });
  });

  it('throws a harness fault that is not a configuration error rather than recording it', async () => {
    const rung = rungOf(STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]'));
    // A server spec the schema would never produce: its args are missing.
    const broken = { ...rung, servers: { bad: { command: 'node' } } } as unknown as Rung;
    await expect(pass(broken, () => ({ text: 'alpha' }))).rejects.toThrow(TypeError);
  });
});

describe('--keep-workspaces', () => {
  it('replaces the snapshot folder with one snapshot per step, taken at the step\'s end', async () => {
    const tempRoot = await tempDir('ladder-pass-events-');
    const snapshots = join(tempRoot, 'kept');
    await mkdir(join(snapshots, 'old'), { recursive: true });
    await writeFile(join(snapshots, 'old', 'step-9.tar.gz'), 'stale');
    const rung = rungOf(STEP('write one', 2, '[{ called: notes__write }]') + STEP('write two', 2, '[{ called: notes__write }]'));
    // Each step writes b.txt in the workspace (the agent is told where it is), then answers.
    let workspace = '';
    const model = new FakeModel((_request, n) => (n % 2 === 0 ? { text: 'done' }
      : { calls: [{ name: 'notes__write', args: { path: join(workspace, 'b.txt'), text: n === 1 ? 'one' : 'two' } }] }));
    const outcome = await runPass({
      rung, id, tracePath: join(tempRoot, 'trace.jsonl'), timeFactor: 1, mode: 'steps', tempRoot, snapshots,
      agent: (input) => {
        workspace = input.workspace;
        return { model };
      },
    });
    expect(outcome.passed).toBe(true);
    expect((await readdir(snapshots)).sort()).toEqual(['step-0.tar.gz', 'step-1.tar.gz']);
    const texts: string[] = [];
    for (const step of [0, 1]) {
      const unpacked = await unpackSnapshot(join(snapshots, `step-${step}.tar.gz`), join(tempRoot, `unpacked-${step}`));
      expect(unpacked.database).toBeNull();
      expect((await readdir(unpacked.workspace)).sort()).toEqual(['b.txt', 'notes']);
      texts.push(await readFile(join(unpacked.workspace, 'b.txt'), 'utf8'));
    }
    expect(texts).toEqual(['one', 'two']);
  });

  it('makes the folder when there is none yet; one snapshot for a one-shot pass', async () => {
    const tempRoot = await tempDir('ladder-pass-events-');
    const snapshots = join(tempRoot, 'kept');
    const rung = rungOf(STEP('read it', 2, '[{ called: notes__read }]') + STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]'));
    await pass(rung, (n) => (n === 1 ? { calls: [read] } : { text: 'alpha' }), { snapshots, mode: 'oneshot' });
    expect(await readdir(snapshots)).toEqual(['step-0.tar.gz']);
  });

  it('keeps nothing when not asked', async () => {
    const rung = rungOf(STEP('say it', 2, '[{ answer: { mentions: [alpha] } }]'));
    const { tempRoot } = await pass(rung, () => ({ text: 'alpha' }));
    expect(await readdir(tempRoot)).toEqual(['trace.jsonl']);
  });
});
