// Seeded synthetic agents: no network, no model. They follow a rung's reference solution and
// add one pathology each, to exercise the harness; they measure no model.
import type { Clock } from '../../reliability/clock.ts';
import type { SyntheticPolicy } from '../spec.ts';
import type { ModelAdapter } from '../types.ts';
import type { Policy } from './follow.ts';
import { impatient } from './impatient.ts';
import { looper } from './looper.ts';
import { SyntheticModel } from './model.ts';
import { oblivious } from './oblivious.ts';
import { reference } from './reference.ts';
import { retrier } from './retrier.ts';
import { checkProbability } from './chance.ts';
import { checkScript, oneShotScript } from './script.ts';
import type { SyntheticScript } from './script.ts';

export type { SyntheticScript, ScriptStep, ScriptCall } from './script.ts';
export { SyntheticModel } from './model.ts';
export { IMPATIENT_TIMEOUT_MS } from './impatient.ts';
export { MAX_RESENDS } from './retrier.ts';
export { checkProbability } from './chance.ts';

/** Each policy's probability per decision when the spec sets none (`synthetic:retrier?p=0.4` does). */
export function defaultProbability(policy: SyntheticPolicy): number {
  return POLICIES[policy].p;
}

const POLICIES: Record<SyntheticPolicy, Policy> = { reference, looper, retrier, impatient, oblivious };

export interface SyntheticOptions {
  script: SyntheticScript;
  /** Decides where the pathology strikes (chance.ts) and offsets the reported token counts. */
  seed: number;
  /** The probability per decision that the pathology strikes; default the policy's own (1: always). */
  p?: number;
  /**
   * One-shot mode: every step's prompt comes in one user message, so the agent follows every
   * step's calls in order and answers every step at the end. Default: step by step, one user
   * message per step.
   */
  oneShot?: boolean;
  /** Clock for `latencyMs`. */
  now?: Clock;
  /**
   * The pass's workspace path: token counts are made as if it were written `{workspace}`,
   * as the trace writes it, so they do not depend on where the temporary folder was.
   */
  workspace?: string;
}

export function createSyntheticModel(policy: SyntheticPolicy, options: SyntheticOptions): ModelAdapter {
  const chosen = POLICIES[policy];
  if (chosen === undefined) throw new RangeError(`synthetic policy must be one of ${Object.keys(POLICIES).join(', ')}, got ${String(policy)}`);
  checkScript(options.script, `synthetic:${policy}`);
  if (!Number.isInteger(options.seed)) throw new RangeError(`synthetic:${policy}: seed must be an integer, got ${options.seed}`);
  const script = options.oneShot === true ? oneShotScript(options.script) : options.script;
  const p = options.p === undefined ? chosen.p : checkProbability(options.p, `synthetic:${policy}`);
  return new SyntheticModel(chosen, script, options.seed, options.now, options.workspace, p);
}
