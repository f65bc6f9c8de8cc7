// How many passes a run keeps going against one provider at once, set by what the provider
// answers: additive increase, multiplicative decrease (AIMD), the rule TCP paces itself with.
// A throttle (HTTP 429, or any answer carrying Retry-After) halves the level; every `level`
// requests answered at the current level raise it by one, up to the --concurrency asked for.
//
// Pure: numbers in, numbers out, time from an injected clock. The adapters report each request
// (src/models/call.ts); the runner reads `level` before starting a pass (src/runner/run.ts).
import type { Clock } from '../reliability/clock.ts';

/** One request as the limiter saw it go out; it comes back with the request's outcome. */
export interface PaceTicket {
  /** Requests sent before and including this one. */
  readonly seq: number;
}

/** What an adapter tells its provider's limiter about each request it sends. */
export interface Pace {
  sent(): PaceTicket;
  /** The request was answered (a 2xx). Other failures (500, a dropped connection) say nothing about load. */
  succeeded(ticket: PaceTicket): void;
  /** The provider throttled it: a 429, or an answer with Retry-After (delay in ms, when given). */
  throttled(ticket: PaceTicket, retryAfterMs?: number): void;
}

export interface AimdOptions {
  /** The highest level, and the first: the --concurrency asked for. */
  readonly max: number;
  /** The lowest level (default 1): one pass always runs. */
  readonly min?: number;
  /** What a throttle multiplies the level by, rounding down (default 0.5). */
  readonly decrease?: number;
  readonly now: Clock;
}

/** What the run reports at its end: where the level settled and how it got there. */
export interface AimdState {
  level: number;
  max: number;
  lowest: number;
  /** Requests the provider throttled. */
  throttles: number;
  /** Times the level was lowered (one per burst of throttles) and raised. */
  decreases: number;
  increases: number;
}

function check(field: string, value: number, ok: boolean, expected: string): void {
  if (!ok) throw new RangeError(`pace ${field} must be ${expected}, got ${value}`);
}

export class AimdLimiter implements Pace {
  readonly max: number;
  readonly min: number;
  readonly decrease: number;
  #level: number;
  #lowest: number;
  #sequence = 0;
  /** The last request sent before the level last changed, and before it was last lowered. */
  #changedAt = 0;
  #loweredAt = 0;
  #answered = 0;
  #holdUntil = Number.NEGATIVE_INFINITY;
  #throttles = 0;
  #decreases = 0;
  #increases = 0;
  readonly #now: Clock;
  readonly #listeners = new Set<(level: number) => void>();

  constructor(options: AimdOptions) {
    const min = options.min ?? 1;
    const decrease = options.decrease ?? 0.5;
    check('max', options.max, Number.isInteger(options.max) && options.max >= 1, 'an integer >= 1');
    check('min', min, Number.isInteger(min) && min >= 1 && min <= options.max, `an integer from 1 to max (${options.max})`);
    check('decrease', decrease, decrease > 0 && decrease < 1, 'a number above 0 and below 1');
    this.max = options.max;
    this.min = min;
    this.decrease = decrease;
    this.#level = options.max;
    this.#lowest = options.max;
    this.#now = options.now;
  }

  /** Calls `listener` with the new level each time it changes; returns how to stop. */
  subscribe(listener: (level: number) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** How many passes may run at once now. */
  get level(): number {
    return this.#level;
  }

  get state(): AimdState {
    return {
      level: this.#level, max: this.max, lowest: this.#lowest, throttles: this.#throttles,
      decreases: this.#decreases, increases: this.#increases,
    };
  }

  sent(): PaceTicket {
    this.#sequence += 1;
    return { seq: this.#sequence };
  }

  succeeded(ticket: PaceTicket): void {
    // A request sent before the last change says nothing about the level now; nor does one
    // answered while the provider asked us to hold off.
    if (ticket.seq <= this.#changedAt || this.#now() < this.#holdUntil) return;
    this.#answered += 1;
    if (this.#answered >= this.#level && this.#level < this.max) {
      this.#increases += 1;
      this.#set(this.#level + 1);
    }
  }

  throttled(ticket: PaceTicket, retryAfterMs?: number): void {
    this.#throttles += 1;
    this.#holdUntil = Math.max(this.#holdUntil, this.#now() + (retryAfterMs ?? 0));
    // The requests in flight when the level was lowered are throttled together: one burst, one
    // decrease, or eight passes hitting one limit would take the level from 8 to 1 at once.
    if (ticket.seq <= this.#loweredAt) return;
    const lowered = Math.max(this.min, Math.floor(this.#level * this.decrease));
    // At the floor a throttle lowers nothing, and the summary must not say it did.
    if (lowered < this.#level) this.#decreases += 1;
    this.#loweredAt = this.#sequence;
    this.#set(lowered);
  }

  #set(level: number): void {
    this.#changedAt = this.#sequence;
    this.#answered = 0;
    if (level === this.#level) return;
    this.#level = level;
    this.#lowest = Math.min(this.#lowest, level);
    for (const listener of this.#listeners) listener(level);
  }
}
