// synthetic:oblivious (docs/incidents.md, "A refresh that must not promise too much"): forgets
// harness__refresh_tools when the pathology strikes (p per decision, default 0.5): a tool that
// appeared after its turn's list was fixed is skipped, and stays unseen for as long as the
// cached list is served.
import { CLEAN } from './follow.ts';
import type { Policy } from './follow.ts';

export const oblivious: Policy = { name: 'oblivious', ...CLEAN, p: 0.5, refreshes: (strikes) => !strikes };
