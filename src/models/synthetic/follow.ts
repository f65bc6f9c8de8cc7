// How every synthetic agent works through one step: the reference calls in order, one call per
// round, reacting only to what the tools answer. A policy changes one thing about it (the
// arguments it sends, whether it asks again, whether it refreshes), which is its pathology;
// whether the pathology strikes at a given reference call is drawn per decision (chance.ts).
import { REFRESH_TOOL } from '../../reliability/index.ts';
import type { SyntheticPolicy } from '../spec.ts';
import type { ScriptCall, ScriptStep } from './script.ts';

/** What a tool call answered, as the agent read it back from the conversation. */
export interface Answer {
  readonly text: string;
  readonly isError: boolean;
}

export interface Ask {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

export interface Policy {
  readonly name: SyntheticPolicy;
  /**
   * The probability per decision that the pathology strikes, when the spec does not set one
   * (`synthetic:retrier?p=0.4`). 1 makes the agent the deterministic form of its incident.
   */
  readonly p: number;
  /** Whether it asks for the tool list again (a missing tool, or a refresh the reference makes). */
  refreshes(strikes: boolean): boolean;
  /** The arguments it sends for a reference call. */
  args(call: ScriptCall, strikes: boolean): Record<string, unknown>;
  /** Given every answer so far to one call (same tool, same arguments), whether to send it again. */
  again(at: { readonly step: ScriptStep; readonly index: number; readonly answers: readonly Answer[]; readonly strikes: boolean }): boolean;
}

/** The reference behaviour; each policy overrides one part of it. */
export const CLEAN: Omit<Policy, 'name'> = {
  p: 0,
  refreshes: () => true,
  args: (call) => ({ ...call.args }),
  again: () => false,
};

/** `remainingMs` from a capped wait cut short (README, "The reliability layer"): the legal next `timeoutMs`. */
export function remainingMs(text: string): number | undefined {
  try {
    const value = (JSON.parse(text) as { remainingMs?: unknown } | null)?.remainingMs;
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The step as a generator: it yields each call to make and is resumed with its answer; it
 * returns when the step's calls are done and the agent answers. `offered` is the turn's tool
 * list, which does not change within a turn; `strikes(i)` says whether the pathology strikes
 * at reference call i.
 */
export function* follow(policy: Policy, step: ScriptStep, offered: ReadonlySet<string>,
  strikes: (index: number) => boolean = () => true): Generator<Ask, void, Answer> {
  let refreshed = false;
  for (const [index, call] of step.calls.entries()) {
    const strike = strikes(index);
    // A model cannot call a tool it was not offered; the one it can call says the list is
    // stale. A reference may also ask for the list itself (a server that changes silently).
    if (call.tool === REFRESH_TOOL || !offered.has(call.tool)) {
      if (!refreshed && offered.has(REFRESH_TOOL) && policy.refreshes(strike)) {
        refreshed = true;
        yield { tool: REFRESH_TOOL, args: {} };
      }
      continue;
    }
    let args = policy.args(call, strike);
    let answers: Answer[] = [];
    for (;;) {
      const answer: Answer = yield { tool: call.tool, args };
      answers.push(answer);
      const remaining = remainingMs(answer.text);
      if (remaining !== undefined) {
        // The wait was cut short by the cap: ask for what is left, as the tool says to.
        args = { ...args, timeoutMs: remaining };
        answers = [];
        continue;
      }
      if (!policy.again({ step, index, answers, strikes: strike })) break;
    }
  }
}
