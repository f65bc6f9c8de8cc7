// The report's plots as Vega-Lite specs: pass rates with intervals per rung and arm, a forest
// plot of the paired differences, identical repeats and dead calls per tool, and when a correct
// answer first existed against when its step ended.
import type { TopLevelSpec } from 'vega-lite';
import type { ComparisonReport } from '../compare.ts';
import type { PassRecord } from '../passes.ts';
import type { RunSummary } from '../summary.ts';
import { carriesNothing, countScale, leftOutMetrics } from '../words.ts';

export interface Plot {
  id: string;
  title: string;
  caption: string;
  spec: TopLevelSpec;
}

export interface PlotInput {
  /** One run, or A then B. */
  runs: { summary: RunSummary; passes: PassRecord[] }[];
  comparison: ComparisonReport | null;
}

const WIDTH = 520;
const ALL = 'all rungs';
const FONT = { labelFont: 'sans-serif', titleFont: 'sans-serif' };
// Long labels (qualified tool names, comparison labels) are read whole rather than cut at 180 px.
const CONFIG = { config: { font: 'sans-serif', axis: { ...FONT, labelLimit: 260 }, legend: { ...FONT, labelLimit: 320 }, view: { stroke: null } } } as const;

function seriesOf(input: PlotInput): (runId: string, arm: string) => string {
  return input.runs.length > 1 ? (runId, arm) => `${runId} / ${arm}` : (_runId, arm) => arm;
}

/** A chart that says there is nothing to draw, so every plot slot shows something. */
function nothing(text: string): TopLevelSpec {
  return { ...CONFIG, width: WIDTH, height: 40, data: { values: [{ text }] }, mark: { type: 'text', align: 'left', x: 0, y: 20, fontSize: 13 },
    encoding: { text: { field: 'text' } } } as TopLevelSpec;
}

function passRates(input: PlotInput): Plot {
  const series = seriesOf(input);
  const values = input.runs.flatMap(({ summary }) => summary.arms.flatMap((arm) =>
    [...arm.rungs.map((r) => ({ rung: r.rung, m: r.metrics })), { rung: ALL, m: arm.overall }]
      .filter(({ m }) => m.stepPassRate.n > 0)
      .map(({ rung, m }) => ({ rung, series: series(summary.runId, arm.arm), rate: m.stepPassRate.rate, lower: m.stepPassRate.lower,
        upper: m.stepPassRate.upper, counts: `${m.stepPassRate.count}/${m.stepPassRate.n}` }))));
  const rungs = [...new Set(values.map((v) => v.rung).filter((r) => r !== ALL)), ALL];
  const x = { type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%' }, title: 'step pass rate, 95% Wilson interval' };
  const spec = values.length === 0 ? nothing('No step-runs to plot.') : {
    ...CONFIG, width: WIDTH, height: { step: 28 }, data: { values },
    encoding: { y: { field: 'rung', type: 'nominal', sort: rungs, title: null }, yOffset: { field: 'series', type: 'nominal' },
      color: { field: 'series', type: 'nominal', title: 'arm' } },
    layer: [
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'lower', ...x }, x2: { field: 'upper' } } },
      { mark: { type: 'point', filled: true, size: 60 }, encoding: { x: { field: 'rate', ...x }, tooltip: [{ field: 'counts' }] } },
    ],
  };
  return { id: 'pass-rates', title: 'Step pass rate per rung and arm', caption: 'Dots are passed / decided step-runs; bars their 95% Wilson intervals.', spec: spec as TopLevelSpec };
}

/** Zero always in view, and some width when every pair agreed exactly (a zero-width scale draws no axis). */
function domainOf(values: { lower: number; upper: number }[]): { domain: [number, number]; nice: boolean } {
  const lo = Math.min(0, ...values.map((v) => v.lower));
  const hi = Math.max(0, ...values.map((v) => v.upper));
  return { domain: lo === hi ? [lo - 1, hi + 1] : [lo, hi], nice: true };
}

function forest(input: PlotInput): Plot | undefined {
  const c = input.comparison;
  if (c === null || c.comparisons.length === 0) return undefined;
  const rows: { comparison: string; row: string; estimate: number; lower: number; upper: number }[] = [];
  const counts: typeof rows = [];
  for (const cmp of c.comparisons) {
    for (const r of cmp.rungs) {
      const d = r.stepPassRate.difference;
      if (d !== null) rows.push({ comparison: cmp.label, row: `step pass rate: ${r.rung}`, estimate: d.estimate * 100, lower: d.lower * 100, upper: d.upper * 100 });
    }
    for (const m of cmp.metrics) {
      const d = m.difference;
      if (d === null || carriesNothing(m)) continue;
      if (m.kind === 'proportion') rows.push({ comparison: cmp.label, row: m.label, estimate: d.estimate * 100, lower: d.lower * 100, upper: d.upper * 100 });
      else {
        const { factor, per } = countScale(m);
        const unit = m.unit === 'ms' ? 'ms' : m.unit;
        counts.push({ comparison: cmp.label, row: `${m.label}, ${unit} ${per} (${m.statistic})`, estimate: d.estimate * factor,
          lower: d.lower * factor, upper: d.upper * factor });
      }
    }
  }
  const panel = (values: typeof rows, title: string, rowTitle: boolean) => ({
    width: WIDTH, height: { step: 22 }, data: { values }, title,
    encoding: { y: rowTitle ? { field: 'row', type: 'nominal', sort: null, title: null } : { field: 'comparison', type: 'nominal', title: null },
      ...(rowTitle ? { yOffset: { field: 'comparison', type: 'nominal' } } : {}),
      color: { field: 'comparison', type: 'nominal', title: 'B against A' } },
    layer: [
      { mark: { type: 'rule', color: '#888', strokeDash: [4, 3] }, data: { values: [{ zero: 0 }] }, encoding: { x: { field: 'zero', type: 'quantitative' }, y: null, yOffset: null, color: null } },
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'lower', type: 'quantitative', title: null, scale: domainOf(values) }, x2: { field: 'upper' } } },
      { mark: { type: 'point', filled: true, size: 60 }, encoding: { x: { field: 'estimate', type: 'quantitative' } } },
    ],
  });
  // Counts and times have different units: one panel, and one scale, each.
  const metrics = [...new Set(counts.map((c) => c.row))];
  const spec = { ...CONFIG, vconcat: [panel(rows, 'rates: B minus A, in points', true),
    ...metrics.map((metric) => panel(counts.filter((c) => c.row === metric), `${metric}: B minus A`, false))],
    resolve: { scale: { x: 'independent' } } };
  // Named once even when several comparisons leave the same metrics out.
  const undrawn = [...new Set(c.comparisons.map((cmp) => leftOutMetrics(cmp.metrics)).filter((line): line is string => line !== null))];
  const caption = 'Estimates with 95% intervals; left of the dashed line is less of it under B. Each count or time has its own panel and unit.';
  return { id: 'forest', title: 'Paired differences (B minus A)', caption: [caption, ...undrawn].join(' '), spec: spec as TopLevelSpec };
}

function waste(input: PlotInput): Plot {
  const series = seriesOf(input);
  const values = input.runs.flatMap(({ summary }) => summary.arms.flatMap((arm) => arm.overall.tools.flatMap((t) => [
    { tool: t.tool, series: series(summary.runId, arm.arm), kind: 'repeats, deterministic', count: t.deterministic.repeats },
    { tool: t.tool, series: series(summary.runId, arm.arm), kind: 'repeats, not deterministic', count: t.nondeterministic.repeats },
    { tool: t.tool, series: series(summary.runId, arm.arm), kind: 'dead calls', count: t.deadCalls },
  ])));
  const shown = new Set(values.filter((v) => v.count > 0).map((v) => v.tool));
  const kept = values.filter((v) => shown.has(v.tool));
  const spec = kept.length === 0 ? nothing('No identical repeats and no dead calls in this run.') : {
    ...CONFIG, data: { values: kept }, mark: 'bar',
    encoding: {
      column: { field: 'kind', type: 'nominal', title: null, sort: ['repeats, deterministic', 'repeats, not deterministic', 'dead calls'] },
      y: { field: 'tool', type: 'nominal', title: null }, yOffset: { field: 'series', type: 'nominal' },
      x: { field: 'count', type: 'quantitative', title: 'calls, all passes' }, color: { field: 'series', type: 'nominal', title: 'arm' },
    },
    width: 170, height: { step: 24 },
  };
  return { id: 'waste', title: 'Identical repeats and dead calls per tool', caption: 'Repeats: 3rd-or-later identical calls in a pass. Dead calls: sent after an identical call failed in the same turn.', spec: spec as TopLevelSpec };
}

function answers(input: PlotInput): Plot {
  const series = seriesOf(input);
  const values = input.runs.flatMap(({ summary, passes }) => passes.flatMap((p) => p.steps
    .filter((s) => s.answeredAt !== undefined)
    .map((s) => ({ series: series(summary.runId, p.arm), rung: p.rung, step: s.step, pass: p.pass,
      answered: (s.answeredAt! - s.startT) / 1000, end: (s.endT - s.startT) / 1000, passed: s.passed ? 'passed' : 'failed' }))));
  const top = Math.max(0, ...values.map((v) => Math.max(v.answered, v.end)));
  const spec = values.length === 0 ? nothing('No step recorded when a correct answer first existed.') : {
    ...CONFIG, width: 360, height: 360,
    layer: [
      { data: { values: [{ x: 0, y: 0 }, { x: top, y: top }] }, mark: { type: 'line', color: '#888', strokeDash: [4, 3] },
        encoding: { x: { field: 'x', type: 'quantitative', title: 'correct answer first existed (s after step start)' },
          y: { field: 'y', type: 'quantitative', title: 'step ended (s after step start)' } } },
      { data: { values }, mark: { type: 'point', filled: true, opacity: 0.7, size: 50 },
        encoding: { x: { field: 'answered', type: 'quantitative' }, y: { field: 'end', type: 'quantitative' },
          color: { field: 'series', type: 'nominal', title: 'arm' }, shape: { field: 'passed', type: 'nominal', title: 'step' },
          tooltip: [{ field: 'rung' }, { field: 'step' }, { field: 'pass' }] } },
    ],
  };
  return { id: 'time-to-answer', title: 'Time to answer against step end', caption: 'Each dot is a step-run; its height above the dashed line is how long a correct answer already existed before the step ended.', spec: spec as TopLevelSpec };
}

/** Step time per arm split into the model, the tool calls and the rest. */
function timeSplit(input: PlotInput): Plot {
  const series = seriesOf(input);
  // An external agent's start-up is a part of its own when a run has one.
  const agent = input.runs.some(({ summary }) => summary.arms.some((arm) => arm.overall.time.agentStartupMs > 0));
  const parts = agent ? ['model', 'tool calls', 'agent start-up', 'the rest'] : ['model', 'tool calls', 'the rest (harness)'];
  const values = input.runs.flatMap(({ summary }) => summary.arms.flatMap((arm) => {
    const t = arm.overall.time;
    if (t.stepMs === 0) return [];
    const split = agent ? [t.modelMs, t.toolMs, t.agentStartupMs, t.otherMs] : [t.modelMs, t.toolMs, t.otherMs];
    return split.map((ms, i) => ({ series: series(summary.runId, arm.arm), part: parts[i]!, share: ms / t.stepMs, seconds: Math.round(ms) / 1000 }));
  }));
  const spec = values.length === 0 ? nothing('No step time to split.') : {
    ...CONFIG, width: WIDTH, height: { step: 26 }, data: { values }, mark: 'bar',
    encoding: {
      y: { field: 'series', type: 'nominal', title: null },
      x: { field: 'share', type: 'quantitative', stack: 'normalize', axis: { format: '%' }, title: 'share of step time, all step-runs' },
      color: { field: 'part', type: 'nominal', sort: parts, scale: { domain: parts }, title: null },
      tooltip: [{ field: 'part' }, { field: 'seconds', title: 's' }],
    },
  };
  return { id: 'time-split', title: 'Where step time goes', caption: agent ? 'Each bar is one arm: the external agent\'s start-up, the model\'s responses, the tool calls sent, and the rest of the step (the agent\'s own work and the harness), each millisecond once.' : 'Each bar is one arm: the model\'s responses, the tool calls sent, and the rest of the step (the harness).', spec: spec as TopLevelSpec };
}

/** p50 to p95 (bar), p50 (dot) and max (tick) of the model per round and of each tool, per arm. */
function latencies(input: PlotInput): Plot {
  const series = seriesOf(input);
  const values = input.runs.flatMap(({ summary }) => summary.arms.flatMap((arm) => {
    const m = arm.overall;
    const rows = [{ what: 'model, per round', l: m.time.modelRoundMs }, ...m.tools.map((t) => ({ what: t.tool, l: t.latencyMs }))];
    return rows.filter(({ l }) => l.n > 0).map(({ what, l }) => ({
      what, series: series(summary.runId, arm.arm), n: l.n,
      // a log scale has no zero: a call answered in under a millisecond is drawn at 1 ms
      p50: Math.max(1, l.p50!), p95: Math.max(1, l.p95!), max: Math.max(1, l.max!),
    }));
  }));
  const order = ['model, per round', ...[...new Set(values.map((v) => v.what))].filter((w) => w !== 'model, per round').sort()];
  const x = { type: 'quantitative', scale: { type: 'log' }, title: 'ms (log scale): p50 to p95, dot p50, tick max' };
  const spec = values.length === 0 ? nothing('No model round or tool call with a time.') : {
    ...CONFIG, width: WIDTH, height: { step: 24 }, data: { values },
    encoding: { y: { field: 'what', type: 'nominal', sort: order, title: null }, yOffset: { field: 'series', type: 'nominal' },
      color: { field: 'series', type: 'nominal', title: 'arm' } },
    layer: [
      { mark: { type: 'rule', strokeWidth: 2 }, encoding: { x: { field: 'p50', ...x }, x2: { field: 'p95' } } },
      { mark: { type: 'point', filled: true, size: 50 }, encoding: { x: { field: 'p50', ...x }, tooltip: [{ field: 'what' }, { field: 'n' }, { field: 'p50' }, { field: 'p95' }, { field: 'max' }] } },
      { mark: { type: 'tick', thickness: 2, size: 10 }, encoding: { x: { field: 'max', ...x } } },
    ],
  };
  return { id: 'latency', title: 'Latency of the model and of each tool', caption: 'The model\'s time per round beside each tool\'s calls sent, per arm: a slow step is the model\'s, a server\'s, or (Where step time goes) the harness\'s.', spec: spec as TopLevelSpec };
}

export function plots(input: PlotInput): Plot[] {
  return [passRates(input), forest(input), waste(input), answers(input), timeSplit(input), latencies(input)].filter((p): p is Plot => p !== undefined);
}
