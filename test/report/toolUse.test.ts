// The per-tool figures for a server's author (src/report/toolUse.ts) and their tables
// (src/report/render/toolUseTables.ts): outcomes, refused arguments, latency, and the steps where
// the agent's choice of a tool departed from the reference.
import { describe, expect, it } from 'vitest';
import type { StepRun, ToolTally } from '../../src/report/passes.ts';
import { ownServers, toolUseComparison, toolUseTable } from '../../src/report/render/toolUseTables.ts';
import { selection, tally } from '../../src/report/selection.ts';
import type { ArmSummary } from '../../src/report/summary.ts';
import { toolUse } from '../../src/report/toolUse.ts';
import { metrics } from '../../src/report/metrics.ts';
import { stepRun } from './records.ts';

const outcomes = (some: Partial<ToolTally['outcomes']>): ToolTally['outcomes'] =>
  ({ ok: 0, failed: 0, timeout: 0, refused: 0, unavailable: 0, short_circuited: 0, ...some });

const used = (tool: string, over: Partial<ToolTally>): ToolTally => ({
  tool, server: tool.split('__')[0]!, deterministic: false, calls: 0, sent: 0, repeats: 0, repeatsSent: 0, deadCalls: 0, rejected: 0,
  outcomes: outcomes({}), ms: [], ...over,
});

/** A step-run with these tools and, when given, the reference its step.start recorded. */
function run(tools: ToolTally[], reference?: string[], over: Partial<StepRun> = {}): StepRun {
  const called = tally(tools.flatMap((t) => Array.from({ length: t.calls }, () => t.tool)));
  return stepRun(0, { tools, ...(reference === undefined ? {} : { reference, selection: selection(reference, called) }), ...over });
}

describe('per tool, for the server author', () => {
  it('sums outcomes, refused arguments and the harness\'s answers over step-runs, with latency of the calls sent', () => {
    const rows = toolUse([
      run([used('db__query', { calls: 3, outcomes: outcomes({ ok: 1, failed: 2 }), rejected: 1, ms: [10, 30, 20] })]),
      run([used('db__query', { calls: 3, outcomes: outcomes({ timeout: 1, refused: 1, short_circuited: 1 }), ms: [40] }),
        used('db__list', { calls: 1, outcomes: outcomes({ unavailable: 1 }) })]),
    ]);
    expect(rows).toEqual([
      { tool: 'db__list', server: 'db', calls: 1, ok: 0, failed: 0, timeout: 0, rejected: 0, harness: 1, latencyMs: { n: 0, p50: null, p95: null, max: null }, chosenWrongly: 0, missed: 0 },
      { tool: 'db__query', server: 'db', calls: 6, ok: 1, failed: 2, timeout: 1, rejected: 1, harness: 2, latencyMs: { n: 4, p50: 20, p95: 40, max: 40 }, chosenWrongly: 0, missed: 0 },
    ]);
  });

  it('counts the step-runs that chose a tool the reference does not call, and those that missed one it does, once per step-run', () => {
    const rows = toolUse([
      // Called db__list twice where the reference reads with db__query: one step chosen wrongly, one missed.
      run([used('db__list', { calls: 2 })], ['db__query']),
      // On the reference's path.
      run([used('db__query', { calls: 1 })], ['db__query']),
      // Errored, or from a trace without the reference: neither counts for or against.
      run([used('db__list', { calls: 1 })], ['db__query'], { reason: 'errored' }),
      run([used('db__list', { calls: 1 })]),
    ]);
    expect(rows.map((r) => [r.tool, r.calls, r.chosenWrongly, r.missed])).toEqual([['db__list', 4, 1, 0], ['db__query', 1, 0, 1]]);
  });

  it('gives a tool only the reference called its own row, on the server its name says', () => {
    expect(toolUse([run([], ['fs__read'])])).toEqual([
      { tool: 'fs__read', server: 'fs', calls: 0, ok: 0, failed: 0, timeout: 0, rejected: 0, harness: 0, latencyMs: { n: 0, p50: null, p95: null, max: null }, chosenWrongly: 0, missed: 1 },
    ]);
  });
});

describe('the per-tool tables', () => {
  const arm = (name: string, runs: StepRun[]): ArmSummary => ({ arm: name, overall: metrics(runs, null, []), rungs: [] });
  // Made inside each test, never when the file is collected: work outside a test makes every
  // mutant it reaches "static" to Stryker, which then runs it unactivated (docs/mutation.md).
  const off = (): ArmSummary => arm('off', [run([used('db__query', { calls: 4, outcomes: outcomes({ failed: 3, ok: 1 }), rejected: 3, ms: [5, 5, 5, 7] })], ['db__query'])]);
  const on = (): ArmSummary => arm('on', [run([used('db__query', { calls: 1, outcomes: outcomes({ ok: 1 }), ms: [6] }), used('harness__refresh_tools', { calls: 1, server: 'harness', outcomes: outcomes({ ok: 1 }) })], ['db__query'])]);

  it('shows one arm a row per tool', () => {
    const [table] = toolUseTable(off());
    expect(table!.columns).toEqual(['tool', 'calls', 'ok', 'failed', 'args refused', 'timeout', 'by harness', 'p50', 'p95', 'chosen wrongly', 'missed']);
    expect(table!.rows).toEqual([['db__query', '4', '1', '3', '3', '0', '0', '5 ms', '7 ms', '0', '0']]);
    expect(toolUseTable(arm('empty', [run([])]))).toEqual([]);
  });

  it('sets two arms side by side, a tool one of them never used shown as -', () => {
    const [table] = toolUseComparison(off(), on(), { a: 'r/off', b: 'r/on' });
    expect(table!.caption).toMatch(/^Per tool, for the server's author, A \(r\/off\) \/ B \(r\/on\)/);
    expect(table!.rows).toEqual([
      ['db__query', '4 / 1', '1 / 1', '3 / 0', '3 / 0', '0 / 0', '0 / 0', '5 ms / 6 ms', '7 ms / 6 ms', '0 / 0', '0 / 0'],
      ['harness__refresh_tools', '- / 1', '- / 1', '- / 0', '- / 0', '- / 0', '- / 0', '- / -', '- / -', '- / 1', '- / 0'],
    ]);
  });

  it("names the run's own servers, not the harness's", () => {
    expect(ownServers([off(), on()])).toEqual(['db']);
    expect(ownServers([arm('two', [run([used('db__query', { calls: 1 }), used('fs__read', { calls: 1 })])])])).toEqual(['db', 'fs']);
  });
});
