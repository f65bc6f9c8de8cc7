// synthetic:impatient (docs/incidents.md, "A long wait whose reply was lost"): asks a long wait
// for far more time than one reply can survive. A call with a `timeoutMs` argument asks for at
// least 100 s, past the SDK's 60 s default request timeout, when the pathology strikes (p per
// wait call, default 0.5), else what the reference asks; a capped wait answers within its cap
// anyway and says how much is left, which it then follows as the reference does.
import { CLEAN } from './follow.ts';
import type { Policy } from './follow.ts';

/** The incident's retry: well past the 60 s a reply survives on the SDK's default timeout. */
export const IMPATIENT_TIMEOUT_MS = 100_000;

export const impatient: Policy = {
  name: 'impatient',
  ...CLEAN,
  p: 0.5,
  args: (call, strikes) => {
    const asked = call.args['timeoutMs'];
    if (!strikes || asked === undefined) return { ...call.args };
    return { ...call.args, timeoutMs: typeof asked === 'number' ? Math.max(asked, IMPATIENT_TIMEOUT_MS) : IMPATIENT_TIMEOUT_MS };
  },
};
