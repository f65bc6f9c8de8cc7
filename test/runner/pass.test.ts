// One pass on its own: what it leaves behind (nothing) and how a harness failure is recorded.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRung } from '../../src/rungs/load.ts';
import { agentFactory } from '../../src/runner/agents.ts';
import { runPass, stepSpecs } from '../../src/runner/pass.ts';
import { parseArm } from '../../src/lane/arm.ts';
import { passFileState, readTraceAll } from '../../src/trace/index.ts';
import { FakeModel } from '../agent/world.ts';
import { gone, ProcessWatch } from '../fixtures/processWatch.ts';
import type { Reply } from '../agent/world.ts';
import type { JudgeAsk, JudgeFn } from '../../src/judge/judge.ts';
import { removeTempDirs, tempDir } from './helpers.ts';

afterAll(removeTempDirs);

const agent = agentFactory({ spec: 'synthetic:reference', reason: 'test', synthetic: true, policy: 'reference' });
const id = { rung: 'r', arm: 'on', armSlug: 'on', pass: 0, seed: 3 };

function rung(servers: string): ReturnType<typeof parseRung> {
  return parseRung('r.yaml', `name: r
description: d
origin: test
servers:
${servers}
setup:
  files: { notes/a.txt: "alpha\\n" }
steps:
  - prompt: read notes/a.txt
    ceiling: 3
    checks: [{ answer: { mentions: [alpha] } }]
    reference:
      calls: [{ tool: wb__files_read, args: { path: notes/a.txt } }]
      answer: it says alpha
`);
}

/** Command lines of running processes that mention `text` (the pass's folder). */
function processesMentioning(text: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(text) && !line.includes('ps -eo'));
}

describe('runPass', () => {
  it('tears down its workspace and its server processes when it ends', async () => {
    const tempRoot = await tempDir('ladder-pass-');
    const seen: string[] = [];
    const outcome = await runPass({
      rung: rung('  wb:\n    workbench: {}'), id, tracePath: join(tempRoot, 'trace.jsonl'), agent, timeFactor: 0.01, mode: 'steps', tempRoot,
      onTools: () => seen.push(...readdirSync(tempRoot).filter((name) => name.startsWith('pass-'))),
    });
    expect(outcome).toMatchObject({ passed: true, interrupted: false });
    // While the pass ran its folder existed; now only the trace is left, and no server runs on it.
    expect(seen.length).toBeGreaterThan(0);
    expect(readdirSync(tempRoot)).toEqual(['trace.jsonl']);
    expect(processesMentioning(join(tempRoot, seen[0]!))).toEqual([]);
    const { events } = await readTraceAll(join(tempRoot, 'trace.jsonl'));
    expect(events.map((e) => e.type)).toEqual([
      'pass.start', 'step.start', 'message', 'tools.list', 'model.request', 'model.response', 'tool.call', 'message',
      'model.request', 'model.response', 'step.end', 'pass.end',
    ]);
    expect(events.at(-2)).toMatchObject({ type: 'step.end', step: 0, passed: true, reason: 'answered', failedChecks: [], rounds: 2, calls: 1 });
    // The reference answer passes the answer check when it is given: time-to-answer is then.
    const answeredAt = (events.at(-2) as { answeredAt?: number }).answeredAt!;
    expect(answeredAt).toBeGreaterThanOrEqual(events[9]!.t);
    expect(answeredAt).toBeLessThanOrEqual(events[10]!.t);
  }, 60_000);

  it('records a server that does not start as the pass\'s error, not as a failed step', async () => {
    const tempRoot = await tempDir('ladder-pass-');
    const outcome = await runPass({
      rung: rung(`  wb:\n    command: ${JSON.stringify(process.execPath)}\n    args: ['-e', 'process.stderr.write("no config here"); process.exit(3)']`),
      id, tracePath: join(tempRoot, 'trace.jsonl'), agent, timeFactor: 0.01, mode: 'steps', tempRoot,
    });
    expect(outcome.steps).toEqual([]);
    expect(outcome.error).toMatch(/^server "wb" did not start .*stderr ends: no config here/);
    const { events } = await readTraceAll(join(tempRoot, 'trace.jsonl'));
    expect(events.map((e) => e.type)).toEqual(['pass.start', 'pass.end']);
    expect(events[1]).toMatchObject({ passed: false, steps: 0, error: outcome.error });
    expect(readdirSync(tempRoot)).toEqual(['trace.jsonl']);
  }, 60_000);

  it('in one-shot mode gives every step.end its step.start, so the pass reads as whole, not damaged', async () => {
    const tempRoot = await tempDir('ladder-pass-');
    const twoSteps = parseRung('r.yaml', `name: r
description: d
servers:
  wb: { workbench: {} }
setup:
  files: { notes/a.txt: "alpha\\n", notes/b.txt: "beta\\n" }
steps:
  - prompt: read notes/a.txt
    ceiling: 3
    checks: [{ answer: { mentions: [alpha] } }]
    reference:
      calls: [{ tool: wb__files_read, args: { path: notes/a.txt } }]
      answer: it says alpha
  - prompt: read notes/b.txt
    ceiling: 2
    timeLimitS: 30
    checks: [{ answer: { mentions: [beta] } }]
    reference:
      calls: [{ tool: wb__files_read, args: { path: notes/b.txt } }]
      answer: it says beta
`);
    const tracePath = join(tempRoot, 'trace.jsonl');
    const outcome = await runPass({ rung: twoSteps, id, tracePath, agent, timeFactor: 0.01, mode: 'oneshot', tempRoot });
    expect(outcome).toMatchObject({ passed: true, steps: [{ step: 0, passed: true }, { step: 1, passed: true }] });
    const { events } = await readTraceAll(tracePath);
    const steps = events.filter((e) => e.type === 'step.start' || e.type === 'step.end').map((e) => `${e.type} ${(e as { step: number }).step}`);
    expect(steps).toEqual(['step.start 0', 'step.end 0', 'step.start 1', 'step.end 1']);
    // Step 0 carries the one run's summed ceiling; step 1 its own, announced when it is judged.
    expect(events.filter((e) => e.type === 'step.start').map((e) => (e as { ceiling: number }).ceiling)).toEqual([5, 2]);
    expect(await passFileState(tracePath)).toEqual({ state: 'complete', passed: true });
  }, 60_000);
});

/** A rung over the workbench with the steps given as YAML, and an agent that follows `script`. */
function judged(steps: string, script: (n: number) => Reply, signal?: AbortSignal, judge?: JudgeFn) {
  const r = parseRung('r.yaml', `name: r
description: d
origin: test
servers:
  wb:
    workbench: {}
setup:
  files: { notes/a.txt: "alpha\\n" }
steps:
${steps}`);
  return async (mode: 'steps' | 'oneshot' = 'steps') => {
    const tempRoot = await tempDir('ladder-pass-');
    const model = new FakeModel((_request, n) => script(n));
    const outcome = await runPass({
      rung: r, id, tracePath: join(tempRoot, 'trace.jsonl'), agent: () => ({ model }), timeFactor: 0.01, mode, tempRoot,
      ...(signal === undefined ? {} : { signal }), ...(judge === undefined ? {} : { judge }),
    });
    return { outcome, events: (await readTraceAll(join(tempRoot, 'trace.jsonl'))).events };
  };
}

const STEP = (prompt: string, ceiling: number, checks: string) => `  - prompt: ${prompt}
    ceiling: ${ceiling}
    checks: ${checks}
    reference:
      calls: [{ tool: wb__files_read, args: { path: notes/a.txt } }]
      answer: it says alpha
`;
const read = { name: 'wb__files_read', args: { path: 'notes/a.txt' } };

describe('runPass judging a step', () => {
  it('fails a step that ended at the ceiling, even when every check passes', async () => {
    const run = judged(STEP('read it', 1, '[{ called: wb__files_read }]'), () => ({ calls: [read, read] }));
    const { outcome } = await run();
    expect(outcome.steps).toEqual([{ step: 0, passed: false, reason: 'ceiling', checks: [{ check: 'called "wb__files_read"', passed: true }] }]);
    expect(outcome.passed).toBe(false);
  }, 60_000);

  it('fails a step when one of its checks fails', async () => {
    const run = judged(STEP('read it', 3, '[{ called: wb__files_read }, { answer: { mentions: [beta] } }]'),
      (n) => (n === 1 ? { calls: [read] } : { text: 'it says alpha' }));
    const { outcome } = await run();
    expect(outcome.steps[0]).toMatchObject({ passed: false, reason: 'answered' });
    expect(outcome.steps[0]!.checks.map((c) => c.passed)).toEqual([true, false]);
  }, 60_000);

  it('hands a judge check to the run\'s judge with the step and where it is, and lists every judged verdict on step.end', async () => {
    const asks: JudgeAsk[] = [];
    const judge: JudgeFn = async (ask) => {
      asks.push(ask);
      return { passed: true, why: 'read', model: 'openai:j', cached: false, costUsd: 0.0125 };
    };
    const steps = STEP('read it', 3, "[{ called: wb__files_read }, { judge: { rubric: 'It read the note.' } }]") + STEP('say it', 3, '[{ answer: { mentions: [alpha] } }]');
    const script = (n: number): Reply => (n === 1 ? { calls: [read] } : { text: 'it says alpha' });
    const { outcome, events } = await judged(steps, script, undefined, judge)();
    expect(outcome.steps[0]!.checks).toEqual([
      { check: 'called "wb__files_read"', passed: true },
      { check: 'judge {"rubric":"It read the note."}', passed: true, judgedBy: 'openai:j', judgeUsd: 0.0125 },
    ]);
    expect(asks).toEqual([{
      rubric: 'It read the note.', step: { prompt: 'read it', calls: [expect.objectContaining({ tool: 'wb__files_read', outcome: 'ok' })], answer: 'it says alpha' },
      at: { rung: 'r', arm: 'on', pass: 0, step: 0 },
    }]);
    const ends = events.filter((e) => e.type === 'step.end') as { judged?: unknown }[];
    // What the verdict cost rides on step.end, where the run's spending reads it (spend.ts).
    expect(ends[0]!.judged).toEqual([{ check: 'judge {"rubric":"It read the note."}', passed: true, model: 'openai:j', usd: 0.0125 }]);
    // A step with no judge check has no judged list at all.
    expect('judged' in ends[1]!).toBe(false);

    // Without the run's judge the check is not judged, fails, and is not listed as judged.
    const alone = await judged(steps, script)();
    expect(alone.outcome.steps[0]!.checks[1]).toMatchObject({ passed: false, unjudged: true });
    expect('judged' in (alone.events.find((e) => e.type === 'step.end') as object)).toBe(false);
  }, 60_000);

  it('judges a one-shot run against every step\'s checks', async () => {
    const run = judged(STEP('read it', 2, '[{ called: wb__files_read }]') + STEP('say it', 2, '[{ answer: { mentions: [beta] } }]'),
      (n) => (n === 1 ? { calls: [read] } : { text: 'it says alpha' }));
    const { outcome, events } = await run('oneshot');
    expect(outcome.steps.map((s) => [s.step, s.passed])).toEqual([[0, true], [1, false]]);
    expect(events.filter((e) => e.type === 'step.end').map((e) => (e as { step: number }).step)).toEqual([0, 1]);
  }, 60_000);

  it('judges calledWith on the arguments as the trace writes them ({workspace} for the folder), and the counts on the step\'s calls and requests', async () => {
    const checks = (maxRounds: number) => `[{ calledWith: { tool: wb__files_read, args: { path: '{workspace}/notes/a.txt' } } }, { maxCalls: 1 }, { maxRounds: ${maxRounds} }]`;
    const pass = async (maxRounds: number) => {
      const tempRoot = await tempDir('ladder-pass-');
      return runPass({
        rung: parseRung('r.yaml', `name: r\ndescription: d\nservers:\n  wb:\n    workbench: {}\nsetup:\n  files: { notes/a.txt: "alpha\\n" }\nsteps:\n${STEP('read it', 3, checks(maxRounds))}`),
        id, tracePath: join(tempRoot, 'trace.jsonl'), timeFactor: 0.01, mode: 'steps', tempRoot,
        // The model names the file by the pass's own path, which the trace writes `{workspace}`.
        agent: ({ workspace }) => ({
          model: new FakeModel((_request, n) => (n === 1 ? { calls: [{ name: 'wb__files_read', args: { path: join(workspace, 'notes/a.txt') } }] } : { text: 'alpha' })),
        }),
      });
    };
    expect((await pass(2)).steps[0]!.checks.map((c) => [c.passed, c.why])).toEqual([[true, undefined], [true, undefined], [true, undefined]]);
    expect((await pass(1)).steps[0]!.checks[2]).toMatchObject({ passed: false, why: '2 model request(s) were made (at most 1)' });
  }, 60_000);

  it('leaves an interrupted pass without pass.end, so --resume makes it again', async () => {
    const stop = new AbortController();
    const run = judged(STEP('read it', 3, '[{ called: wb__files_read }]'), () => {
      stop.abort();
      return { calls: [read] };
    }, stop.signal);
    const { outcome, events } = await run();
    expect(outcome).toMatchObject({ interrupted: true, passed: false });
    expect(events.map((e) => e.type)).not.toContain('pass.end');
  }, 60_000);
});

describe('a remote server the pass starts ({url, start})', () => {
  const ladderBin = join(import.meta.dirname, '../../bin/ladder.js');
  const started = (command: string) => rung([
    '  wb:',
    '    url: http://127.0.0.1:{port}/mcp',
    `    start: { command: ${JSON.stringify(command)}, args: [${JSON.stringify(ladderBin)}, serve, --transport, http, --port, '{port}', --workspace, '{workspace}'] }`,
  ].join('\n'));

  it('is started on a free port for the pass, reached over Streamable HTTP, and stopped after', async () => {
    const tempRoot = await tempDir('ladder-pass-');
    const seen: string[] = [];
    const outcome = await runPass({
      rung: started('node'), id, tracePath: join(tempRoot, 'trace.jsonl'), agent, timeFactor: 0.01, mode: 'steps', tempRoot,
      onTools: () => seen.push(...readdirSync(tempRoot).filter((name) => name.startsWith('pass-'))),
    });
    expect(outcome).toMatchObject({ passed: true, interrupted: false });
    expect(processesMentioning(join(tempRoot, seen[0]!))).toEqual([]);
    const { events } = await readTraceAll(join(tempRoot, 'trace.jsonl'));
    expect(events.find((e) => e.type === 'tool.call')).toMatchObject({ 'gen_ai.tool.name': 'wb__files_read', outcome: 'ok' });
  }, 60_000);

  it('ends as interrupted at once, not at the connect timeout, when the run stops while its server starts', async () => {
    // The server listens and never answers, so only the pass's signal ends the wait, 60 s early.
    await using watch = await ProcessWatch.start();
    const fixture = fileURLToPath(new URL('../fixtures/started-server.mjs', import.meta.url));
    const tempRoot = await tempDir('ladder-pass-');
    const stop = new AbortController();
    const running = runPass({
      rung: rung([
        '  wb:',
        '    url: http://127.0.0.1:{port}/mcp',
        `    start: { command: node, args: [${JSON.stringify(fixture)}, '{port}', --mute], env: ${JSON.stringify(watch.env)} }`,
      ].join('\n')),
      id, tracePath: join(tempRoot, 'trace.jsonl'), agent, timeFactor: 0.01, mode: 'steps', tempRoot, signal: stop.signal,
    });
    const [server] = await watch.arrivals(1);
    stop.abort();
    expect(await running).toEqual({ passed: false, interrupted: true, steps: [] });
    // Stopped before the pass returned.
    expect(gone(server!.pid)).toBe(true);
  });

  it('ends the pass as a harness error, in one line, when the server exits before it listens', async () => {
    const tempRoot = await tempDir('ladder-pass-');
    const outcome = await runPass({
      rung: rung([
        '  wb:',
        '    url: http://127.0.0.1:{port}/mcp',
        `    start: { command: node, args: ['-e', 'console.error("no config here"); process.exit(3)'] }`,
      ].join('\n')),
      id, tracePath: join(tempRoot, 'trace.jsonl'), agent, timeFactor: 0.01, mode: 'steps', tempRoot,
    });
    expect(outcome.passed).toBe(false);
    expect(outcome.error).toMatch(/^server "wb" did not start \(.*node -e .*\): exited \(code 3\); stderr ends: no config here$/);
  }, 60_000);
});

describe('stepSpecs with an arm that sets step parameters', () => {
  const r = rung('  wb:\n    workbench: {}');

  it('gives each step the arm\'s ceiling and time limit, scaled by the time factor as the rung\'s own would be', () => {
    const [own] = stepSpecs(r, 1, 'steps');
    expect(own).toMatchObject({ ceiling: 3, timeLimitMs: 300_000 });
    const [swept] = stepSpecs(r, 1, 'steps', parseArm('off,ceiling=x2,timeLimit=x0.5'));
    expect(swept).toMatchObject({ ceiling: 6, timeLimitMs: 150_000 });
    const [absolute] = stepSpecs(r, 0.5, 'steps', parseArm('ceiling=1,timeLimit=100'));
    expect(absolute).toMatchObject({ ceiling: 1, timeLimitMs: 50_000 });
  });
});
