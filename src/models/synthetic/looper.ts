// synthetic:looper (docs/incidents.md, "The same question sixteen times"): asks a deterministic
// tool the same question again and again while the answer stays byte-identical, a fixed point
// no amount of context breaks.
// Only an answer that looks different (the repeat short-circuit's) lets it move on; with
// the mechanism off it spends the step's whole ceiling.
import { CLEAN } from './follow.ts';
import type { Policy } from './follow.ts';
import type { ScriptStep } from './script.ts';

/**
 * The call it loops on: the step's first call to a catalog tool, the deterministic family in
 * the incident and in the workbench. A step without one is followed cleanly.
 */
export function loopTarget(step: ScriptStep): number {
  return step.calls.findIndex((call) => call.tool.includes('catalog'));
}

export const looper: Policy = {
  name: 'looper',
  ...CLEAN,
  again: ({ step, index, answers }) => {
    if (index !== loopTarget(step)) return false;
    const last = answers.at(-1);
    const before = answers.at(-2);
    // The first re-ask needs no reason; after that, only an unchanged answer keeps it going.
    return before === undefined || last?.text === before.text;
  },
};
