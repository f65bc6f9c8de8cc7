// synthetic:reference: the rung's reference solution, followed cleanly. It waits out a capped
// wait by asking again for what is left, and refreshes the tool list when a tool it needs is
// missing. Every pathology below is this agent with one thing changed.
import { CLEAN } from './follow.ts';
import type { Policy } from './follow.ts';

export const reference: Policy = { name: 'reference', ...CLEAN };
