// Across turns, per server: a server that only fails is opened and not called
// (README, "The reliability layer").
// docs/incidents.md, "A dead tool called six times in one turn": a dead browser server failed 9
// calls out of 9 over 40 minutes, and every turn found that out again by calling it.
import type { Clock } from './clock.ts';

/** One or two failures can be a blip or a restart; three with no success between is an outage. */
const DEFAULT_THRESHOLD = 3;
/** Ten minutes: failures further apart than this say little about whether it is down now. */
const DEFAULT_WINDOW_MS = 600_000;
/** One probe a minute: a recovered server is noticed within a turn or two, at one call's cost. */
const DEFAULT_COOL_DOWN_MS = 60_000;

export interface CircuitOptions {
  /** Failures with no success in between that open the circuit. Default 3. Integer >= 1. */
  threshold?: number;
  /** Those failures must fall within this many ms (first to last). Default 600_000. > 0. */
  windowMs?: number;
  /** How long an open circuit refuses before one probe is let through. Default 60_000. > 0. */
  coolDownMs?: number;
  clock?: Clock;
}

export enum CircuitState { Closed = 'closed', Open = 'open', HalfOpen = 'half_open' }

export type CircuitVerdict =
  | { allowed: true; probe: boolean }
  | { allowed: false; openedAt: number; failures: number; retryAt: number; text: string };

type Circuit =
  /** `failedAt`: times of the failures since the last success that are still in the window. */
  | { value: CircuitState.Closed; failedAt: readonly number[] }
  | { value: CircuitState.Open; openedAt: number; failures: number }
  /** `probeSentAt`: when the one call let through was allowed; it is still outstanding. */
  | { value: CircuitState.HalfOpen; openedAt: number; failures: number; probeSentAt: number };

type Shut = Extract<Circuit, { value: CircuitState.Open | CircuitState.HalfOpen }>;

const CLOSED: Circuit = { value: CircuitState.Closed, failedAt: [] };

function isSpan(ms: number): boolean {
  return Number.isFinite(ms) && ms > 0;
}

function ensure(ok: boolean, field: string, rule: string, value: unknown): void {
  if (!ok) throw new RangeError(`ServerCircuits: ${field} must be ${rule}, got ${String(value)}`);
}

/** One circuit per server name; servers never seen are closed. */
export class ServerCircuits {
  readonly #threshold: number;
  readonly #windowMs: number;
  readonly #coolDownMs: number;
  readonly #clock: Clock;
  readonly #circuits = new Map<string, Circuit>();

  constructor(options: CircuitOptions = {}) {
    const {
      threshold = DEFAULT_THRESHOLD,
      windowMs = DEFAULT_WINDOW_MS,
      coolDownMs = DEFAULT_COOL_DOWN_MS,
      clock = Date.now,
    } = options;
    const isCount = Number.isInteger(threshold) && threshold >= 1;
    ensure(isCount, 'threshold', 'an integer >= 1', threshold);
    ensure(isSpan(windowMs), 'windowMs', 'a finite number > 0', windowMs);
    ensure(isSpan(coolDownMs), 'coolDownMs', 'a finite number > 0', coolDownMs);
    this.#threshold = threshold;
    this.#windowMs = windowMs;
    this.#coolDownMs = coolDownMs;
    this.#clock = clock;
  }

  /**
   * Decides lazily, with the clock, whether a call to `server` may be sent now. The first
   * check at or after the cool-down turns an open circuit half-open and lets that one call
   * through as the probe; every other check is refused until the probe is reported.
   */
  check(server: string): CircuitVerdict {
    const circuit = this.#circuit(server);
    if (circuit.value === CircuitState.Closed) return { allowed: true, probe: false };
    const now = this.#clock();
    if (circuit.value === CircuitState.Open && now >= circuit.openedAt + this.#coolDownMs) {
      this.#circuits.set(server, { ...circuit, value: CircuitState.HalfOpen, probeSentAt: now });
      return { allowed: true, probe: true };
    }
    return this.#refusal(server, circuit, now);
  }

  /** Any success closes the circuit and forgets the failures before it. */
  success(server: string): void {
    this.#circuits.delete(server);
  }

  failure(server: string): void {
    const now = this.#clock();
    const circuit = this.#circuit(server);
    if (circuit.value === CircuitState.Closed) {
      const failedAt = [...circuit.failedAt, now];
      // Oldest first: drop what fell out of the window, measured back from this failure.
      while (now - failedAt[0]! > this.#windowMs) failedAt.shift();
      const opens = failedAt.length >= this.#threshold;
      const next = opens ? this.#open(now, failedAt.length) : { ...circuit, failedAt };
      this.#circuits.set(server, next);
    } else if (circuit.value === CircuitState.HalfOpen) {
      this.#circuits.set(server, this.#open(now, circuit.failures + 1));
    } else {
      // A call sent before the circuit opened, reporting late: counted, but it does not push
      // the probe further away.
      this.#circuits.set(server, { ...circuit, failures: circuit.failures + 1 });
    }
  }

  /** The state as of the last call; an open circuit turns half-open only when checked. */
  state(server: string): CircuitState {
    return this.#circuit(server).value;
  }

  #circuit(server: string): Circuit {
    return this.#circuits.get(server) ?? CLOSED;
  }

  #open(now: number, failures: number): Circuit {
    return { value: CircuitState.Open, openedAt: now, failures };
  }

  #refusal(server: string, circuit: Shut, now: number): CircuitVerdict {
    // While the probe is out, a failed probe re-opens no earlier than this; a success sooner.
    const from = circuit.value === CircuitState.HalfOpen ? circuit.probeSentAt : circuit.openedAt;
    const retryAt = from + this.#coolDownMs;
    // Zero only when a probe has been out longer than the cool-down and is still unreported.
    const seconds = Math.max(0, Math.ceil((retryAt - now) / 1000));
    const since = new Date(circuit.openedAt).toISOString();
    const failures = `${circuit.failures} failure${circuit.failures === 1 ? '' : 's'}`;
    return {
      allowed: false,
      openedAt: circuit.openedAt,
      failures: circuit.failures,
      retryAt,
      text:
        `server ${server} unavailable since ${since} after ${failures}, retry after ${seconds} s`,
    };
  }
}
