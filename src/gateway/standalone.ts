// `ladder gateway`: one long-lived lane in front of a client's servers, served as one MCP
// server. The arm's mechanisms apply exactly as in a run; what a run's step gives for free, a
// turn, is drawn by the turn policy (turns.ts); upstreams that fail are restarted
// (upstreams.ts); every listing and call is an event, for the trace and for the status.
// Turns are the gateway's, not a session's: with two clients on one HTTP gateway, a boundary
// either draws is a boundary for both (docs/gateway.md says so; one client is the usual case).
import { protocolError } from '../mcp/errors.ts';
import type { LaneTool, ServerConfig } from '../lane/index.ts';
import { describeServer, Lane, ServerStartError } from '../lane/index.ts';
import type { Clock } from '../reliability/index.ts';
import type { Emit, TraceEventInput } from '../trace/index.ts';
import { ToolsChanged } from './mcp/backend.ts';
import type { GatewayAnswer, GatewayBackend, GatewayCallAt, GatewayProgress, ResourcesAndPrompts, UpstreamNotification } from './mcp/backend.ts';
import { PassThrough } from './passThrough.ts';
import type { GatewayStatus, UpstreamStatus } from './status.ts';
import { UpstreamStats } from './status.ts';
import { formatTurnPolicy, TurnClock } from './turns.ts';
import type { TurnPolicy } from './turns.ts';
import { Supervisor } from './upstreams.ts';
import type { SupervisorWorld } from './upstreams.ts';

/**
 * Calls in flight at once, over every client. A client past it gets a JSON-RPC error at once
 * instead of a queue that grows without bound; 64 is eight times what a busy agent sends.
 */
export const MAX_IN_FLIGHT = 64;
/** JSON-RPC's "server error" range, as the SDK's own transport errors use. */
const TOO_MANY_CALLS = -32000;

export interface StandaloneOptions {
  servers: Record<string, ServerConfig>;
  arm: string;
  turns: TurnPolicy;
  /** The trace, when --trace is given. */
  emit?: Emit;
  clock?: Clock;
  /** A seam for tests: the supervisor's wait between restarts. */
  sleep?: SupervisorWorld['sleep'];
  maxInFlight?: number;
  log?: (line: string) => void;
  /** Something the status shows changed. */
  onChange?: () => void;
  /** Deterministic tools by qualified name (`--deterministic`); server hints are trusted. */
  deterministic?: readonly string[];
}

/**
 * The supervisor's wait. Every wait listens on the gateway's one stop signal, so a wait that
 * ends on its timer takes its listener off: kept, each restart left one behind for the
 * gateway's life (the soak's 16 restarts printed Node's MaxListenersExceededWarning).
 */
export const abortableSleep: SupervisorWorld['sleep'] = (ms, signal) => new Promise((resolve, reject) => {
  const stop = (): void => {
    clearTimeout(timer);
    reject(signal.reason);
  };
  const timer = setTimeout(() => {
    signal.removeEventListener('abort', stop);
    resolve();
  }, ms);
  signal.addEventListener('abort', stop, { once: true });
});

export class StandaloneGateway implements GatewayBackend {
  readonly #options: StandaloneOptions;
  readonly #turns: TurnClock;
  readonly #changed = new ToolsChanged();
  readonly #stats = new Map<string, UpstreamStats>();
  readonly #progress = new Map<string, (p: GatewayProgress) => void>();
  readonly #notified = new Set<(notification: UpstreamNotification) => void>();
  /** Resources and prompts, passed through: what the upstreams that started declared. */
  resourcesAndPrompts: ResourcesAndPrompts | undefined;
  readonly #startedAt = new Date().toISOString();
  #lane: Lane | undefined;
  #supervisor: Supervisor | undefined;
  #tools: readonly LaneTool[] = [];
  #turn = 0;
  #callsInTurn = 0;
  #inFlight = 0;
  #opening: Promise<void> | undefined;

  private constructor(options: StandaloneOptions) {
    this.#options = options;
    this.#turns = new TurnClock(options.turns, options.clock ?? Date.now);
    for (const name of Object.keys(options.servers)) this.#stats.set(name, new UpstreamStats());
  }

  /** Starts every upstream; one that does not start is restarted in the background, as one that exits is. */
  static async start(options: StandaloneOptions): Promise<StandaloneGateway> {
    const gateway = new StandaloneGateway(options);
    const clock = options.clock ?? Date.now;
    gateway.#supervisor = new Supervisor(Object.keys(options.servers), () => gateway.#lane, {
      now: clock, sleep: options.sleep ?? abortableSleep, ...(options.onChange === undefined ? {} : { onChange: options.onChange }),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
    const deterministic = new Set(options.deterministic ?? []);
    gateway.#lane = await Lane.connect({
      servers: options.servers,
      arm: options.arm,
      emit: (event) => gateway.#record(event),
      clock,
      deterministic: (name) => deterministic.has(name),
      trustServerHints: true,
      repeats: { scope: 'turn' },
      onProgress: (p) => gateway.#progress.get(`${p.turn}/${p.round}`)?.({ progress: p.progress, ...(p.total === undefined ? {} : { total: p.total }), ...(p.message === undefined ? {} : { message: p.message }) }),
      onServerClosed: (name) => gateway.#supervisor?.down(name, 'its connection closed'),
      // A server's new list reaches the client now, not at the next boundary.
      onToolListChanged: () => void gateway.#openTurn().catch(() => undefined),
      onServerNotification: (_server, notification) => {
        for (const listener of gateway.#notified) listener(notification);
      },
    });
    const upstream = new PassThrough(gateway.#lane);
    gateway.resourcesAndPrompts = {
      offer: upstream.offer(),
      upstream,
      onNotification: (listener) => {
        gateway.#notified.add(listener);
        return () => gateway.#notified.delete(listener);
      },
    };
    for (const error of gateway.#lane.startErrors) gateway.#supervisor.down(error.server, error.message, error.refusal !== undefined);
    return gateway;
  }

  #record(event: TraceEventInput): void {
    if (event.type === 'tool.call') this.#stats.get(event.server)?.record(event.outcome, event.ms);
    this.#options.emit?.(event);
    if (event.type === 'tool.call' || event.type === 'tools.list') this.#options.onChange?.();
  }

  /** Opens a turn (one at a time: two boundaries at once open one turn, not two). */
  #openTurn(): Promise<void> {
    this.#opening ??= (async () => {
      try {
        const turn = await this.#lane!.openTurn();
        this.#turn = turn.turn;
        this.#callsInTurn = 0;
        const changed = JSON.stringify(turn.tools) !== JSON.stringify(this.#tools);
        this.#tools = turn.tools;
        if (changed) this.#changed.fire();
      } finally {
        this.#opening = undefined;
      }
    })();
    return this.#opening;
  }

  async tools(): Promise<readonly LaneTool[]> {
    if (this.#turns.begins({ kind: 'list' }) || this.#turn === 0) await this.#openTurn();
    else await this.#opening;
    return this.#tools;
  }

  onToolsChanged(listener: () => void): () => void {
    return this.#changed.subscribe(listener);
  }

  async call(name: string, args: Record<string, unknown> | undefined, at: GatewayCallAt): Promise<GatewayAnswer> {
    const limit = this.#options.maxInFlight ?? MAX_IN_FLIGHT;
    if (this.#inFlight >= limit) {
      throw protocolError(TOO_MANY_CALLS, `ladder gateway: ${limit} calls are in flight already; send this one when one of them has answered`);
    }
    this.#inFlight += 1;
    try {
      if (this.#turns.begins({ kind: 'call', meta: at.meta }) || this.#turn === 0) await this.#openTurn();
      else await this.#opening;
      // On the wire there are no rounds: a call's round is its place in the turn.
      const round = (this.#callsInTurn += 1);
      const key = `${this.#turn}/${round}`;
      if (at.onProgress !== undefined) this.#progress.set(key, at.onProgress);
      this.#turns.callStarted();
      try {
        const result = await this.#lane!.call(name, args, { round, signal: at.signal });
        if (result.outcome === 'failed' || result.outcome === 'timeout') this.#stats.get(result.server)?.failedWith(result.text);
        return { text: result.text, isError: result.isError, outcome: result.outcome };
      } finally {
        this.#turns.callEnded();
        this.#progress.delete(key);
      }
    } finally {
      this.#inFlight -= 1;
    }
  }

  status(transport: 'stdio' | 'http', url?: string): GatewayStatus {
    const lane = this.#lane;
    const upstreams: UpstreamStatus[] = Object.entries(this.#options.servers).map(([name, config]) => {
      const stats = this.#stats.get(name)!;
      const record = this.#supervisor?.record(name);
      const circuit = lane?.circuitState(name);
      const down = record?.state === 'restarting' || record?.state === 'refused';
      const state = down ? record!.state : circuit === 'open' ? 'circuit open' : circuit === 'half_open' ? 'circuit half-open' : 'up';
      return {
        name, target: describeServer(config), state, protocol: lane?.protocols()[name] ?? null, failures: stats.failures,
        lastError: down ? (record!.lastError ?? null) : (stats.lastError ?? record?.lastError ?? null),
        restarts: record?.restarts ?? 0,
        tools: this.#tools.filter((t) => t.name.startsWith(`${name}__`)).length,
        calls: stats.calls, p95Ms: stats.p95(),
        ...(record?.retryAt === undefined ? {} : { retryAt: new Date(record.retryAt).toISOString() }),
      };
    });
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    return {
      pid: process.pid, startedAt: this.#startedAt, transport, ...(url === undefined ? {} : { url }),
      arm: this.#options.arm, turnPolicy: formatTurnPolicy(this.#options.turns), turn: this.#turn,
      memory: { rss, heapUsed, external, arrayBuffers }, upstreams,
    };
  }

  async close(): Promise<void> {
    this.#supervisor?.stop();
    await this.#lane?.close();
  }
}

export { ServerStartError };
