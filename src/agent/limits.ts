// What can end a step from outside the conversation: its time limit and a Ctrl-C. Both abort
// one signal that every model request carries, and every await of the step is raced against
// it, so a hung provider or a tool that never answers cannot hold the step past its limit.

export type Stop = 'time_limit' | 'interrupted';

/** Thrown out of `race` when the step must stop; the loop turns it into the step's reason. */
export class StepStopped extends Error {
  override readonly name = 'StepStopped';
  constructor(readonly why: Stop) {
    super(why === 'time_limit' ? 'the step time limit passed' : 'interrupted');
  }
}

export class StepLimits implements Disposable {
  readonly #limit = new AbortController();
  #timer: ReturnType<typeof setTimeout>;
  readonly #interrupt: AbortSignal | undefined;
  readonly #now: () => number;
  readonly #startedAt: number;
  /** Aborted when the time limit passes or the run is interrupted; model requests carry it. */
  readonly signal: AbortSignal;

  constructor(timeLimitMs: number, interrupt?: AbortSignal, now: () => number = () => performance.now()) {
    this.#interrupt = interrupt;
    this.#now = now;
    this.#startedAt = now();
    this.#timer = this.#arm(timeLimitMs);
    this.signal = interrupt === undefined ? this.#limit.signal : AbortSignal.any([this.#limit.signal, interrupt]);
  }

  #arm(ms: number): ReturnType<typeof setTimeout> {
    return setTimeout(() => this.#limit.abort(new StepStopped('time_limit')), ms);
  }

  /** Aborted only when the time limit passes (not for an interrupt): how an external agent's driver tells the two apart. */
  get timeUp(): AbortSignal {
    return this.#limit.signal;
  }

  /**
   * Moves the limit to `ms` after the step started: an external agent's start-up is not charged
   * to it (src/agents/startup.ts). A limit that has passed stays passed.
   */
  moveDeadline(ms: number): void {
    if (this.#limit.signal.aborted) return;
    clearTimeout(this.#timer);
    this.#timer = this.#arm(Math.max(0, this.#startedAt + ms - this.#now()));
  }

  /** Why the step must stop now, if it must; an interrupt wins over a limit that passed with it. */
  get stopped(): Stop | undefined {
    if (this.#interrupt?.aborted === true) return 'interrupted';
    return this.#limit.signal.aborted ? 'time_limit' : undefined;
  }

  /**
   * Settles with `work`, or rejects with StepStopped as soon as the step must stop. The losing
   * promise is left running and its outcome ignored: a provider's request carries `signal` and
   * is dropped; a tool call carries it too, and the lane answers it at once as abandoned.
   */
  race<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    const now = this.stopped;
    if (now !== undefined) return Promise.reject(new StepStopped(now));
    return new Promise<T>((resolve, reject) => {
      // The signal aborts for the interrupt or the limit, so one of the two is why.
      const onAbort = (): void => reject(new StepStopped(this.#interrupt?.aborted === true ? 'interrupted' : 'time_limit'));
      this.signal.addEventListener('abort', onAbort, { once: true });
      work.then(
        (value) => {
          this.signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          // An adapter that rejects because the signal fired comes second: onAbort already settled.
          this.signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#timer);
  }
}
