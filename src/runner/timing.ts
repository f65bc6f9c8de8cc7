// The time factor: one number that scales every duration a rung's shape depends on, so CI
// can run a long-wait rung at 1/100 speed and it still fails (or not) for the same reasons.
// Job durations and the wait cap are scaled inside the workbench (`--time-factor`); the
// client's call timeouts and the step's time limit are scaled here.
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_MAX_TOTAL_TIMEOUT_MS } from '../lane/index.ts';
import type { ServerSpec } from '../rungs/schema.ts';

/**
 * A step's time limit never drops below this: model rounds, process start-up and a loaded
 * machine's scheduling do not get faster with the time factor, only the workbench's clock.
 */
export const MIN_STEP_TIME_LIMIT_MS = 20_000;
/**
 * Nor does a call timeout: at 0.01 the 60 s timeout would be 0.6 s, inside the noise of a busy
 * 2-core machine. A floor only lengthens the timeout, and the cap still bounds every wait.
 */
export const MIN_CALL_TIMEOUT_MS = 5_000;

/**
 * Starting a pass's servers: the workbench runs through tsx (about 1 s of CPU each), and on a
 * loaded 2-core machine four starting at once were measured past the lane's 20 s default.
 */
export const CONNECT_TIMEOUT_MS = 60_000;

export function stepTimeLimitMs(timeLimitS: number, timeFactor: number): number {
  return Math.max(MIN_STEP_TIME_LIMIT_MS, Math.round(timeLimitS * 1000 * timeFactor));
}

/** The MCP SDK's default request timeout, which an arm with `deadline` off keeps (scaled). */
export const SDK_REQUEST_TIMEOUT_MS = 60_000;
/**
 * The scaled SDK timeout's floor for the workbench, whose clock the time factor scales: at 0.01
 * the 60 s are 0.6 s, and a higher floor would let an uncapped wait that outlives the 60 s at
 * real time survive. Half a second still covers a workbench call on a loaded machine (tens of
 * ms measured). A server on real time (any other) keeps MIN_CALL_TIMEOUT_MS, as with the
 * deadline: its calls took 0.1 to 0.6 s on a loaded machine (a git server over HTTP), and at
 * 0.6 s they timed out on the off arm only.
 */
export const MIN_WORKBENCH_PLAIN_TIMEOUT_MS = 500;

/** Call timeouts for an arm with `deadline` on; the lane ignores them when it is off. */
export function callTimeouts(timeFactor: number): { callTimeoutMs: number; maxTotalTimeoutMs: number } {
  return {
    callTimeoutMs: Math.max(MIN_CALL_TIMEOUT_MS, Math.round(DEFAULT_CALL_TIMEOUT_MS * timeFactor)),
    maxTotalTimeoutMs: Math.max(2 * MIN_CALL_TIMEOUT_MS, Math.round(DEFAULT_MAX_TOTAL_TIMEOUT_MS * timeFactor)),
  };
}

/**
 * For an arm with `deadline` off: the SDK's own 60 s scaled with the time factor, per server,
 * so a wait that outlives its reply at real time does so at 0.01 too. The lane ignores it when
 * the deadline is on.
 */
export function plainTimeouts(servers: Readonly<Record<string, ServerSpec>>, timeFactor: number): Record<string, number> {
  const scaled = Math.round(SDK_REQUEST_TIMEOUT_MS * timeFactor);
  return Object.fromEntries(Object.entries(servers).map(([name, spec]) =>
    [name, Math.max('workbench' in spec ? MIN_WORKBENCH_PLAIN_TIMEOUT_MS : MIN_CALL_TIMEOUT_MS, scaled)]));
}
