// The pass pool: starts passes in the run's order while an admission rule says so, and waits
// for something to change (a pass ending, the provider's level rising) when it says wait.
// What to admit is decided elsewhere (the provider's concurrency level, the cost limit,
// Ctrl-C); this only keeps the order and never starts a pass the rule did not admit.

/** `wait`: not now, ask again when a pass ends or `wake()` is called; `stop`: start no more. */
export type Admission = 'start' | 'wait' | 'stop';

export class PassPool<T> {
  #wake: () => void = () => undefined;
  #changed: Promise<void> = this.#next();

  /** `admit` is asked before each start, with the number of passes running. */
  constructor(private readonly admit: (item: T, running: number) => Admission) {}

  /** Something the rule reads has changed: ask it again. */
  wake(): void {
    this.#wake();
  }

  #next(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#wake = () => {
        this.#changed = this.#next();
        resolve();
      };
    });
  }

  /**
   * Runs `work` on `items` in order; resolves when every started item is done. `stopped` is true
   * when the rule said stop before every item started. A `work` that throws is a bug: the first
   * such error is thrown once every started item has settled.
   */
  async run(items: readonly T[], work: (item: T) => Promise<void>): Promise<{ started: number; stopped: boolean }> {
    const running = new Set<Promise<void>>();
    let failure: { error: unknown } | undefined;
    let next = 0;
    let stopped = false;
    while (next < items.length) {
      const verdict = this.admit(items[next]!, running.size);
      if (verdict === 'stop') {
        stopped = true;
        break;
      }
      if (verdict === 'start') {
        const task: Promise<void> = work(items[next++]!)
          .catch((error: unknown) => void (failure ??= { error }))
          .finally(() => {
            running.delete(task);
            this.wake();
          });
        running.add(task);
        continue;
      }
      // Nothing running can change what the rule reads: waiting would never end.
      if (running.size === 0) throw new Error('pass pool: the admission rule waits with no pass running');
      await this.#changed;
    }
    await Promise.all(running);
    if (failure !== undefined) throw failure.error;
    return { started: next, stopped };
  }
}
