// Workbench time. Every duration a tool shows or takes (job lengths, the wait cap, poll
// intervals, log timestamps, added latency, listing stalls) is in workbench milliseconds;
// `timeFactor` says how long one of them lasts in real time. At 0.01 a rung keeps its shape
// (a 45 s job is still longer than the 30 s cap, and `remainingMs` is still a legal
// `timeoutMs`) and runs a hundred times faster, which is how CI runs the long-wait rungs.
import { setTimeout as delay } from 'node:timers/promises';
import type { Clock, Sleep } from '../reliability/clock.ts';

export interface WorkbenchTime {
  /** Workbench milliseconds since the workbench started. */
  now: Clock;
  /** Waits `ms` workbench milliseconds. */
  sleep: Sleep;
  readonly timeFactor: number;
  /** Real milliseconds that `ms` workbench milliseconds last. */
  toReal(ms: number): number;
}

/** Real time: `Date.now` and a timer that rejects when its signal aborts. */
export const realClock: Clock = () => Date.now();
export const realSleep: Sleep = async (ms, signal) => {
  await delay(Math.max(0, ms), undefined, signal ? { signal } : undefined);
};

export function workbenchTime(clock: Clock, sleep: Sleep, timeFactor: number): WorkbenchTime {
  if (!(timeFactor > 0) || !Number.isFinite(timeFactor)) {
    throw new RangeError(`timeFactor must be a positive number, got ${String(timeFactor)}`);
  }
  const start = clock();
  return {
    now: () => (clock() - start) / timeFactor,
    sleep: (ms, signal) => sleep(ms * timeFactor, signal),
    timeFactor,
    toReal: (ms) => ms * timeFactor,
  };
}
