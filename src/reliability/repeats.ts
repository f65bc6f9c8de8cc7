// Within a pass, the Nth identical call to a deterministic tool gets a short answer that
// points at the full one (README, "The reliability layer").
import { callKey } from './callKey.ts';

/**
 * The third identical call is the first one answered short: a second ask can be a legitimate
 * re-check, while a model stuck at a fixed point emitted the same call 16 times in one step
 * (docs/incidents.md, "The same question sixteen times"). Two is the least that still lets
 * one identical re-ask through.
 */
const DEFAULT_THRESHOLD = 3;
const MIN_THRESHOLD = 2;

export interface RepeatOptions {
  /** The first identical call that is short-circuited. Default 3. Integer >= 2. */
  threshold?: number;
  /** Whether a qualified tool name is deterministic (same input, same output). */
  isDeterministic: (tool: string) => boolean;
}

export type RepeatVerdict =
  | { shortCircuit: false }
  | { shortCircuit: true; count: number; turn: number; round: number; text: string };

interface CallRecord {
  /** Identical calls observed so far in the pass, short-circuited ones included. */
  count: number;
  /** Where the first full answer was given; absent while every twin failed or is pending. */
  answer?: { turn: number; round: number };
}

export class RepeatGuard {
  readonly #threshold: number;
  readonly #isDeterministic: (tool: string) => boolean;
  readonly #calls = new Map<string, CallRecord>();

  constructor(options: RepeatOptions) {
    const { threshold = DEFAULT_THRESHOLD, isDeterministic } = options;
    if (!Number.isInteger(threshold) || threshold < MIN_THRESHOLD) {
      throw new RangeError(
        `RepeatGuard: threshold must be an integer >= ${MIN_THRESHOLD}, got ${threshold}`,
      );
    }
    if (typeof isDeterministic !== 'function') {
      throw new TypeError(
        `RepeatGuard: isDeterministic must be a function (tool name -> boolean), got ${typeof isDeterministic}`,
      );
    }
    this.#threshold = threshold;
    this.#isDeterministic = isDeterministic;
  }

  /**
   * Counts this call (it is the count-th identical one in the pass) and decides whether it is
   * answered short. Only a call whose earlier twin has a recorded full answer is short-circuited.
   */
  observe(tool: string, args: unknown): RepeatVerdict {
    return this.observeKey(tool, callKey(tool, args));
  }

  /** As observe, for a caller that already has `key = callKey(tool, args)` (the lane, once per call). */
  observeKey(tool: string, key: string): RepeatVerdict {
    const record = this.#record(key);
    record.count += 1;
    const { count, answer } = record;
    // Logs, files and polls change between calls, so repeating them is the point (docs/incidents.md,
    // "The same question sixteen times").
    if (count < this.#threshold || answer === undefined || !this.#isDeterministic(tool)) {
      return { shortCircuit: false };
    }
    // A counter appended to the full answer is a perturbation a stuck model steps over; the
    // short answer has to look different, and carries no advice so a benchmark measures the
    // model rather than a nudge (docs/incidents.md, "The same question sixteen times").
    const { turn, round } = answer;
    const text = `Identical to the answer at turn ${turn}, round ${round}; asked ${count} times.`;
    return { shortCircuit: true, count, turn, round, text };
  }

  /** Records where the full answer to this call was given (the first one is kept). */
  answered(tool: string, args: unknown, turn: number, round: number): void {
    this.answeredKey(callKey(tool, args), turn, round);
  }

  /** As answered, with `key = callKey(tool, args)` already computed. */
  answeredKey(key: string, turn: number, round: number): void {
    const record = this.#record(key);
    record.answer ??= { turn, round };
  }

  #record(key: string): CallRecord {
    let record = this.#calls.get(key);
    if (record === undefined) {
      record = { count: 0 };
      this.#calls.set(key, record);
    }
    return record;
  }
}
