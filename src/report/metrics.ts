// The metrics of docs/report.md, "Metrics", over any set of passes (a rung, an arm) or of step-runs
// (one step of a rung). Every rate keeps the counts it was computed from.
import { OUTCOMES } from '../trace/index.ts';
import type { Outcome, StepEndReason } from '../trace/index.ts';
import { median } from './bootstrap.ts';
import type { Pricing } from '../models/prices.ts';
import type { PassRecord, StepRun } from './passes.ts';
import { toolUse } from './toolUse.ts';
import type { ToolUse } from './toolUse.ts';
import { modifiedWilson, passAtK, passHatK } from './stats.ts';
import { costMetrics, serverTimes, timeSplit, toolTimes } from './timing.ts';
import type { CostMetrics, Latency, ServerTimes, TimeSplit } from './timing.ts';

/** A proportion with its counts and its Wilson 95% interval (modified at the edges, stats.ts); `rate` is null when n = 0. */
export interface Rate {
  count: number;
  n: number;
  rate: number | null;
  lower: number;
  upper: number;
}

export interface Distribution {
  n: number;
  total: number;
  mean: number | null;
  median: number | null;
  p90: number | null;
  max: number | null;
}

export interface RepeatCounts {
  /** Calls that were the 3rd or later identical call in their pass. */
  repeats: number;
  /** Of those, the ones sent over the wire (not short-circuited, refused or unavailable). */
  repeatsSent: number;
  calls: number;
  /** repeats / calls; null with no calls. */
  rate: number | null;
}

export interface ToolMetrics {
  tool: string;
  calls: number;
  deadCalls: number;
  deterministic: RepeatCounts;
  nondeterministic: RepeatCounts;
  /** The server the tool is on ('' when the name routes to none). */
  server: string;
  /** Calls that went over the wire, their latency, and every call's outcome. */
  sent: number;
  latencyMs: Latency;
  outcomes: Record<Outcome, number>;
}

/**
 * Tool selection against the reference (selection.ts) over step-runs not errored whose trace
 * recorded the reference: the mean of each step-run's figure, over the step-runs where it is
 * defined (precision needs a call, recall a reference call, efficiency either).
 */
export interface SelectionMetrics {
  stepRuns: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  efficiency: number | null;
  /** Calls beyond the reference's count, summed. */
  extraCalls: number;
}

export interface PassK {
  k: number;
  passAtK: number;
  passHatK: number;
}

export interface Metrics {
  /** Attempts: passes (rung, arm) or step-runs (a step). */
  attempts: number;
  /** Passes ended by a harness error or holding an errored step-run (pass level only). */
  erroredPasses: number | null;
  /** Passes with every step passed, over passes not errored (pass level only). */
  cleanRunRate: Rate | null;
  stepRuns: number;
  reasons: Record<StepEndReason, number>;
  /** Passed step-runs over step-runs not errored. */
  stepPassRate: Rate;
  /** Step-runs ended at the tool-call ceiling over step-runs not errored. */
  ceilingShare: Rate;
  /** k = 1 .. the fewest attempts (not errored) of any rung; empty when a rung has none. */
  passK: PassK[];
  calls: { total: number; sent: number; outcomes: Record<Outcome, number> };
  identicalRepeats: { all: RepeatCounts; deterministic: RepeatCounts; nondeterministic: RepeatCounts };
  deadCalls: { count: number; perAttempt: number | null };
  zeroToolRounds: { count: number; requests: number };
  tokens: {
    responses: number;
    input: { total: number; missing: number; perAttempt: number | null };
    output: { total: number; missing: number; perAttempt: number | null };
  };
  stepMs: Distribution;
  timeToAnswer: { stepRuns: number; answered: number; answeredToEndMs: Distribution };
  tools: ToolMetrics[];
  /** Of the input tokens, those read from and written to the provider's cache. */
  cachedTokens: { read: number; write: number };
  /** The tokens priced (src/models/prices.ts); usd null when the model has no price. */
  cost: CostMetrics;
  /** Where step time went: the model, the tool calls, the rest. */
  time: TimeSplit;
  /** Calls per server: latency and outcomes. */
  servers: ServerTimes[];
  selection: SelectionMetrics;
  /** Per tool, for the server's author (toolUse.ts): outcomes, refused arguments, latency, choices against the reference. */
  toolUse: ToolUse[];
}

/** The mean of the values that are defined; null when none is. */
function meanOf(values: readonly (number | null)[]): number | null {
  const defined = values.filter((v): v is number => v !== null);
  return defined.length === 0 ? null : defined.reduce((sum, v) => sum + v, 0) / defined.length;
}

export function selectionMetrics(runs: readonly StepRun[]): SelectionMetrics {
  const scored = runs.flatMap((run) => (run.selection === undefined || isErrored(run) ? [] : [run.selection]));
  return {
    stepRuns: scored.length,
    precision: meanOf(scored.map((s) => s.precision)),
    recall: meanOf(scored.map((s) => s.recall)),
    f1: meanOf(scored.map((s) => s.f1)),
    efficiency: meanOf(scored.map((s) => s.efficiency)),
    extraCalls: scored.reduce((sum, s) => sum + s.extra, 0),
  };
}

export function rate(count: number, n: number): Rate {
  const { lower, upper } = modifiedWilson(count, n);
  return { count, n, rate: n === 0 ? null : count / n, lower, upper };
}

export function distribution(values: number[]): Distribution {
  if (values.length === 0) return { n: 0, total: 0, mean: null, median: null, p90: null, max: null };
  const sorted = [...values].sort((x, y) => x - y);
  const total = sorted.reduce((sum, v) => sum + v, 0);
  return {
    n: sorted.length, total, mean: total / sorted.length, median: median(sorted),
    // Nearest rank: a value that occurred, never an interpolation between two step-runs.
    p90: sorted[Math.ceil(0.9 * sorted.length) - 1]!, max: sorted[sorted.length - 1]!,
  };
}

type Repeats = Omit<RepeatCounts, 'rate'>;

const noRepeats = (): Repeats => ({ repeats: 0, repeatsSent: 0, calls: 0 });

function repeatCounts({ repeats, repeatsSent, calls }: Repeats): RepeatCounts {
  return { repeats, repeatsSent, calls, rate: calls === 0 ? null : repeats / calls };
}

export const isErrored = (run: StepRun): boolean => run.reason === 'errored';

/** A pass counts as errored when the harness ended it or a step-run errored: not the model's doing. */
export const passErrored = (pass: PassRecord): boolean => pass.error !== undefined || pass.steps.some(isErrored);

export const passClean = (pass: PassRecord): boolean =>
  !passErrored(pass) && pass.passed && pass.steps.length > 0 && pass.steps.every((s) => s.passed);

/** pass@k and pass^k, the mean over groups (rungs) of each group's unbiased estimate. */
export function passK(groups: { c: number; n: number }[]): PassK[] {
  // k runs up to the fewest attempts of any group: none when there is no group, or one has none.
  const most = groups.length === 0 ? 0 : Math.min(...groups.map((g) => g.n));
  return Array.from({ length: most }, (_, i) => {
    const k = i + 1;
    const mean = (f: (c: number, n: number, k: number) => number): number =>
      groups.reduce((sum, g) => sum + f(g.c, g.n, k), 0) / groups.length;
    return { k, passAtK: mean(passAtK), passHatK: mean(passHatK) };
  });
}

/**
 * Metrics over step-runs. `passes` is given at pass level (rung, arm) and null for one step;
 * `groups` are the (c, n) per rung behind pass@k.
 */
export function metrics(runs: StepRun[], passes: PassRecord[] | null, groups: { c: number; n: number }[], pricing?: Pricing): Metrics {
  const reasons: Record<StepEndReason, number> = { answered: 0, ceiling: 0, time_limit: 0, errored: 0, agent_failed: 0, agent_stopped: 0 };
  const outcomes = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const tools = new Map<string, { calls: number; deadCalls: number; det: Repeats; nondet: Repeats }>();
  const det = noRepeats();
  const nondet = noRepeats();
  let passed = 0, ceiling = 0, calls = 0, sent = 0, dead = 0, zero = 0, requests = 0, responses = 0;
  let tokensIn = 0, tokensOut = 0, missingIn = 0, missingOut = 0, answered = 0;
  const stepMs: number[] = [];
  const lags: number[] = [];
  for (const run of runs) {
    reasons[run.reason] += 1;
    if (!isErrored(run)) {
      if (run.passed) passed += 1;
      if (run.reason === 'ceiling') ceiling += 1;
      stepMs.push(run.ms);
    }
    if (run.answeredAt !== undefined) {
      answered += 1;
      lags.push(Math.max(0, run.endT - run.answeredAt));
    }
    for (const o of OUTCOMES) outcomes[o] += run.outcomes[o];
    calls += run.calls;
    sent += run.sent;
    dead += run.deadCalls;
    zero += run.zeroToolRounds;
    requests += run.requests;
    responses += run.responses;
    tokensIn += run.tokensIn;
    tokensOut += run.tokensOut;
    missingIn += run.tokensInMissing;
    missingOut += run.tokensOutMissing;
    for (const t of run.tools) {
      let m = tools.get(t.tool);
      if (m === undefined) tools.set(t.tool, (m = { calls: 0, deadCalls: 0, det: noRepeats(), nondet: noRepeats() }));
      m.calls += t.calls;
      m.deadCalls += t.deadCalls;
      for (const into of t.deterministic ? [m.det, det] : [m.nondet, nondet]) {
        into.repeats += t.repeats;
        into.repeatsSent += t.repeatsSent;
        into.calls += t.calls;
      }
    }
  }
  // Server, calls sent, latency and outcomes come from every call of the tool (timing.ts).
  const times = toolTimes(runs);
  const decided = runs.length - reasons.errored;
  const attempts = passes === null ? runs.length : passes.length;
  const per = (total: number): number | null => (attempts === 0 ? null : total / attempts);
  const erroredPasses = passes === null ? null : passes.filter(passErrored).length;
  return {
    attempts,
    erroredPasses,
    cleanRunRate: passes === null ? null : rate(passes.filter(passClean).length, passes.length - erroredPasses!),
    stepRuns: runs.length,
    reasons,
    stepPassRate: rate(passed, decided),
    ceilingShare: rate(ceiling, decided),
    passK: passK(groups),
    calls: { total: calls, sent, outcomes },
    identicalRepeats: {
      all: repeatCounts({ repeats: det.repeats + nondet.repeats, repeatsSent: det.repeatsSent + nondet.repeatsSent, calls }),
      deterministic: repeatCounts(det),
      nondeterministic: repeatCounts(nondet),
    },
    deadCalls: { count: dead, perAttempt: per(dead) },
    zeroToolRounds: { count: zero, requests },
    tokens: {
      responses,
      input: { total: tokensIn, missing: missingIn, perAttempt: per(tokensIn) },
      output: { total: tokensOut, missing: missingOut, perAttempt: per(tokensOut) },
    },
    stepMs: distribution(stepMs),
    timeToAnswer: { stepRuns: runs.length, answered, answeredToEndMs: distribution(lags) },
    // By name: the default sort compares strings by code unit, as `<` does.
    tools: [...tools.keys()].sort().map((tool): ToolMetrics => {
      const { calls: toolCalls, deadCalls, det: d, nondet: n } = tools.get(tool)!;
      const t = times.get(tool)!;
      return {
        tool, calls: toolCalls, deadCalls, deterministic: repeatCounts(d), nondeterministic: repeatCounts(n),
        server: t.server, sent: t.sent, latencyMs: t.latencyMs, outcomes: t.outcomes,
      };
    }),
    cachedTokens: { read: runs.reduce((sum, r) => sum + r.cacheRead, 0), write: runs.reduce((sum, r) => sum + r.cacheWrite, 0) },
    cost: costMetrics(runs, attempts, pricing),
    time: timeSplit(runs),
    servers: serverTimes(runs),
    selection: selectionMetrics(runs),
    toolUse: toolUse(runs),
  };
}
