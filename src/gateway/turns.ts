// What a turn is on a long-lived client session (docs/lane.md, "Turns on a long-lived session").
// MCP has no turn on the wire: a client sends tools/list and tools/call, nothing says where a
// user's request began. What real clients send, looked at before choosing: the MCP inspector CLI
// opens one session per command (initialize, tools/list, close; a tools/call command lists
// first to convert its arguments by the schema, test/gateway/inspector.test.ts); Codex lists
// the tools when a session starts and then only calls; the SDK client lists when its owner
// asks and again after notifications/tools/list_changed; Claude Code lists at start and on
// list_changed. So three boundaries, each switchable (`--turn`):
// - `list`: a tools/list request begins a turn (a client lists when it starts or re-plans);
// - `meta`: a request whose `_meta["ladder/turn"]` differs from the turn's begins one, for a
//   harness that can say where its turns are (the exact form, when a client sends it);
// - `idle=<s>`: a call after that long with nothing in flight begins one. 60 s by default:
//   calls inside one model turn come seconds apart (a model's round trip, 1 to 20 s in the
//   traces this project has), while a person reads and types between turns.
// The first request of the gateway's life opens the first turn whatever the policy.
import type { Clock } from '../reliability/index.ts';

export const TURN_META_KEY = 'ladder/turn';
export const DEFAULT_IDLE_MS = 60_000;

export interface TurnPolicy {
  list: boolean;
  meta: boolean;
  /** Undefined: no idle boundary. */
  idleMs: number | undefined;
}

export const DEFAULT_TURN_POLICY: TurnPolicy = { list: true, meta: true, idleMs: DEFAULT_IDLE_MS };

export class TurnPolicyError extends Error {
  override readonly name = 'TurnPolicyError';
}

/** `list,meta,idle=60` (seconds; `idle=0` or leaving it out: no idle boundary). */
export function parseTurnPolicy(text: string): TurnPolicy {
  const policy: TurnPolicy = { list: false, meta: false, idleMs: undefined };
  for (const part of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const idle = /^idle=(\d+(?:\.\d+)?)s?$/.exec(part);
    if (part === 'list') policy.list = true;
    else if (part === 'meta') policy.meta = true;
    else if (idle !== null) policy.idleMs = Number(idle[1]) > 0 ? Number(idle[1]) * 1000 : undefined;
    else throw new TurnPolicyError(`--turn ${text}: "${part}" is not list, meta or idle=<seconds>; e.g. --turn list,meta,idle=60`);
  }
  if (!policy.list && !policy.meta && policy.idleMs === undefined) {
    throw new TurnPolicyError(`--turn ${text}: no boundary left, so the whole session would be one turn; give at least one of list, meta, idle=<seconds>`);
  }
  return policy;
}

export function formatTurnPolicy(policy: TurnPolicy): string {
  return [policy.list ? 'list' : '', policy.meta ? 'meta' : '', policy.idleMs === undefined ? '' : `idle=${policy.idleMs / 1000}`]
    .filter((p) => p !== '').join(',');
}

export interface TurnRequest {
  kind: 'list' | 'call';
  meta?: Record<string, unknown> | undefined;
}

/** Decides, request by request, where turns begin. No timers: idleness is read off the clock. */
export class TurnClock {
  readonly #policy: TurnPolicy;
  readonly #clock: Clock;
  #started = false;
  #meta: string | undefined;
  #inFlight = 0;
  #lastActive = 0;

  constructor(policy: TurnPolicy, clock: Clock) {
    this.#policy = policy;
    this.#clock = clock;
  }

  /** True when this request begins a new turn; call once per request, before it is handled. */
  begins(request: TurnRequest): boolean {
    const now = this.#clock();
    const value = request.meta?.[TURN_META_KEY];
    const meta = value === undefined ? undefined : JSON.stringify(value);
    const idle = this.#policy.idleMs !== undefined && this.#inFlight === 0 && now - this.#lastActive >= this.#policy.idleMs;
    const begins = !this.#started
      || (this.#policy.list && request.kind === 'list')
      || (this.#policy.meta && meta !== undefined && meta !== this.#meta)
      || (request.kind === 'call' && idle);
    this.#started = true;
    if (meta !== undefined) this.#meta = meta;
    this.#lastActive = now;
    return begins;
  }

  /** A call went out; idleness is not counted while one is in flight. */
  callStarted(): void {
    this.#inFlight += 1;
  }

  callEnded(): void {
    this.#inFlight -= 1;
    this.#lastActive = this.#clock();
  }
}
