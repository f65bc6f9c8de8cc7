// When to give up on a run: a provider, a server (or the harness) that failed for several passes
// in a row is down, and every pass after it would only record the same failure. A run against a
// stopped Ollama used to make all 180 passes, about 25 minutes, each "failed". A run against an
// HTTP server that refused the protocol version ended "complete", exit 0, with every pass
// errored: its passes failed by turns with the refusal and a timeout, two causes, and a streak
// of one cause never reached three. The streak is of one party (who failed), and a run in which
// every pass made errored is stopped at its end whatever the mix. A server that refused Ladder's
// protocol (lane/refusal.ts) gave a definite answer, not an outage: it stops the run at once.
import { isReplayDivergence } from '../models/replay.ts';
import type { PassOutcome } from './pass.ts';
import type { PassId } from './plan.ts';

/** Three in a row: one or two can be a blip that retries already rode out; three is an outage. */
export const ERRORED_STREAK_LIMIT = 3;

/**
 * Who failed an errored pass: a server (it did not start or answer, or its tools collide), the
 * model (its provider kept failing after retries), Ladder (a bug: the pass threw), or the replay
 * (the agent or the rung asked what the recorded run never did: the same on every try). An external
 * agent's own failure is not here: it fails its step (`agent_failed`), and is measured.
 */
export type Culprit = 'server' | 'model' | 'ladder' | 'replay';

export interface Errored {
  /** What failed in a few words, for progress lines. */
  cause: string;
  /** One line that says it, for the stop. */
  line: string;
  by: Culprit;
  /** A server refused Ladder's protocol: the same answer for every pass, so one is enough. */
  refused?: true;
}

/** Why a pass errored: its servers' error, or its first errored step's. Undefined when nothing errored. */
export function erroredCause(outcome: PassOutcome): Errored | undefined {
  // A pass's own error is its servers' (runPass sets it for nothing else).
  if (outcome.error !== undefined) {
    return { cause: outcome.error, line: outcome.error, by: 'server', ...(outcome.refused === true ? { refused: true as const } : {}) };
  }
  const step = outcome.steps.find((s) => s.reason === 'errored' && s.error !== undefined);
  if (step?.error === undefined) return undefined;
  // A step errors only when the model's provider kept failing, or a replay diverged.
  return { cause: step.error.cause, line: step.error.line, by: isReplayDivergence(step.error.line) ? 'replay' : 'model' };
}

/** The passes a stop leaves to --resume, the last one's line, and who failed each, in order. */
export interface StreakStop {
  ids: PassId[];
  line: string;
  by: Culprit[];
  /** Stopped at a server's protocol refusal, before any limit. */
  refused?: true;
}

export interface Streak {
  /**
   * One pass ended (in the order passes end). Returns the passes of the streak once `limit`
   * in a row have errored, each failed by the same party, or at once when a server refused the
   * protocol; else undefined.
   */
  record(id: PassId, errored: Errored | undefined): StreakStop | undefined;
  /** Every pass recorded, when there was one and each errored (whoever failed it); else undefined. */
  everyErrored(): StreakStop | undefined;
}

export function createStreak(limit = ERRORED_STREAK_LIMIT): Streak {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`streak limit must be an integer >= 1, got ${limit}`);
  let streak: { by: Culprit; ids: PassId[] } | undefined;
  // Every pass so far, while each errored; undefined from the first that did not.
  let all: StreakStop | undefined = { ids: [], line: '', by: [] };
  return {
    record(id, errored) {
      if (errored === undefined) {
        streak = undefined;
        all = undefined;
        return undefined;
      }
      if (all !== undefined) {
        all.ids.push(id);
        all.by.push(errored.by);
        all.line = errored.line;
      }
      // Each replayed pass diverges on its own: no outage, so no streak; every pass is made.
      if (keepsTraces(errored.by)) {
        streak = undefined;
        return undefined;
      }
      if (streak?.by !== errored.by) streak = { by: errored.by, ids: [] };
      streak.ids.push(id);
      const stop = { ids: [...streak.ids], line: errored.line, by: streak.ids.map(() => errored.by) };
      if (errored.refused === true) return { ...stop, refused: true };
      return streak.ids.length >= limit ? stop : undefined;
    },
    everyErrored() {
      return all === undefined || all.ids.length === 0 ? undefined : { ids: [...all.ids], line: all.line, by: [...all.by] };
    },
  };
}

const WHO: Record<Culprit, string> = { server: 'a server', model: 'the model', ladder: 'Ladder', replay: 'the replay' };
const UNTIL: Record<Culprit, string> = {
  server: 'once the server answers',
  model: 'once the model answers',
  ladder: 'once Ladder is fixed (a bug in Ladder: report it with the line above)',
  replay: 'with the agent and rungs the recording was made with, or record a new run (a replay diverges the same way every time)',
};

/** When to continue a run stopped at a protocol refusal: the server must change, not come back. */
const REFUSED_UNTIL = 'once the server, or the protocol setting it is given, is changed as the line says';

/** A replay's divergence is the same on every try: its passes are findings to keep, not an outage to make again. */
export function keepsTraces(by: Culprit): boolean {
  return by === 'replay';
}

/**
 * Who failed the passes of a stop, as the stop line says it: `a server failed` when one party
 * failed them all, else each party with its count, most first (`a server 2, the model 1`); and
 * when to continue.
 */
export function blame(by: readonly Culprit[], refused = false): { who: string; until: string } {
  const counts = new Map<Culprit, number>();
  for (const culprit of by) counts.set(culprit, (counts.get(culprit) ?? 0) + 1);
  const parties = [...counts].sort((a, b) => b[1] - a[1]);
  // A refusal is an answer, not an outage: waiting for the server to come back would not help.
  const until = (otherwise: string) => (refused ? REFUSED_UNTIL : otherwise);
  if (parties.length === 1) return { who: `${WHO[parties[0]![0]]} failed`, until: until(UNTIL[parties[0]![0]]) };
  return { who: `failed by ${parties.map(([culprit, n]) => `${WHO[culprit]} ${n}`).join(', ')}`, until: until('once each of them answers') };
}
