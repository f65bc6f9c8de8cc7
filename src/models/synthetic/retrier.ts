// synthetic:retrier (docs/incidents.md, "A dead tool called six times in one turn"): re-sends a
// failed call unchanged, byte for byte, while the answer is the same failure: six sends in one
// turn, as in the incident. The breaker's refusal looks different from the failure, so with the
// breaker on it stops after one. Whether a failed call is re-sent so is drawn per reference call
// (p, default 0.5).
import { CLEAN } from './follow.ts';
import type { Policy } from './follow.ts';

/** Re-sends after the first failure: the incident's six calls of one dead tool in one turn. */
export const MAX_RESENDS = 5;

export const retrier: Policy = {
  name: 'retrier',
  ...CLEAN,
  p: 0.5,
  again: ({ answers, strikes }) => {
    const first = answers[0];
    const last = answers.at(-1);
    if (!strikes || first === undefined || last === undefined || !first.isError) return false;
    return answers.length <= MAX_RESENDS && last.text === first.text;
  },
};
