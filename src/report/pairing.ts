// Pairs the passes of two sides (an arm of a run each) by rung and pass index, and their
// step-runs by step: pass i of A against pass i of B ran with the same seed, so what differs
// between a pair is the arm (or the change between runs), not the luck of the draw.
import { isErrored, passErrored } from './metrics.ts';
import type { PassRecord, StepRun } from './passes.ts';
import { uniqueInOrder } from './summary.ts';

export interface StepPair {
  rung: string;
  pass: number;
  a: StepRun;
  b: StepRun;
}

export interface LeftOut {
  rungsOnlyInA: string[];
  rungsOnlyInB: string[];
  /** Complete passes with no partner (their rung, or that pass index, is missing on the other side). */
  passesOnlyInA: number;
  passesOnlyInB: number;
  /** Step-runs of paired passes whose step the partner never finished. */
  stepRunsOnlyInA: number;
  stepRunsOnlyInB: number;
  /** Step pairs with an errored side: left out of pass-rate, ceiling and time comparisons. */
  erroredStepPairs: number;
  /** Pass pairs with an errored side: left out of the clean-run comparison. */
  erroredPassPairs: number;
  /** Pairs whose seeds differ: paired by position only. */
  seedMismatches: number;
}

export interface Pairing {
  rungs: string[];
  passes: { rung: string; pass: number; a: PassRecord; b: PassRecord }[];
  steps: StepPair[];
  leftOut: LeftOut;
}

const idOf = (p: PassRecord): string => `${p.rung}\u0000${p.pass}`;

export function pair(a: PassRecord[], b: PassRecord[]): Pairing {
  const inB = new Map(b.map((p) => [idOf(p), p]));
  const inA = new Set(a.map(idOf));
  const rungsA = uniqueInOrder(a.map((p) => p.rung));
  const rungsB = uniqueInOrder(b.map((p) => p.rung));
  const leftOut: LeftOut = {
    rungsOnlyInA: rungsA.filter((r) => !rungsB.includes(r)),
    rungsOnlyInB: rungsB.filter((r) => !rungsA.includes(r)),
    passesOnlyInA: a.filter((p) => !inB.has(idOf(p))).length,
    passesOnlyInB: b.filter((p) => !inA.has(idOf(p))).length,
    stepRunsOnlyInA: 0,
    stepRunsOnlyInB: 0,
    erroredStepPairs: 0,
    erroredPassPairs: 0,
    seedMismatches: 0,
  };
  const passes: Pairing['passes'] = [];
  const steps: StepPair[] = [];
  for (const pa of a) {
    const pb = inB.get(idOf(pa));
    if (pb === undefined) continue;
    passes.push({ rung: pa.rung, pass: pa.pass, a: pa, b: pb });
    if (pa.seed !== pb.seed) leftOut.seedMismatches += 1;
    if (passErrored(pa) || passErrored(pb)) leftOut.erroredPassPairs += 1;
    const bySteps = new Map(pb.steps.map((s) => [s.step, s]));
    for (const sa of pa.steps) {
      const sb = bySteps.get(sa.step);
      if (sb === undefined) leftOut.stepRunsOnlyInA += 1;
      else {
        steps.push({ rung: pa.rung, pass: pa.pass, a: sa, b: sb });
        if (isErrored(sa) || isErrored(sb)) leftOut.erroredStepPairs += 1;
      }
    }
    const inPa = new Set(pa.steps.map((s) => s.step));
    leftOut.stepRunsOnlyInB += pb.steps.filter((s) => !inPa.has(s.step)).length;
  }
  return { rungs: uniqueInOrder(passes.map((p) => p.rung)), passes, steps, leftOut };
}
