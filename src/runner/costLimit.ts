// What a run spent, and --max-cost: one running total, which the progress line, the run's
// result and the limit all read. With a limit the run starts no pass that could take its
// spending past it. The next
// pass's cost is estimated from the passes so far: the dearest complete pass of the same rung
// (either arm), else the dearest of any rung; the passes running count at their estimates.
// Until one pass has ended there is nothing to estimate from, so passes run one at a time.
// The dearest, not the mean: a pass costs about what the same task cost before, and a limit is
// a promise not to pass it. Without a limit every pass may start and the total is only kept.
// Pure: the runner reports each pass's cost in dollars, and how many of its responses had no
// token count (src/runner/spend.ts): with any, the total is a lower bound.
import type { Admission } from './pool.ts';

/** Why the run stopped: what it had spent, its limit, and what the next pass was expected to cost. */
export interface CostStop {
  spentUsd: number;
  maxUsd: number;
  nextUsd: number;
}

/** What one complete pass cost: US dollars, and its responses with no token count. */
export interface PassCostOf {
  rung: string;
  usd: number;
  missing?: number;
}

export class CostLimit {
  #spent: number;
  #missing = 0;
  readonly #dearest = new Map<string, number>();
  #dearestAll: number | undefined;
  readonly #reserved = new Map<string, number>();
  #stop: CostStop | undefined;

  /** `maxUsd`: --max-cost, if given; `earlier`: the rung and cost of each pass already complete (a resumed run). */
  constructor(
    readonly maxUsd: number | undefined,
    earlier: readonly PassCostOf[] = [],
  ) {
    if (maxUsd !== undefined && (!(maxUsd > 0) || !Number.isFinite(maxUsd))) {
      throw new RangeError(`--max-cost ${maxUsd}: expected an amount in US dollars above 0`);
    }
    this.#spent = 0;
    for (const pass of earlier) this.#count(pass.rung, pass.usd, pass.missing ?? 0);
  }

  get spentUsd(): number {
    return this.#spent;
  }

  /** Whether a response counted had no token count, so that what it cost is not in the total. */
  get lowerBound(): boolean {
    return this.#missing > 0;
  }

  /** Set once the limit stopped the run. */
  get stopped(): CostStop | undefined {
    return this.#stop;
  }

  estimate(rung: string): number | undefined {
    return this.#dearest.get(rung) ?? this.#dearestAll;
  }

  /** Whether pass `key` of `rung` may start now, `running` passes being under way. */
  admit(key: string, rung: string, running: number): Admission {
    if (this.maxUsd === undefined) return 'start';
    const estimate = this.estimate(rung);
    if (estimate === undefined) {
      if (running > 0) return 'wait';
      this.#reserved.set(key, 0);
      return 'start';
    }
    let reserved = 0;
    for (const usd of this.#reserved.values()) reserved += usd;
    if (this.#spent + reserved + estimate <= this.maxUsd) {
      this.#reserved.set(key, estimate);
      return 'start';
    }
    // The passes running may cost less than their estimates: wait for them before giving up.
    if (running > 0) return 'wait';
    this.#stop = { spentUsd: this.#spent, maxUsd: this.maxUsd, nextUsd: estimate };
    return 'stop';
  }

  /** Pass `key` ended having cost `usd`, `missing` of its responses with no token count. */
  finished(key: string, rung: string, usd: number, missing = 0): void {
    this.#reserved.delete(key);
    this.#count(rung, usd, missing);
  }

  /** Pass `key` ended without a cost to count (interrupted: its trace is made again). */
  released(key: string): void {
    this.#reserved.delete(key);
  }

  #count(rung: string, usd: number, missing: number): void {
    this.#spent += usd;
    this.#missing += missing;
    this.#dearest.set(rung, Math.max(usd, this.#dearest.get(rung) ?? 0));
    this.#dearestAll = Math.max(usd, this.#dearestAll ?? 0);
  }
}
