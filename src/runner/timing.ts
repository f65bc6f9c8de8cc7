// The time factor: one number that scales every duration a rung's shape depends on, so CI
// can run a long-wait rung at 1/100 speed and it still fails (or not) for the same reasons.
// Job durations and the wait cap are scaled inside the workbench (`--time-factor`); the
// client's call timeouts and the step's time limit are scaled here.
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_MAX_TOTAL_TIMEOUT_MS } from '../lane/index.ts';

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
 * The scaled SDK timeout's floor, far below the deadline's: at 0.01 the 60 s are 0.6 s, and a
 * higher floor would let an uncapped 90 s wait (0.9 s) survive, which it does not at real
 * time. Half a second still covers an ordinary call on a loaded machine (a few ms measured).
 */
export const MIN_PLAIN_TIMEOUT_MS = 500;

/**
 * Call timeouts: `callTimeoutMs` and `maxTotalTimeoutMs` for arms with `deadline` on, and
 * `plainTimeoutMs`, the SDK's own 60 s scaled the same way, for arms with it off.
 */
export function callTimeouts(timeFactor: number): { callTimeoutMs: number; maxTotalTimeoutMs: number; plainTimeoutMs: number } {
  return {
    callTimeoutMs: Math.max(MIN_CALL_TIMEOUT_MS, Math.round(DEFAULT_CALL_TIMEOUT_MS * timeFactor)),
    maxTotalTimeoutMs: Math.max(2 * MIN_CALL_TIMEOUT_MS, Math.round(DEFAULT_MAX_TOTAL_TIMEOUT_MS * timeFactor)),
    plainTimeoutMs: Math.max(MIN_PLAIN_TIMEOUT_MS, Math.round(SDK_REQUEST_TIMEOUT_MS * timeFactor)),
  };
}
