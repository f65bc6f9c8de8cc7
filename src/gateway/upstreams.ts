// Upstreams that fail and come back. A server whose connection closes on its own (a stdio
// process that exited, an HTTP session that dropped) or that never started is connected again
// with back-off, in the background, so none of it blocks calls to the other servers. Meanwhile
// its tools stay listed: a call to it is answered "restarting" by the lane, and after three
// failures its circuit opens and says when to retry, as in a run. A server that refused the MCP
// revision Ladder offered it (lane/refusal.ts) is not restarted: it would answer the same.
import type { Lane } from '../lane/index.ts';
import { ServerStartError } from '../lane/index.ts';

/** The first retry after a second: a crashed server is usually back at once. */
const FIRST_BACKOFF_MS = 1_000;
/** Doubling up to a minute: a server down for good costs one start a minute, not a loop. */
const MAX_BACKOFF_MS = 60_000;

export type UpstreamState = 'up' | 'restarting' | 'refused';

export interface UpstreamRecord {
  state: UpstreamState;
  restarts: number;
  /** The last reason it was down, one line; secrets are not in it (ServerStartError leaves env and headers out). */
  lastError?: string;
  /** When the next start is tried, while restarting (ms on the gateway's clock). */
  retryAt?: number;
}

export interface SupervisorWorld {
  now: () => number;
  /** Waits, cancellably; a seam for tests. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  onChange?: () => void;
  log?: (line: string) => void;
}

export class Supervisor {
  readonly #lane: () => Lane | undefined;
  readonly #world: SupervisorWorld;
  readonly #records = new Map<string, UpstreamRecord>();
  readonly #restarting = new Set<string>();
  readonly #stop = new AbortController();

  constructor(servers: readonly string[], lane: () => Lane | undefined, world: SupervisorWorld) {
    this.#lane = lane;
    this.#world = world;
    for (const name of servers) this.#records.set(name, { state: 'up', restarts: 0 });
  }

  record(name: string): UpstreamRecord | undefined {
    return this.#records.get(name);
  }

  /**
   * A server is down (closed on its own, or never started): restart it in the background. One
   * that `refused` the protocol stays down, with the refusal as its last error.
   */
  down(name: string, why: string, refused = false): void {
    const record = this.#records.get(name);
    if (record === undefined || this.#stop.signal.aborted) return;
    record.lastError = why;
    if (refused) {
      record.state = 'refused';
      this.#world.log?.(`gateway: server ${name} ${why.replace(/^server "[^"]*" /, '')}`);
      this.#world.onChange?.();
      return;
    }
    record.state = 'restarting';
    this.#world.log?.(`gateway: server ${name} is down (${why}); restarting`);
    this.#world.onChange?.();
    if (this.#restarting.has(name)) return;
    this.#restarting.add(name);
    void this.#restart(name, record).finally(() => this.#restarting.delete(name));
  }

  async #restart(name: string, record: UpstreamRecord): Promise<void> {
    let backoff = FIRST_BACKOFF_MS;
    while (!this.#stop.signal.aborted) {
      record.retryAt = this.#world.now() + backoff;
      this.#world.onChange?.();
      try {
        await this.#world.sleep(backoff, this.#stop.signal);
      } catch {
        return;
      }
      const lane = this.#lane();
      if (lane === undefined) return;
      try {
        await lane.reconnect(name);
        record.state = 'up';
        record.restarts += 1;
        delete record.retryAt;
        this.#world.log?.(`gateway: server ${name} is back (restart ${record.restarts})`);
        this.#world.onChange?.();
        return;
      } catch (error) {
        if (this.#stop.signal.aborted) return;
        record.lastError = (error as Error).message;
        if (error instanceof ServerStartError && error.refusal !== undefined) {
          record.state = 'refused';
          delete record.retryAt;
          this.#world.onChange?.();
          return;
        }
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  }

  stop(): void {
    this.#stop.abort();
  }
}
