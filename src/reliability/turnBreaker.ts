// Within one turn, a call that failed is not sent again (README, "The reliability layer").
// docs/incidents.md, "A dead tool called six times in one turn": one dead browser call was sent
// six times in a turn, each time with the same error; the answer was ready after 39 s and the
// repeats took the turn to 164 s.
import { callKey } from './callKey.ts';
import type { FailureRecord } from './types.ts';

export interface TurnBreakerOptions {
  /** 'call' (default) keys on tool + arguments; 'tool' refuses any call to a tool that failed. */
  key?: 'call' | 'tool';
}

export type TurnVerdict =
  | { allowed: true }
  | { allowed: false; failure: FailureRecord; text: string };

export class TurnBreaker {
  readonly #byTool: boolean;
  /** First failure of the turn per key; later failures of the same key add nothing. */
  readonly #failures = new Map<string, FailureRecord>();
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

  /** Whether a call may be sent; when not, the recorded failure and the text for the model. */
  check(tool: string, args: unknown): TurnVerdict {
    return this.checkKey(tool, this.#keyOf(tool, args));
  }

  /**
   * As check, for a caller that already has `key = callKey(tool, args)`: the lane computes it
   * once per call for its trace. Keyed on the tool, the breaker does not look at `key`.
   */
  checkKey(tool: string, key: string): TurnVerdict {
    const failure = this.#failures.get(this.#byTool ? tool : key);
    if (failure === undefined) return { allowed: true };
    const what = this.#byTool ? 'a call to this tool' : 'the identical call';
    const round = `round ${failure.round} of this turn`;
    const line = `Not sent again: ${what} failed at ${round} with the error above.`;
    return { allowed: false, failure, text: `${failure.error}\n${line}` };
  }

  /** Records a failed call (isError result or thrown error) at a round of the current turn. */
  recordFailure(tool: string, args: unknown, round: number, error: string): void {
    this.recordFailureKey(tool, this.#keyOf(tool, args), round, error);
  }

  /** As recordFailure, with `key = callKey(tool, args)` already computed. */
  recordFailureKey(tool: string, key: string, round: number, error: string): void {
    const slot = this.#byTool ? tool : key;
    if (this.#failures.has(slot)) return;
    this.#failures.set(slot, { turn: this.#turn, round, error });
  }

  /** Keyed on the tool, arguments are never serialised: any arguments will do, even a cycle. */
  #keyOf(tool: string, args: unknown): string {
    return this.#byTool ? tool : callKey(tool, args);
  }
}
