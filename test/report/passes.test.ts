// Reading traces into pass records (src/report/passes.ts): hand-written trace files, each line
// placed by the test, and the records and tally they give counted on the page.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyTraceTally, readPasses } from '../../src/report/passes.ts';
import type { PassRecord, StepRun, ToolTally, TraceTally } from '../../src/report/passes.ts';
import type { Outcome } from '../../src/trace/index.ts';
import { tempDir } from './runBuilder.ts';

let dir: string;
let remove: () => void;
beforeEach(() => ({ dir, remove } = tempDir('ladder-passes-')));
afterEach(() => remove());

type Fields = Record<string, unknown>;
const line = (type: string, t: number, fields: Fields, v = 2): string => JSON.stringify({ v, type, t, ...fields });

const passStart = (t: number, over: Fields = {}, v = 2): string =>
  line('pass.start', t, { rung: 'r', arm: 'on', pass: 0, seed: 7, time: '2026-01-01T00:00:00.000Z', content: 'full', ...over }, v);
const stepStart = (step: number, t: number): string => line('step.start', t, { step, ceiling: 8, timeLimitMs: 60_000 });
const toolsList = (t: number, turn: number, configured: number): string => line('tools.list', t, {
  'mcp.method.name': 'tools/list', turn, configured, reached: configured, listed: configured, registered: configured, unavailable: 0,
  cached: 0, tools: 3, failed: [], ms: 1,
});
const request = (step: number, t: number, tools: number): string => line('model.request', t, {
  step, round: 0, 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'synthetic', 'gen_ai.request.model': 'x', tools,
  messages: 1, messageBytes: 10,
});
const response = (step: number, t: number, input: number | null, output: number | null, ms: number, cache: Fields = {}): string =>
  line('model.response', t, {
    step, round: 0, 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output, ...cache,
    'gen_ai.response.finish_reasons': ['stop'], ms, attempts: 1, textBytes: 1, toolCalls: [],
  });
const call = (t: number, turn: number, name: string, key: string, outcome: Outcome, ms: number, deterministic?: boolean): string =>
  line('tool.call', t, {
    'mcp.method.name': 'tools/call', 'gen_ai.tool.name': name, turn, round: 0, server: name.split('__')[0], tool: name.split('__')[1],
    key, outcome, ms, argBytes: 2, resultBytes: 2, ...(deterministic === undefined ? {} : { deterministic }),
  });
const stepEnd = (step: number, t: number, ms: number, over: Fields = {}): string =>
  line('step.end', t, { step, passed: true, reason: 'answered', failedChecks: [], rounds: 1, calls: 0, ms, ...over });
const passEnd = (t: number, over: Fields = {}): string => line('pass.end', t, { passed: true, steps: 1, ms: t, ...over });

/** A whole one-step pass that passed, from `t`. */
const wholePass = (t: number, over: Fields = {}): string[] => [passStart(t, over), stepStart(0, t + 1), stepEnd(0, t + 2, 1), passEnd(t + 3)];

/** Reads `text` as traces/<name> of the run folder into a fresh (or the given) tally. */
async function read(text: string, tally: TraceTally = emptyTraceTally(), name = 'p.jsonl'): Promise<{ passes: PassRecord[]; tally: TraceTally }> {
  mkdirSync(join(dir, 'traces'), { recursive: true });
  const path = join(dir, 'traces', name);
  writeFileSync(path, text);
  const passes: PassRecord[] = [];
  await readPasses(dir, path, tally, (p) => passes.push(p));
  return { passes, tally };
}

const lines = (...ls: string[]): string => `${ls.join('\n')}\n`;

const outcomes = (some: Partial<Record<Outcome, number>>): Record<Outcome, number> =>
  ({ ok: 0, failed: 0, timeout: 0, refused: 0, unavailable: 0, short_circuited: 0, ...some });

const tool = (tool: string, over: Partial<ToolTally>): ToolTally => ({
  tool, server: tool.split('__')[0]!, deterministic: false, calls: 0, sent: 0, repeats: 0, repeatsSent: 0, deadCalls: 0, rejected: 0,
  outcomes: outcomes({}), ms: [], ...over,
});

describe('one pass, counted per step-run and per tool', () => {
  // Step 0, turn 1: a request offered no tools (a zero-tool round, 2 servers configured); the
  // deterministic srv__look failed, then sent again (dead: it failed in this turn), then its 3rd
  // identical call short-circuited (a repeat, not sent); the same call, not declared
  // deterministic, timed out (a 4th: a repeat sent, and dead); other__get was refused.
  // Step 1, turn 2: the call twice more, ok: repeats sent, not dead (a new turn; an ok call
  // makes no later one dead).
  const trace = lines(
    passStart(0, { rung: 'dead-browser', arm: 'on,breaker=on', pass: 2, seed: 9 }),
    stepStart(0, 1),
    toolsList(2, 1, 2),
    request(0, 3, 0),
    response(0, 4, 100, 10, 40, { 'gen_ai.usage.cache_read.input_tokens': 30, 'gen_ai.usage.cache_creation.input_tokens': 5 }),
    request(0, 5, 3),
    call(6, 1, 'srv__look', 'a', 'failed', 11, true),
    call(7, 1, 'srv__look', 'a', 'ok', 12, true),
    call(8, 1, 'srv__look', 'a', 'short_circuited', 0, true),
    call(9, 1, 'srv__look', 'a', 'timeout', 50),
    call(10, 1, 'other__get', 'b', 'refused', 3),
    response(0, 11, null, 20, 60),
    stepEnd(0, 21, 20, { answeredAt: 15 }),
    stepStart(1, 22),
    toolsList(23, 2, 2),
    request(1, 24, 3),
    call(25, 2, 'srv__look', 'a', 'ok', 7, true),
    call(26, 2, 'srv__look', 'a', 'ok', 8, true),
    response(1, 27, 50, null, 30),
    stepEnd(1, 40, 18, { passed: false, reason: 'ceiling', failedChecks: [{ check: 'answer', why: 'none' }, { check: 'file', why: 'absent' }] }),
    passEnd(41, { passed: false, steps: 2 }),
  );

  const step0: StepRun = {
    step: 0, startT: 1, calls: 5, sent: 3, outcomes: outcomes({ ok: 1, failed: 1, timeout: 1, refused: 1, short_circuited: 1 }),
    repeats: 2, repeatsSent: 1, deadCalls: 2, requests: 2, zeroToolRounds: 1, responses: 2, tokensIn: 100, tokensOut: 30,
    tokensInMissing: 1, tokensOutMissing: 0, cacheRead: 30, cacheWrite: 5, roundMs: [40, 60],
    passed: true, reason: 'answered', failedChecks: 0, ms: 20, endT: 21, answeredAt: 15,
    // The step is [1, 21]; the responses (ms 40 and 60, ending at 4 and 11) cover [1, 11] once,
    // and every call sent ends inside that: the model's ms are not the tools' too.
    time: { startupMs: 0, modelMs: 10, toolMs: 0, otherMs: 10 },
    tools: [
      tool('srv__look', { deterministic: true, calls: 3, sent: 2, repeats: 1, deadCalls: 1,
        outcomes: outcomes({ failed: 1, ok: 1, short_circuited: 1 }), ms: [11, 12] }),
      tool('srv__look', { calls: 1, sent: 1, repeats: 1, repeatsSent: 1, deadCalls: 1, outcomes: outcomes({ timeout: 1 }), ms: [50] }),
      tool('other__get', { calls: 1, outcomes: outcomes({ refused: 1 }) }),
    ],
  };
  const step1: StepRun = {
    step: 1, startT: 22, calls: 2, sent: 2, outcomes: outcomes({ ok: 2 }), repeats: 2, repeatsSent: 2, deadCalls: 0, requests: 1,
    zeroToolRounds: 0, responses: 1, tokensIn: 50, tokensOut: 0, tokensInMissing: 0, tokensOutMissing: 1, cacheRead: 0, cacheWrite: 0,
    roundMs: [30], passed: false, reason: 'ceiling', failedChecks: 2, ms: 18, endT: 40, answeredAt: undefined,
    time: { startupMs: 0, modelMs: 5, toolMs: 0, otherMs: 13 },
    tools: [tool('srv__look', { deterministic: true, calls: 2, sent: 2, repeats: 2, repeatsSent: 2, outcomes: outcomes({ ok: 2 }), ms: [7, 8] })],
  };

  it('gives each step-run its calls, repeats, dead calls, rounds and tokens, and each tool its own', async () => {
    const { passes } = await read(trace);
    expect(passes).toEqual([{
      rung: 'dead-browser', arm: 'on', pass: 2, seed: 9, file: 'traces/p.jsonl', passed: false, error: undefined,
      steps: [step0, step1], events: 21, content: 'full',
    }]);
  });

  it('tallies the file as one complete pass, with nothing wrong', async () => {
    const { tally } = await read(trace);
    expect(tally).toEqual({
      ...emptyTraceTally(), files: 1, events: 21, fileStates: { complete: 1, incomplete: 0, empty: 0, damaged: 0 },
      content: { full: 1, redacted: 0, none: 0 },
    });
  });
});

describe('what a pass records', () => {
  it('counts no zero-tool round while no server is configured', async () => {
    const { passes } = await read(lines(passStart(0), stepStart(0, 1), toolsList(2, 1, 0), request(0, 3, 0), stepEnd(0, 4, 3), passEnd(5)));
    expect(passes[0]!.steps[0]!).toMatchObject({ requests: 1, zeroToolRounds: 0 });
  });

  it('leaves out a pass with a round or a call of a step that never started, naming the line', async () => {
    // Step 1 (turn 2) is never opened; step 0 is.
    const round = await read(lines(passStart(0), stepStart(0, 1), request(1, 2, 3), response(1, 3, 1, 1, 1), stepEnd(0, 4, 3), passEnd(5)));
    expect([round.passes, round.tally.damaged, round.tally.fileStates.damaged]).toEqual([[], 1, 1]);
    expect(round.tally.problems).toEqual(['traces/p.jsonl:3: model.request of step 1 outside that step; r on pass 0 left out']);
    const called = await read(lines(passStart(0), stepStart(0, 1), toolsList(2, 1, 1), call(3, 2, 'srv__x', 'k', 'ok', 5), stepEnd(0, 4, 3), passEnd(5)));
    expect([called.passes, called.tally.damaged]).toEqual([[], 1]);
    expect(called.tally.problems).toEqual(['traces/p.jsonl:4: tool.call of turn 2 outside its step (1); r on pass 0 left out']);
    const listed = await read(lines(passStart(0), toolsList(1, 1, 1), stepStart(0, 2), stepEnd(0, 3, 1), passEnd(4)));
    expect(listed.tally.problems).toEqual(['traces/p.jsonl:2: tools.list of turn 1 outside its step (0); r on pass 0 left out']);
  });

  it('keeps step-runs in step order when they ended out of it', async () => {
    const { passes } = await read(lines(
      passStart(0), stepStart(0, 1), stepStart(1, 2), stepStart(2, 3), stepEnd(2, 4, 1), stepEnd(0, 5, 4), stepEnd(1, 6, 4), passEnd(7),
    ));
    expect(passes[0]!.steps.map((s) => [s.step, s.startT, s.endT])).toEqual([[0, 1, 5], [1, 2, 6], [2, 3, 4]]);
  });

  it('records how much content the pass kept: a version-1 trace none, whatever it says', async () => {
    const levels = async (start: string): Promise<string> => {
      const { passes, tally } = await read(lines(start, passEnd(1, { steps: 0 })));
      expect(Object.values(tally.content).reduce((x, y) => x + y)).toBe(1);
      expect(tally.content[passes[0]!.content]).toBe(1);
      return passes[0]!.content;
    };
    expect(await levels(passStart(0, { content: 'redacted' }))).toBe('redacted');
    expect(await levels(passStart(0, { content: undefined }))).toBe('none');
    expect(await levels(passStart(0, { content: 'full' }, 1))).toBe('none');
  });

  it('names a harness error by its first 240 characters, and counts a started step that never ended', async () => {
    const error = `spawn ${'x'.repeat(300)}`;
    const { passes, tally } = await read(lines(passStart(0), stepStart(0, 1), passEnd(2, { passed: false, error })));
    expect(passes.map((p) => [p.error, p.passed, p.steps])).toEqual([[error, false, []]]);
    expect([tally.harnessErrors, tally.unfinishedSteps]).toEqual([1, 1]);
    expect(tally.problems).toEqual([`traces/p.jsonl: r on pass 0 ended by a harness error: ${error.slice(0, 240)}`]);
  });

  it('names at most 10 problems however many there are', async () => {
    const text = lines(...Array.from({ length: 12 }, (_, i) => [passStart(i * 10, { pass: i }), passEnd(i * 10 + 1, { steps: 0, error: `e${i}` })]).flat());
    const { passes, tally } = await read(text);
    expect([passes.length, tally.harnessErrors]).toEqual([12, 12]);
    expect(tally.problems.map((p) => p.split(': ').at(-1))).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9']);
  });
});

describe('passes that did not end', () => {
  it('leaves out a pass with no pass.end, and counts the file by its last attempt', async () => {
    const once = await read(lines(passStart(0), stepStart(0, 1)));
    expect([once.passes, once.tally.incomplete, once.tally.fileStates]).toEqual([[], 1, { complete: 0, incomplete: 1, empty: 0, damaged: 0 }]);
    // Resumed: a fresh start appended after the cut-short attempt; the later one counts.
    const resumed = await read(lines(passStart(0), stepStart(0, 1), ...wholePass(0, { seed: 8 })));
    expect(resumed.passes.map((p) => p.seed)).toEqual([8]);
    expect([resumed.tally.incomplete, resumed.tally.fileStates]).toEqual([1, { complete: 1, incomplete: 0, empty: 0, damaged: 0 }]);
  });

  it('counts a pass.end cut short of its newline as cut short', async () => {
    const { passes, tally } = await read(wholePass(0).join('\n'));
    expect([passes, tally.incomplete, tally.fileStates.incomplete, tally.events]).toEqual([[], 1, 1, 4]);
  });

  it('skips a torn last line and keeps the pass that ended before it', async () => {
    const { passes, tally } = await read(`${lines(...wholePass(0))}{"v":2,"type":"st`);
    expect([passes.length, tally.tornLines, tally.fileStates.complete]).toEqual([1, 1, 1]);
    expect(tally.problems).toEqual(['traces/p.jsonl:5: torn last line (17 bytes) skipped']);
  });

  it('counts an empty file as empty', async () => {
    const { passes, tally } = await read('');
    expect(passes).toEqual([]);
    expect(tally).toEqual({
      files: 1, events: 0, fileStates: { complete: 0, incomplete: 0, empty: 1, damaged: 0 }, incomplete: 0, duplicates: 0, damaged: 0,
      tornLines: 0, unfinishedSteps: 0, harnessErrors: 0, content: { full: 0, redacted: 0, none: 0 }, problems: [],
    });
  });

  it('adds each file to the tally it is given', async () => {
    const tally = emptyTraceTally();
    await read(lines(...wholePass(0)), tally, 'a.jsonl');
    await read(lines(passStart(0)), tally, 'b.jsonl');
    expect([tally.files, tally.events, tally.fileStates]).toEqual([2, 5, { complete: 1, incomplete: 1, empty: 0, damaged: 0 }]);
  });
});

describe('damaged passes', () => {
  it('leaves out a pass with a line that is not an event, naming its first bad line once, and keeps the pass after it', async () => {
    const { passes, tally } = await read(lines(
      passStart(0), 'not json', stepStart(0, 1), '{"v":2}', stepEnd(0, 2, 1), passEnd(3), ...wholePass(10, { pass: 1 }),
    ));
    expect(passes.map((p) => p.pass)).toEqual([1]);
    expect([tally.damaged, tally.fileStates]).toEqual([1, { complete: 1, incomplete: 0, empty: 0, damaged: 0 }]);
    expect(tally.problems).toEqual(['traces/p.jsonl:2: not JSON; r on pass 0 left out']);
  });

  it('leaves out a pass whose events break the order, and counts nothing more of it', async () => {
    // A step.end with no step.start: its step was never opened, so nothing can be said of it.
    const { passes, tally } = await read(lines(passStart(0), stepEnd(0, 1, 1), stepStart(1, 2), passEnd(3)));
    expect([passes, tally.damaged, tally.incomplete, tally.fileStates.damaged]).toEqual([[], 1, 0, 1]);
    expect(tally.problems).toEqual(['traces/p.jsonl:2: step.end of step 0 without its step.start; r on pass 0 left out']);
  });

  it('names the lines before any pass.start once, as an attempt that could not be read, and reads the pass after them', async () => {
    const { passes, tally } = await read(lines(stepStart(0, 1), 'garbage', ...wholePass(5)));
    expect(passes.length).toBe(1);
    expect([tally.damaged, tally.events, tally.fileStates]).toEqual([1, 5, { complete: 1, incomplete: 0, empty: 0, damaged: 0 }]);
    expect(tally.problems).toEqual(['traces/p.jsonl:1: step.start before any pass.start; no pass could be read from these lines']);
  });

  it('counts a file of nothing but such lines as damaged', async () => {
    const { passes, tally } = await read(lines('garbage', stepStart(0, 1)));
    expect([passes, tally.damaged, tally.fileStates]).toEqual([[], 1, { complete: 0, incomplete: 0, empty: 0, damaged: 1 }]);
    expect(tally.problems).toEqual(['traces/p.jsonl:1: not JSON; no pass could be read from these lines']);
  });
});

describe("an external agent's start-up", () => {
  it("is read from step.end into the step-run when recorded, and absent when not", async () => {
    const { passes } = await read(lines(
      passStart(0), stepStart(0, 1), stepEnd(0, 2, 1, { agentStartupMs: 40 }), stepStart(1, 3), stepEnd(1, 4, 1), passEnd(5, { steps: 2 }),
    ));
    const steps = passes[0]!.steps;
    expect(steps[0]!.agentStartupMs).toBe(40);
    expect('agentStartupMs' in steps[1]!).toBe(false);
  });

  it('ends at the first model request, and splits the step once: start-up, model, tools, the rest', async () => {
    const { passes } = await read(lines(
      passStart(0), stepStart(0, 10), toolsList(20, 1, 1),
      // Spawned at 100 (300 ms before its first request at 400).
      request(0, 400, 3), response(0, 600, 1, 1, 200),
      // Two calls at once, [600, 800] and [650, 850]: 250 ms of the step, not 400; and a request
      // with no tools while the second runs, [800, 900]: the model's, not the tools'.
      request(0, 800, 0), call(800, 1, 'srv__a', 'a', 'ok', 200), call(850, 1, 'srv__b', 'b', 'ok', 200), response(0, 900, 1, 1, 100),
      stepEnd(0, 1010, 1000, { agentStartupMs: 300 }),
      // An agent that never reached the model: its start-up runs to the step's end.
      stepStart(1, 1020), stepEnd(1, 1100, 50, { agentStartupMs: 30 }),
      passEnd(1200, { steps: 2 }),
    ));
    const [first, second] = passes[0]!.steps;
    expect(first!.time).toEqual({ startupMs: 300, modelMs: 300, toolMs: 200, otherMs: 200 });
    expect(second!.time).toEqual({ startupMs: 30, modelMs: 0, toolMs: 0, otherMs: 20 });
  });
});

describe('the reference a step.start recorded', () => {
  it('scores the step against it, a tool called both as declared deterministic and not counted as one tool', async () => {
    const { passes } = await read(lines(
      passStart(0),
      line('step.start', 1, { step: 0, ceiling: 8, timeLimitMs: 60_000, reference: ['srv__look', 'other__get'] }),
      call(2, 1, 'srv__look', 'a', 'failed', 5, true),
      call(3, 1, 'srv__look', 'b', 'ok', 5),
      call(4, 1, 'extra__x', 'c', 'refused', 0),
      stepEnd(0, 10, 9),
      stepStart(1, 11),
      stepEnd(1, 12, 1),
      passEnd(13, { steps: 2 }),
    ));
    const [step0, step1] = passes[0]!.steps;
    expect(step0!.reference).toEqual(['srv__look', 'other__get']);
    // srv__look twice (one match, one extra), extra__x chosen wrongly, other__get missed.
    expect(step0!.selection).toEqual({ referenceCalls: 2, calls: 3, matched: 1, precision: 1 / 3, recall: 0.5, f1: 0.4, extra: 1, efficiency: 2 / 3 });
    // A step.start without it (a trace written before it was recorded): no figure.
    expect('reference' in step1!).toBe(false);
    expect(step1!.selection).toBeUndefined();
  });
});

describe('arguments a server refused', () => {
  it("counts a failed call whose error is the server's invalid-params code, and no other failure", async () => {
    const failedWith = (t: number, key: string, type: string): string => line('tool.call', t, {
      'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'db__query', turn: 1, round: 0, server: 'db', tool: 'query',
      key, outcome: 'failed', ms: 3, argBytes: 2, resultBytes: 2, 'error.type': type,
    });
    const { passes } = await read(lines(
      passStart(0), stepStart(0, 1),
      failedWith(2, 'a', '-32602'), failedWith(3, 'b', 'tool_error'), failedWith(4, 'c', '-32603'),
      stepEnd(0, 5, 4), passEnd(6),
    ));
    expect(passes[0]!.steps[0]!.tools).toEqual([tool('db__query', { server: 'db', calls: 3, sent: 3, rejected: 1, outcomes: outcomes({ failed: 3 }), ms: [3, 3, 3] })]);
  });
});
