// An external agent's start-up: from starting its process to its first model request. It is
// measured for every step (an exec agent starts a process per step; an acp agent once, in its
// first step), recorded on step.end as `agentStartupMs`, and not charged to the step's time
// limit up to an allowance: a rung's time limit is about the work, and a time factor of 0.01
// (CI's) shrinks it to the 20 s floor, which a slow-starting agent on a loaded machine can spend
// before it has asked the model anything (docs/agent.md, "Start-up").
import { seconds } from './faults.ts';

/**
 * Start-up not charged to a step's time limit, at most. Measured here: opencode 1.18.33 took
 * about 20 s from spawn to its first model request at concurrency 4 on a loaded 2-core machine
 * (2-17 s of it an offline catalogue fetch its recipe now switches off), Qwen Code 0.24.4 about
 * 7 s of CPU, Claude Code and Codex about 1-2 s. 30 s covers the slowest with room; an agent
 * file may set its own (`startupAllowance`, seconds).
 */
export const STARTUP_ALLOWANCE_MS = 30_000;

/** When things happened in a step, in ms after it started. */
export interface StartupMarks {
  /** The agent's process was started in this step (absent for an acp agent's later steps). */
  spawnedAt?: number | undefined;
  /** The step's first model request reached the model gateway. */
  firstRequestAt?: number | undefined;
}

/**
 * The start-up not charged to the time limit, so far: nothing before the agent is started in
 * the step (or when it was started in an earlier one), the whole allowance while it has made no
 * request yet (it may still need all of it), then its start-up up to the allowance.
 */
export function startupCredit(marks: StartupMarks, allowanceMs: number): number {
  if (marks.spawnedAt === undefined) return 0;
  if (marks.firstRequestAt === undefined) return allowanceMs;
  return Math.min(Math.max(0, marks.firstRequestAt - marks.spawnedAt), allowanceMs);
}

/** When the step's time limit passes, in ms after it started. */
export function stepDeadline(limitMs: number, allowanceMs: number, marks: StartupMarks): number {
  return limitMs + startupCredit(marks, allowanceMs);
}

/**
 * The start-up to record: from the start to the first model request, or to the step's end when
 * the agent never asked the model (it never got past starting); none when it was not started in
 * this step.
 */
export function startupMs(marks: StartupMarks, endedAt: number): number | undefined {
  if (marks.spawnedAt === undefined) return undefined;
  return Math.max(0, (marks.firstRequestAt ?? endedAt) - marks.spawnedAt);
}

/** How a driver's failure line names the limit: with the runner's clock, start-up is not in it. */
export function timeLimitWords(limitMs: number, startupFree: boolean): string {
  return startupFree ? `within the step's time limit (${seconds(limitMs)}, its start-up not counted)` : `within ${seconds(limitMs)} (the step's time limit)`;
}
