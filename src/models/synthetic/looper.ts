// synthetic:looper (docs/incidents.md, "The same question sixteen times"): asks a deterministic
// tool the same question again and again while the answer stays byte-identical, a fixed point
// no amount of context breaks.
// Only an answer that looks different (the repeat short-circuit's) lets it move on; with
// the mechanism off it spends the step's whole ceiling. Whether a step's lookup turns into
// such a loop is drawn per step (p, default 0.5).
import { CLEAN } from './follow.ts';
import type { Policy } from './follow.ts';
import type { ScriptStep } from './script.ts';

/**
 * The call it loops on: the step's first call to a catalog tool, the deterministic family in
 * the incident and in the workbench, or to a tool the rung declares deterministic (the script
 * marks those). A step without one is followed cleanly.
 */
export function loopTarget(step: ScriptStep): number {
  return step.calls.findIndex((call) => call.tool.includes('catalog') || call.deterministic === true);
}

export const looper: Policy = {
  name: 'looper',
  ...CLEAN,
  p: 0.5,
  again: ({ step, index, answers, strikes }) => {
    if (!strikes || index !== loopTarget(step)) return false;
    const last = answers.at(-1);
    const before = answers.at(-2);
    // The first re-ask needs no reason; after that, only an unchanged answer keeps it going.
    return before === undefined || last?.text === before.text;
  },
};
