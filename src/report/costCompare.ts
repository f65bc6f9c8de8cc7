// Cost per passed step, B against A: what a passed step cost on each side of the paired passes
// (a ratio of sums: dollars over passed step-runs), and the difference with a seeded bootstrap
// interval over the pairs. Pairs with an errored side are left out (the provider's failure is
// not the arm's), as are pairs where a response reported no token count (a cost that is only a
// lower bound would flatter that side).
import { costOf } from '../models/prices.ts';
import type { Pricing } from '../models/prices.ts';
import { pairedRatioDifference } from './bootstrap.ts';
import { isErrored, passErrored } from './metrics.ts';
import type { Verdict } from './paired.ts';
import type { Pairing } from './pairing.ts';
import type { PassRecord } from './passes.ts';

export interface CostSide {
  usd: number;
  passedSteps: number;
  /** Null when no step passed on this side. */
  perPassedStep: number | null;
}

export interface CostComparison {
  metric: 'cost_per_passed_step';
  label: 'cost per passed step';
  better: 'lower';
  pairsOf: 'passes';
  /** `free`: neither side cost anything; `unpriced`: a side has no price, so there is no cost to compare. */
  status: 'compared' | 'free' | 'unpriced';
  /** Why it was not compared, or what to know about the figures. */
  note: string | null;
  pairs: number;
  excluded: number;
  a: CostSide | null;
  b: CostSide | null;
  difference: { estimate: number; lower: number; upper: number } | null;
  /** Bootstrap resamples left out because a side had no passed step in them. */
  undefinedResamples: number;
  verdict: Verdict;
}

function passUsd(pass: PassRecord, pricing: Pricing): number {
  const sum = (f: (s: PassRecord['steps'][number]) => number): number => pass.steps.reduce((total, s) => total + f(s), 0);
  return costOf(pricing, { input: sum((s) => s.tokensIn), output: sum((s) => s.tokensOut), cacheRead: sum((s) => s.cacheRead), cacheWrite: sum((s) => s.cacheWrite) }) ?? 0;
}

const passedSteps = (pass: PassRecord): number => pass.steps.filter((s) => s.passed && !isErrored(s)).length;
const missingTokens = (pass: PassRecord): boolean => pass.steps.some((s) => s.tokensInMissing + s.tokensOutMissing > 0);

function side(usd: number[], passed: number[]): CostSide {
  const total = usd.reduce((s, x) => s + x, 0);
  const steps = passed.reduce((s, x) => s + x, 0);
  return { usd: total, passedSteps: steps, perPassedStep: steps === 0 ? null : total / steps };
}

export function compareCost(pairing: Pairing, pricingA: Pricing, pricingB: Pricing, seed: number): CostComparison {
  const base = { metric: 'cost_per_passed_step', label: 'cost per passed step', better: 'lower', pairsOf: 'passes' } as const;
  const none = (status: 'free' | 'unpriced', note: string): CostComparison => ({
    ...base, status, note, pairs: 0, excluded: pairing.passes.length, a: null, b: null, difference: null, undefinedResamples: 0, verdict: 'no_pairs',
  });
  const unpriced = [['A', pricingA], ['B', pricingB]].filter(([, p]) => (p as Pricing).status === 'unpriced') as [string, Pricing & { why: string }][];
  if (unpriced.length > 0) return none('unpriced', unpriced.map(([name, p]) => `${name} has no cost: ${p.why}`).join('; '));
  if (pricingA.status === 'free' && pricingB.status === 'free') {
    return none('free', pricingA.why === pricingB.why ? `A and B cost nothing: ${pricingA.why}` : `A costs nothing (${pricingA.why}), nor does B (${pricingB.why})`);
  }
  const usable = pairing.passes.filter((p) => !passErrored(p.a) && !passErrored(p.b) && !missingTokens(p.a) && !missingTokens(p.b));
  const aUsd = usable.map((p) => passUsd(p.a, pricingA));
  const bUsd = usable.map((p) => passUsd(p.b, pricingB));
  const aPassed = usable.map((p) => passedSteps(p.a));
  const bPassed = usable.map((p) => passedSteps(p.b));
  const a = side(aUsd, aPassed);
  const b = side(bUsd, bPassed);
  const common = { ...base, status: 'compared' as const, pairs: usable.length, excluded: pairing.passes.length - usable.length, a, b };
  if (usable.length === 0) return { ...common, note: null, difference: null, undefinedResamples: 0, verdict: 'no_pairs' };
  if (a.perPassedStep === null || b.perPassedStep === null) {
    const which = a.perPassedStep === null && b.perPassedStep === null ? 'A or B' : a.perPassedStep === null ? 'A' : 'B';
    return { ...common, note: `no step passed under ${which}, so a passed step has no cost to compare`, difference: null, undefinedResamples: 0, verdict: 'unclear' };
  }
  const d = pairedRatioDifference({ num: aUsd, den: aPassed }, { num: bUsd, den: bPassed }, seed);
  const identical = usable.every((_, i) => aUsd[i] === bUsd[i] && aPassed[i] === bPassed[i]);
  const verdict: Verdict = identical ? 'same' : d.lower > 0 ? 'worse' : d.upper < 0 ? 'better' : 'unclear';
  return {
    ...common,
    note: d.undefinedResamples > 0 ? `${d.undefinedResamples} of the bootstrap resamples had no passed step on a side and were left out of the interval` : null,
    difference: { estimate: d.estimate, lower: d.lower, upper: d.upper }, undefinedResamples: d.undefinedResamples, verdict,
  };
}
