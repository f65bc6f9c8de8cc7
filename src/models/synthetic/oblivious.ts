// synthetic:oblivious (docs/incidents.md, "A refresh that must not promise too much"): never calls
// harness__refresh_tools. A tool that appeared after its turn's list was fixed is skipped,
// and stays unseen for as long as the cached list is served.
import { CLEAN } from './follow.ts';
import type { Policy } from './follow.ts';

export const oblivious: Policy = { name: 'oblivious', ...CLEAN, refreshes: false };
