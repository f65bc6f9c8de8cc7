// Where the time goes: per tool and per server latency and outcomes, the model's time per round,
// and step time split three ways, counted from traces written for the purpose.
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/report/summary.ts';
import { latency } from '../../src/report/timing.ts';
import { runFolderPerTest } from './runBuilder.ts';
import type { RunSpec } from './runBuilder.ts';

const { summarize } = runFolderPerTest();

const overall = (s: RunSummary) => s.arms[0]!.overall;

describe('latency', () => {
  it('takes nearest-rank p50, p95 and max: times that occurred', () => {
    const values = Array.from({ length: 20 }, (_, i) => (i + 1) * 10); // 10 .. 200
    expect(latency(values)).toStrictEqual({ n: 20, p50: 100, p95: 190, max: 200 });
    expect(latency([30, 10, 20])).toStrictEqual({ n: 3, p50: 20, p95: 30, max: 30 });
    expect(latency([7])).toStrictEqual({ n: 1, p50: 7, p95: 7, max: 7 });
    expect(latency([])).toStrictEqual({ n: 0, p50: null, p95: null, max: null });
  });
});

describe('where the time goes', () => {
  it('gives each tool and server its calls, calls sent, latency of those sent and outcomes of all', async () => {
    const s = await summarize({ passes: [{ steps: [{ calls: [
      { tool: 'db__query', ms: 40, key: 'a' }, { tool: 'db__query', ms: 900, key: 'b', outcome: 'timeout' },
      { tool: 'db__query', ms: 60, key: 'c', outcome: 'failed' }, { tool: 'db__query', ms: 0, key: 'c', outcome: 'refused' },
      { tool: 'fs__read', ms: 5, key: 'd' },
    ] }] }, { pass: 1, steps: [{ calls: [{ tool: 'db__query', ms: 50, key: 'a' }] }] }] });
    const query = overall(s).tools.find((t) => t.tool === 'db__query')!;
    expect(query).toMatchObject({
      server: 'db', calls: 5, sent: 4, latencyMs: { n: 4, p50: 50, p95: 900, max: 900 },
      outcomes: { ok: 2, failed: 1, timeout: 1, refused: 1, unavailable: 0, short_circuited: 0 },
    });
    expect(overall(s).servers).toStrictEqual([
      { server: 'db', calls: 5, sent: 4, latencyMs: { n: 4, p50: 50, p95: 900, max: 900 },
        outcomes: { ok: 2, failed: 1, timeout: 1, refused: 1, unavailable: 0, short_circuited: 0 } },
      { server: 'fs', calls: 1, sent: 1, latencyMs: { n: 1, p50: 5, p95: 5, max: 5 },
        outcomes: { ok: 1, failed: 0, timeout: 0, refused: 0, unavailable: 0, short_circuited: 0 } },
    ]);
  });

  it("splits step time into the model's responses, the calls sent and the rest, and times the model per round", async () => {
    const s = await summarize({ passes: [
      { steps: [{ ms: 1_000, tokens: [[1, 1], [1, 1]], roundMs: [300, 500], calls: [{ ms: 100 }, { ms: 50, outcome: 'short_circuited', key: 'x' }] }] },
      { pass: 1, steps: [{ ms: 500, tokens: [[1, 1]], roundMs: [200], calls: [{ ms: 250 }] }] },
    ] });
    // the short-circuited call was answered by the harness: its 50 ms is in the rest
    expect(overall(s).time).toStrictEqual({
      stepRuns: 2, stepMs: 1_500, modelMs: 1_000, toolMs: 350, agentStartupMs: 0, otherMs: 150, modelRoundMs: { n: 3, p50: 300, p95: 500, max: 500 },
    });
    expect(s.arms[0]!.rungs[0]!.steps[0]!.metrics.time.modelMs).toBe(1_000);
  });

  it('adds up to the step when its rounds and calls, as recorded, outlast it (clocks differ)', async () => {
    // The step ends at 121 ms in (its rounds and calls: 1 + 90 + 30) with ms 100: [21, 121].
    const s = await summarize({ passes: [{ steps: [{ ms: 100, tokens: [[1, 1]], roundMs: [90], calls: [{ ms: 30 }] }] }] });
    expect(overall(s).time).toMatchObject({ stepMs: 100, modelMs: 70, toolMs: 30, agentStartupMs: 0, otherMs: 0 });
  });
});

describe("an external agent's start-up in the split", () => {
  it('is its own part, and with the model, the tools and the rest adds up to the step time', async () => {
    const { timeSplit } = await import('../../src/report/timing.ts');
    const { stepRun } = await import('./records.ts');
    const external = timeSplit([
      stepRun(0, { ms: 1_000, roundMs: [300], time: { startupMs: 250, modelMs: 300, toolMs: 100, otherMs: 350 } }),
      stepRun(1, { ms: 500, time: { startupMs: 50, modelMs: 0, toolMs: 0, otherMs: 450 } }),
    ]);
    expect(external).toEqual({ stepRuns: 2, stepMs: 1_500, modelMs: 300, toolMs: 100, agentStartupMs: 300, otherMs: 800, modelRoundMs: { n: 1, p50: 300, p95: 300, max: 300 } });
    expect(external.modelMs + external.toolMs + external.agentStartupMs + external.otherMs).toBe(external.stepMs);
  });
});
