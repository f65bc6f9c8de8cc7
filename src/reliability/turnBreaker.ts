// Within one turn, a call that failed is not sent again (README, "The reliability layer").
// docs/incidents.md, "A dead tool called six times in one turn": one dead browser call was sent
// six times in a turn, each time with the same error; the answer was ready after 39 s and the
// repeats took the turn to 164 s.
//
// What it remembers belongs to the server's incarnation (its process or session, counted by the
// caller: 0 at the first start, one more at each restart or reconnect). A failure is evidence
// about the server that gave it: once that server has been replaced, the identical call is sent
// again. `ladder gateway` restarted a crashed server in 3 s and then refused the identical call
// for the rest of the turn, while the same call with other arguments went through.
import { callKey } from './callKey.ts';
import type { FailureRecord } from './types.ts';

export interface TurnBreakerOptions {
  /** 'call' (default) keys on tool + arguments; 'tool' refuses any call to a tool that failed. */
  key?: 'call' | 'tool';
}

export type TurnVerdict =
  | { allowed: true }
  | { allowed: false; failure: FailureRecord; text: string };

interface Remembered {
  failure: FailureRecord;
  /** The incarnation of the server the failed call was sent to. */
  incarnation: number;
}

export class TurnBreaker {
  readonly #byTool: boolean;
  /** First failure of the turn per key (of the newest incarnation that failed it). */
  readonly #failures = new Map<string, Remembered>();
  #turn = 0;

  constructor(options: TurnBreakerOptions = {}) {
    // Keyed on the call by default: a call that failed on its arguments can be corrected,
    // and refusing the corrected call would cost the model a recovery it is entitled to.
    const { key = 'call' } = options;
    if (key !== 'call' && key !== 'tool') {
      throw new RangeError(`TurnBreaker: key must be 'call' or 'tool', got ${String(key)}`);
    }
    this.#byTool = key === 'tool';
  }

  /** Forgets every failure: a new turn starts clean. */
  openTurn(turn: number): void {
    this.#turn = turn;
    this.#failures.clear();
  }

  /**
   * Whether a call may be sent to the server's `incarnation` now; when not, the recorded failure
   * and the text for the model. A failure of another incarnation refuses nothing.
   */
  check(tool: string, args: unknown, incarnation = 0): TurnVerdict {
    return this.checkKey(tool, this.#keyOf(tool, args), incarnation);
  }

  /**
   * As check, for a caller that already has `key = callKey(tool, args)`: the lane computes it
   * once per call for its trace. Keyed on the tool, the breaker does not look at `key`.
   */
  checkKey(tool: string, key: string, incarnation = 0): TurnVerdict {
    const held = this.#failures.get(this.#byTool ? tool : key);
    if (held === undefined || held.incarnation !== incarnation) return { allowed: true };
    const { failure } = held;
    const what = this.#byTool ? 'a call to this tool' : 'the identical call';
    const round = `round ${failure.round} of this turn`;
    const line = `Not sent again: ${what} failed at ${round} with the error above.`;
    return { allowed: false, failure, text: `${failure.error}\n${line}` };
  }

  /**
   * Records a failed call (isError result or thrown error) at a round of the current turn, sent
   * to the server's `incarnation`.
   */
  recordFailure(tool: string, args: unknown, round: number, error: string, incarnation = 0): void {
    this.recordFailureKey(tool, this.#keyOf(tool, args), round, error, incarnation);
  }

  /**
   * As recordFailure, with `key = callKey(tool, args)` already computed. The first failure of an
   * incarnation is kept; a failure of a newer one replaces it, and one of an older one (a call
   * that was still running when its server was replaced) changes nothing.
   */
  recordFailureKey(tool: string, key: string, round: number, error: string, incarnation = 0): void {
    const slot = this.#byTool ? tool : key;
    const held = this.#failures.get(slot);
    if (held !== undefined && held.incarnation >= incarnation) return;
    this.#failures.set(slot, { failure: { turn: this.#turn, round, error }, incarnation });
  }

  /** Keyed on the tool, arguments are never serialised: any arguments will do, even a cycle. */
  #keyOf(tool: string, args: unknown): string {
    return this.#byTool ? tool : callKey(tool, args);
  }
}
