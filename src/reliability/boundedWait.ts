// One long-poll call waits at most capMs, whatever the caller asks (README, "The reliability layer").
// Seed 003: a wait whose reply outlived the client's patience was lost with everything it had
// learnt. Round by round, review found a sleep, then a read, then the final read running past
// the deadline, so here every await is raced against one deadline and none is trusted to end.
import type { Clock, Sleep } from './clock.ts';

/** Half the MCP SDK's 60 s default request timeout: the rest is left for the final read and the reply. */
export const WAIT_CAP_MS = 30_000;

/**
 * The schema minimum of a wait tool's `timeoutMs`: under a second there is no wait worth a
 * round trip. Exported so the tool schema and the `remainingMs` it must accept agree.
 */
export const MIN_TIMEOUT_MS = 1_000;

export interface BoundedWaitOptions<Item, Outputs> {
  /** What the caller asked for in total. Finite, > 0. */
  timeoutMs: number;
  /** Default WAIT_CAP_MS. Finite, > 0. */
  capMs?: number;
  /** Finite, > 0. */
  pollIntervalMs: number;
  /** The schema minimum of `timeoutMs`; `remainingMs` below it is omitted. Default MIN_TIMEOUT_MS. Finite, > 0. */
  minTimeoutMs?: number;
  clock: Clock;
  sleep: Sleep;
  /** One poll: the current list (jobs, agents, ...). */
  readList: () => Promise<Item[]>;
  isDone: (list: Item[]) => boolean;
  /** The final read, once, over the last list read. */
  readOutputs: (list: Item[]) => Promise<Outputs>;
}

export interface BoundedWaitResult<Item, Outputs> {
  /** null until a read succeeds: an expired read is not an empty list. */
  list: Item[] | null;
  /** Computed only over a list actually read; false when list is null. */
  done: boolean;
  outputs?: Outputs;
  agentsUnavailable?: true;
  outputsUnavailable?: true;
  /** Caller's budget minus real elapsed time; absent when done or below minTimeoutMs. */
  remainingMs?: number;
  /** Real elapsed time, measured when the wait resolves. */
  elapsedMs: number;
  /** List reads that answered before the deadline. */
  polls: number;
}

function positive(field: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`boundedWait: ${field} must be a finite number > 0, got ${value}`);
  }
  return value;
}

/**
 * Polls `readList` until the list is done or the window min(timeoutMs, capMs) runs out, then
 * reads the outputs once. Reads cannot be cancelled: one that loses its race to the deadline
 * is left in flight and its answer dropped; reads mutate nothing, so a stranded one costs the
 * reader a slot for its own duration and no more. A read that fails rejects the whole wait.
 */
export async function boundedWait<Item, Outputs>(
  options: BoundedWaitOptions<Item, Outputs>,
): Promise<BoundedWaitResult<Item, Outputs>> {
  const timeoutMs = positive('timeoutMs', options.timeoutMs);
  const capMs = positive('capMs', options.capMs ?? WAIT_CAP_MS);
  const pollIntervalMs = positive('pollIntervalMs', options.pollIntervalMs);
  const minTimeoutMs = positive('minTimeoutMs', options.minTimeoutMs ?? MIN_TIMEOUT_MS);
  const { clock, sleep, readList, isDone, readOutputs } = options;

  const startedAt = clock();
  const deadline = startedAt + Math.min(timeoutMs, capMs);

  // Races one await against the deadline; null when the deadline came first. The work starts
  // before the deadline's timer, so work due at the deadline itself wins the tie. One controller
  // per race releases whichever timer lost (a deadline or a poll sleep), so none holds the
  // process open.
  async function beforeDeadline<T>(start: (signal: AbortSignal) => Promise<T>): Promise<{ value: T } | null> {
    const release = new AbortController();
    try {
      return await Promise.race([
        start(release.signal).then((value) => ({ value })),
        sleep(deadline - clock(), release.signal).then(() => null),
      ]);
    } finally {
      release.abort();
    }
  }

  let list: Item[] | null = null;
  let done = false;
  let polls = 0;
  // The slowest list read of this call so far: the best measure of what the next read, and the
  // final read, will cost now; it grows exactly when the reader is congested.
  let reserveMs = 0;

  // One poll and the sleep after it; true when another poll is worth making. A loop that asks
  // this, rather than a loop with exits in its body, cannot spin without awaiting.
  async function pollOnce(): Promise<boolean> {
    const readAt = clock();
    const read = await beforeDeadline(() => readList());
    if (read === null) return false;
    reserveMs = Math.max(reserveMs, clock() - readAt);
    list = read.value;
    polls += 1;
    done = isDone(list);
    if (done) return false;
    // Stop rule: poll again only while what is left exceeds 2 * reserveMs (one more read plus
    // the final read), and sleep at most the excess, so the next read starts with that reserve
    // still in hand. With nothing to spare, stop now and keep the rest for the final read.
    const spareMs = deadline - clock() - 2 * reserveMs;
    if (spareMs <= 0) return false;
    await beforeDeadline((signal) => sleep(Math.min(pollIntervalMs, spareMs), signal));
    return true;
  }
  while (await pollOnce());

  // The final read is started only if what is left covers the reserve: a reply held open for
  // a read that cannot finish in time is the failure this cap exists to prevent.
  const lastList = list;
  const outputs =
    lastList !== null && deadline - clock() >= reserveMs
      ? await beforeDeadline(() => readOutputs(lastList))
      : null;

  const elapsedMs = clock() - startedAt;
  const result: BoundedWaitResult<Item, Outputs> = { list, done, elapsedMs, polls };
  if (outputs === null) result.outputsUnavailable = true;
  else result.outputs = outputs.value;
  if (list === null) result.agentsUnavailable = true;
  // Charged with real elapsed time, final read included, so it is what the next call passes as
  // timeoutMs. Below the schema minimum it would be rejected, and rounding it up would grant
  // budget the caller never had: omitted, which already means the budget is spent.
  const remainingMs = timeoutMs - elapsedMs;
  if (!done && remainingMs >= minTimeoutMs) result.remainingMs = remainingMs;
  return result;
}
