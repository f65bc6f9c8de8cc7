// When to give up on a run: a provider (or the harness) that failed the same way for several
// passes in a row is down, and every pass after it would only record the same failure. A run
// against a stopped Ollama used to make all 180 passes, about 25 minutes, each "failed".
import type { PassOutcome } from './pass.ts';
import type { PassId } from './plan.ts';

/** Three in a row: one or two can be a blip that retries already rode out; three is an outage. */
export const ERRORED_STREAK_LIMIT = 3;

/** Why a pass errored: the harness's error, or its first errored step's. Undefined when nothing errored. */
export function erroredCause(outcome: PassOutcome): { cause: string; line: string } | undefined {
  if (outcome.error !== undefined) return { cause: outcome.error, line: outcome.error };
  const step = outcome.steps.find((s) => s.reason === 'errored' && s.error !== undefined);
  return step?.error === undefined ? undefined : { cause: step.error.cause, line: step.error.line };
}

export interface Streak {
  /**
   * One pass ended (in the order passes end). Returns the passes of the streak once `limit`
   * in a row have errored for the same cause, else undefined.
   */
  record(id: PassId, errored: { cause: string; line: string } | undefined): { ids: PassId[]; line: string } | undefined;
}

export function createStreak(limit = ERRORED_STREAK_LIMIT): Streak {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`streak limit must be an integer >= 1, got ${limit}`);
  let streak: { cause: string; ids: PassId[] } | undefined;
  return {
    record(id, errored) {
      if (errored === undefined) {
        streak = undefined;
        return undefined;
      }
      if (streak?.cause !== errored.cause) streak = { cause: errored.cause, ids: [] };
      streak.ids.push(id);
      return streak.ids.length >= limit ? { ids: [...streak.ids], line: errored.line } : undefined;
    },
  };
}
