// The lane's options and what it hands back: the contract the agent loop codes against.
import { WAIT_CAP_MS } from '../reliability/index.ts';
import type { CircuitOptions, Clock, RosterCounters, RosterOptions } from '../reliability/index.ts';
import type { Emit, Outcome } from '../trace/index.ts';
import type { Arm } from './arm.ts';
import type { ServerConfig } from './config.ts';
import type { DeclaredAnswer } from './elicit.ts';

/** A capped wait (30 s) plus its final read and the reply fit twice over: the SDK's own 60 s. */
export const DEFAULT_CALL_TIMEOUT_MS = 2 * WAIT_CAP_MS;
/** Progress may keep a call alive past the timeout, but not past two capped waits and replies. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 4 * WAIT_CAP_MS;
/** A listing is one small request; a server that needs longer is treated as not answering. */
export const DEFAULT_LIST_TIMEOUT_MS = WAIT_CAP_MS;
/** Starting a Node server takes about a second; twenty allows a cold disk and a slow machine. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 20_000;

export interface CallProgress {
  turn: number;
  round: number;
  name: string;
  progress: number;
  total?: number;
  message?: string;
}

export interface LaneOptions {
  servers: Record<string, ServerConfig>;
  /** An Arm, or its text (`on`, `off`, `breaker=off,repeats=on`). Default `on`. */
  arm?: Arm | string;
  emit?: Emit;
  /** Tools declared deterministic by the rung or harness config, by qualified name. */
  deterministic?: (qualifiedName: string) => boolean;
  /** Also treat a tool as deterministic when its server sets `_meta["ladder/deterministic"]`. */
  trustServerHints?: boolean;
  callTimeoutMs?: number;
  maxTotalTimeoutMs?: number;
  /**
   * The one request timeout of a call on an arm with `deadline` off (no total, no progress), by
   * server name: the SDK's own 60 s for a server not named. The runner scales it with the time
   * factor, so a wait that outlives its reply at real time does so at 0.01 too.
   */
  plainTimeoutMs?: Readonly<Record<string, number>>;
  listTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Aborts the servers' start: those still starting are stopped and listed in startErrors. */
  signal?: AbortSignal;
  /** Drives the circuit cool-down and the roster TTL and back-off. Default Date.now. */
  clock?: Clock;
  circuit?: Omit<CircuitOptions, 'clock'>;
  /**
   * `scope: 'turn'` counts identical calls within a turn instead of the whole lane: `ladder
   * gateway`'s lane lives for days and its client's conversations are not a pass, so a
   * short-circuit may point only at an answer of the same turn.
   */
  repeats?: { threshold?: number; scope?: 'pass' | 'turn' };
  roster?: Omit<RosterOptions, 'servers' | 'clock'>;
  onProgress?: (progress: CallProgress) => void;
  /**
   * A server's connection closed on its own (its process exited, its HTTP session dropped).
   * `ladder gateway` restarts it (Lane.reconnect); a run's pass lets its calls fail.
   */
  onServerClosed?: (server: string) => void;
  /** A server said its tool list changed (the next turn re-lists it); `ladder gateway` re-lists at once. */
  onToolListChanged?: (server: string) => void;
  /** Any other notification a server sent (`ladder gateway` forwards resource and prompt ones). */
  onServerNotification?: (server: string, notification: { method: string; params?: Record<string, unknown> }) => void;
  /**
   * Answers to servers' requests for input (src/lane/elicit.ts). Given, even empty, the lane
   * declares elicitation and answers every request, declining what no answer matches; absent,
   * it declares none and a server cannot ask.
   */
  elicit?: readonly DeclaredAnswer[];
}

export interface LaneTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface Turn {
  turn: number;
  /** Fixed for the turn, `harness__refresh_tools` included when offered. */
  tools: LaneTool[];
  counters: RosterCounters;
}

/** Where a call stands in its step: the model's round, its id for the call, the step's stop signal. */
export interface CallAt {
  round: number;
  /** The model's id for the call, recorded so the call joins its tool message in the trace. */
  id?: string;
  /**
   * Aborted when the step must stop. The lane then stops waiting, asks the server to cancel
   * (notifications/cancelled), and answers at once with the call recorded as abandoned, so the
   * caller can wait for that answer before it ends the step.
   */
  signal?: AbortSignal;
}

export interface CallResult {
  text: string;
  isError: boolean;
  outcome: Outcome;
  server: string;
  tool: string;
  /** Hash of the call key, as in the tool.call event. */
  key: string;
}
