// Where a step's time goes, and what it cost: the model's time per round, each tool's and each
// server's latency and outcomes, the step's time split into an external agent's start-up, the
// model, the tools and the rest (stepTime.ts, each millisecond once), and the tokens priced.
import { costOf } from '../models/prices.ts';
import type { Pricing } from '../models/prices.ts';
import { OUTCOMES } from '../trace/index.ts';
import type { Outcome } from '../trace/index.ts';
import type { StepRun } from './passes.ts';

/** Nearest-rank percentiles: each is a time that occurred, never one between two. */
export interface Latency {
  n: number;
  p50: number | null;
  p95: number | null;
  max: number | null;
}

export function latency(values: readonly number[]): Latency {
  if (values.length === 0) return { n: 0, p50: null, p95: null, max: null };
  const sorted = [...values].sort((x, y) => x - y);
  const rank = (q: number): number => sorted[Math.ceil(q * sorted.length) - 1]!;
  return { n: sorted.length, p50: rank(0.5), p95: rank(0.95), max: sorted[sorted.length - 1]! };
}

/** Calls to one tool or server: how many, how many went over the wire, how long those took, how each ended. */
export interface CallTimes {
  calls: number;
  sent: number;
  /** Over the calls sent; the others were answered by the harness at once. */
  latencyMs: Latency;
  outcomes: Record<Outcome, number>;
}

export interface ServerTimes extends CallTimes {
  server: string;
}

/**
 * Step time split four ways, each millisecond once (stepTime.ts): `modelMs + toolMs +
 * agentStartupMs + otherMs = stepMs` always; `otherMs` is what none of the three covers.
 */
export interface TimeSplit {
  stepRuns: number;
  stepMs: number;
  /** The model's responses, less what overlaps the start-up. */
  modelMs: number;
  /** The tool calls sent, less what overlaps the model or the start-up. */
  toolMs: number;
  /** An external agent's start-up (0 for the built-in loop): from starting it to its first model request. */
  agentStartupMs: number;
  /** The rest: the agent's own work and the harness. */
  otherMs: number;
  /** The model's time per round (every response, failed ones included). */
  modelRoundMs: Latency;
}

export interface CostMetrics {
  /** US dollars, null when the model has no price (`pricing.status` says why). */
  usd: number | null;
  perAttempt: number | null;
  /** Over passed step-runs; null with none passed. */
  perPassedStep: number | null;
  /** Responses that reported no token count: with any, the cost is a lower bound. */
  responsesMissingTokens: number;
}

const noOutcomes = (): Record<Outcome, number> => Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;

function callTimes(groups: { calls: number; sent: number; outcomes: Record<Outcome, number>; ms: number[] }[]): CallTimes {
  const outcomes = noOutcomes();
  const ms: number[] = [];
  let calls = 0;
  let sent = 0;
  for (const g of groups) {
    calls += g.calls;
    sent += g.sent;
    for (const o of OUTCOMES) outcomes[o] += g.outcomes[o];
    ms.push(...g.ms);
  }
  return { calls, sent, latencyMs: latency(ms), outcomes };
}

/** Per qualified tool name, over every step-run given. */
export function toolTimes(runs: readonly StepRun[]): Map<string, CallTimes & { server: string }> {
  const byTool = new Map<string, { server: string; tallies: StepRun['tools'] }>();
  for (const run of runs) {
    for (const t of run.tools) {
      const entry = byTool.get(t.tool) ?? { server: t.server, tallies: [] };
      entry.tallies.push(t);
      byTool.set(t.tool, entry);
    }
  }
  return new Map([...byTool].map(([tool, { server, tallies }]) => [tool, { server, ...callTimes(tallies) }]));
}

export function serverTimes(runs: readonly StepRun[]): ServerTimes[] {
  const byServer = new Map<string, StepRun['tools']>();
  for (const run of runs) for (const t of run.tools) byServer.set(t.server, [...(byServer.get(t.server) ?? []), t]);
  return [...byServer].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([server, tallies]) => ({ server, ...callTimes(tallies) }));
}

export function timeSplit(runs: readonly StepRun[]): TimeSplit {
  let stepMs = 0;
  let modelMs = 0;
  let toolMs = 0;
  let agentStartupMs = 0;
  let otherMs = 0;
  const rounds: number[] = [];
  for (const run of runs) {
    // The parts of each step-run add up to its time (stepTime.ts), so the totals do too.
    stepMs += run.ms;
    agentStartupMs += run.time.startupMs;
    modelMs += run.time.modelMs;
    toolMs += run.time.toolMs;
    otherMs += run.time.otherMs;
    rounds.push(...run.roundMs);
  }
  return { stepRuns: runs.length, stepMs, modelMs, toolMs, agentStartupMs, otherMs, modelRoundMs: latency(rounds) };
}

/** The tokens of `runs` at `pricing`; `attempts` are passes (or step-runs, for one step). */
export function costMetrics(runs: readonly StepRun[], attempts: number, pricing: Pricing | undefined): CostMetrics {
  let input = 0, output = 0, cacheRead = 0, cacheWrite = 0, missing = 0, passed = 0;
  for (const run of runs) {
    input += run.tokensIn;
    output += run.tokensOut;
    cacheRead += run.cacheRead;
    cacheWrite += run.cacheWrite;
    missing += Math.max(run.tokensInMissing, run.tokensOutMissing);
    if (run.passed && run.reason !== 'errored') passed += 1;
  }
  const usd = pricing === undefined ? null : costOf(pricing, { input, output, cacheRead, cacheWrite });
  return {
    usd,
    perAttempt: usd === null || attempts === 0 ? null : usd / attempts,
    perPassedStep: usd === null || passed === 0 ? null : usd / passed,
    responsesMissingTokens: missing,
  };
}
