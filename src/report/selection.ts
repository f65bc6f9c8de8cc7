// Tool selection against the rung's reference solution (docs/report.md, "Tool selection"): for
// one step, the tools the agent called as a multiset against the tools the reference calls.
// A call matches a reference call of the same tool, each reference call matched at most once,
// so calling the right tool twice where the reference calls it once is one match and one extra.
// Every call counts, refused and short-circuited ones included: the agent chose to make it.

export interface Selection {
  /** Calls the reference makes in the step. */
  referenceCalls: number;
  /** Calls the agent made in the step. */
  calls: number;
  /** Calls matched to a reference call of the same tool. */
  matched: number;
  /** matched / calls; null when the agent made no call (nothing chosen to be right or wrong). */
  precision: number | null;
  /** matched / reference calls; null when the reference makes none (nothing to find). */
  recall: number | null;
  /** 2 matched / (calls + reference calls): the harmonic mean of the two; 1 when both are empty. */
  f1: number;
  /** Calls beyond the reference's count (0 when the agent made fewer). */
  extra: number;
  /**
   * reference calls / calls, at most 1: how short the agent's path was next to the reference's.
   * 1 when neither called anything; null when the agent called nothing and the reference did
   * (a step not attempted has no path to measure; recall says what it missed).
   */
  efficiency: number | null;
}

/** How many times each name occurs. */
export function tally(names: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
}

export function selection(reference: readonly string[], called: ReadonlyMap<string, number>): Selection {
  const wanted = tally(reference);
  let calls = 0;
  let matched = 0;
  for (const [tool, count] of called) {
    calls += count;
    matched += Math.min(count, wanted.get(tool) ?? 0);
  }
  const referenceCalls = reference.length;
  const both = calls + referenceCalls;
  return {
    referenceCalls, calls, matched,
    precision: calls === 0 ? null : matched / calls,
    recall: referenceCalls === 0 ? null : matched / referenceCalls,
    f1: both === 0 ? 1 : (2 * matched) / both,
    extra: Math.max(0, calls - referenceCalls),
    efficiency: calls === 0 ? (referenceCalls === 0 ? 1 : null) : Math.min(1, referenceCalls / calls),
  };
}
