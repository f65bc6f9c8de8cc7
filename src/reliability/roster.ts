// The pure part of the roster cache: what is cached per server, which servers a turn
// re-lists, and the counters a listing reports (README, "The reliability layer").
import type { Clock } from './clock.ts';
import { qualify, validateServerName } from './naming.ts';

/** One tool as a server listed it; the cache does not look inside beyond the name. */
export interface ListedTool {
  name: string;
  [field: string]: unknown;
}

/** A tool as offered to the model: `server__tool`, with the server's own name kept. */
export interface OfferedTool<T extends ListedTool = ListedTool> {
  name: string;
  server: string;
  tool: T;
}

/**
 * What one turn's listing reports. `reached` alone cannot tell a warm cache from a roster
 * where every server is backing off (both make no round trip), which is why `registered`,
 * `unavailable` and `cached` sit beside it.
 */
export interface RosterCounters {
  /** Servers in the configuration. */
  configured: number;
  /** Servers a listing was sent to this turn, whatever its result. */
  reached: number;
  /** Of `reached`, those whose listing succeeded this turn. */
  listed: number;
  /** Servers whose tools are offered this turn (at least one tool, fresh or cached). */
  registered: number;
  /** Servers offering nothing this turn: `configured - registered`. */
  unavailable: number;
  /** Of `registered`, those offered without a round trip this turn. */
  cached: number;
}

/**
 * Which rule decided a server's listing as a turn opened, the cache's telemetry:
 * - `stale`: never listed, or marked stale (`list_changed`, a refresh, a reconnect): listed.
 * - `backoff`: its last listing failed and its back-off has not ended: not listed.
 * - `server-ttl`: within the positive `ttlMs` its last listing carried: cached.
 * - `server-ttl-expired`: that `ttlMs` has passed: listed.
 * - `server-zero`: its last listing said `ttlMs: 0` (or none, in the 2026-07-28 era: immediately
 *   stale), and the cache complies (`zeroTtl: 'strict'`): listed every turn.
 * - `own-ttl`: within the cache's own TTL (a 2025 listing, which has no `ttlMs`, or a `ttlMs: 0`
 *   under the default `zeroTtl: 'own'`): cached.
 * - `own-ttl-expired`: the cache's own TTL has passed: listed.
 */
export type ListingRule = 'stale' | 'backoff' | 'server-ttl' | 'server-ttl-expired' | 'server-zero' | 'own-ttl' | 'own-ttl-expired';

export interface RosterOptions {
  servers: string[];
  /** Default 3_600_000 (one hour). > 0. */
  ttlMs?: number;
  /**
   * What a listing that says it is immediately stale (`ttlMs` 0, or none in the 2026-07-28 era)
   * gets. `own` (default): the cache's own TTL, a documented departure from the specification
   * (docs/lane.md, "The roster cache and ttlMs"). `strict`: it is listed again every turn.
   */
  zeroTtl?: 'own' | 'strict';
  /** First back-off after a failed listing; doubles per consecutive failure. Default 5_000. > 0. */
  backoffBaseMs?: number;
  /** Default 300_000. >= backoffBaseMs. */
  backoffMaxMs?: number;
  clock?: Clock;
}

export interface TurnRoster<T extends ListedTool = ListedTool> {
  /** Fixed for the turn: later cache changes never alter it. */
  tools: readonly OfferedTool<T>[];
  counters: RosterCounters;
  /** Per configured server, the rule that decided its listing as the turn opened (planListing). */
  rules: Readonly<Record<string, ListingRule>>;
  /** `harness__refresh_tools` is offered if and only if `tools` is non-empty. */
  refreshOffered: boolean;
}

/** The description the model reads for `harness__refresh_tools`. */
export const REFRESH_DESCRIPTION =
  'Asks for every MCP server to be listed again. It does not change the tools you can use ' +
  'in this turn: this turn keeps the tool list it started with, and the next turn starts ' +
  'with a fresh listing. Call it when a tool you expected is missing or looks out of date.';

// A server's tool surface rarely changes; an hour bounds how long a change goes unseen
// when no `tools/list_changed` notification arrives.
const DEFAULT_TTL_MS = 3_600_000;
// Short enough that a server restarting is noticed within a few turns...
const DEFAULT_BACKOFF_BASE_MS = 5_000;
// ...and capped so a server that stays down is still tried every five minutes.
const DEFAULT_BACKOFF_MAX_MS = 300_000;
// A server's own ttlMs is honoured up to a day (the MCP SDK's response cache caps it so too):
// a listing cannot be pinned for ever.
export const MAX_SERVER_TTL_MS = 86_400_000;

interface Entry<T> {
  /** From the last successful listing; kept when a later listing fails. */
  tools: readonly T[];
  listedAt: number;
  /** Starts true: a server never listed has nothing fresh to offer. */
  stale: boolean;
  /** The `ttlMs` its last listing carried (0: immediately stale); undefined for a 2025 listing. */
  serverTtlMs: number | undefined;
  /** Consecutive failed listings. */
  failures: number;
  /** No listing is attempted before this time. */
  retryAt: number;
}

/** The rules under which a turn's opening sends a listing. */
const LISTED_BY: ReadonlySet<ListingRule> = new Set(['stale', 'server-ttl-expired', 'server-zero', 'own-ttl-expired']);

function positive(field: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`roster option ${field} must be > 0, got ${value}`);
  return value;
}

/**
 * Fatal, because degrading past a collision would silently drop whichever tool lost. No
 * check for the reserved `harness__` prefix is needed here: `harness` is refused as a server
 * name and server names hold no `_`, so a qualified name always starts with its own server.
 */
function assertUniqueNames(tools: readonly OfferedTool[]): void {
  const seen = new Map<string, OfferedTool>();
  for (const offered of tools) {
    const first = seen.get(offered.name);
    if (first !== undefined) {
      throw new Error(
        `tool name collision: server "${first.server}" tool ${JSON.stringify(first.tool.name)} and ` +
          `server "${offered.server}" tool ${JSON.stringify(offered.tool.name)} are both named ` +
          `"${offered.name}"; rename one of them or remove the server`,
      );
    }
    seen.set(offered.name, offered);
  }
}

export class RosterCache<T extends ListedTool = ListedTool> {
  readonly #servers: readonly string[];
  readonly #entries = new Map<string, Entry<T>>();
  readonly #ttlMs: number;
  readonly #backoffBaseMs: number;
  readonly #backoffMaxMs: number;
  readonly #clock: Clock;
  readonly #zeroTtl: 'own' | 'strict';
  /** Servers whose listing succeeded since the last `assemble`, i.e. during this turn. */
  readonly #listedThisTurn = new Set<string>();
  /** The rules of the last planListing, reported by the next assemble. */
  #rules: Record<string, ListingRule> = {};

  constructor(options: RosterOptions) {
    this.#ttlMs = positive('ttlMs', options.ttlMs ?? DEFAULT_TTL_MS);
    this.#backoffBaseMs = positive('backoffBaseMs', options.backoffBaseMs ?? DEFAULT_BACKOFF_BASE_MS);
    this.#backoffMaxMs = options.backoffMaxMs ?? DEFAULT_BACKOFF_MAX_MS;
    if (!(this.#backoffMaxMs >= this.#backoffBaseMs)) {
      throw new RangeError(
        `roster option backoffMaxMs must be >= backoffBaseMs (${this.#backoffBaseMs}), got ${this.#backoffMaxMs}`,
      );
    }
    this.#clock = options.clock ?? Date.now;
    this.#zeroTtl = options.zeroTtl ?? 'own';
    for (const server of options.servers) {
      validateServerName(server);
      if (this.#entries.has(server)) {
        throw new Error(`server name "${server}" is configured twice: give each server its own name`);
      }
      this.#entries.set(server, { tools: [], listedAt: 0, stale: true, serverTtlMs: undefined, failures: 0, retryAt: -Infinity });
    }
    this.#servers = [...this.#entries.keys()];
  }

  /** Servers to re-list as a turn opens: never listed, stale or expired, and not backing off. */
  planListing(): string[] {
    const now = this.#clock();
    this.#rules = Object.fromEntries(this.#servers.map((server) => [server, this.#rule(this.#entry(server), now)]));
    return this.#servers.filter((server) => LISTED_BY.has(this.#rules[server]!));
  }

  #rule(entry: Entry<T>, now: number): ListingRule {
    if (now < entry.retryAt) return 'backoff';
    if (entry.stale) return 'stale';
    const age = now - entry.listedAt;
    const { serverTtlMs } = entry;
    if (serverTtlMs !== undefined && serverTtlMs > 0) {
      return age < Math.min(serverTtlMs, MAX_SERVER_TTL_MS) ? 'server-ttl' : 'server-ttl-expired';
    }
    if (serverTtlMs !== undefined && this.#zeroTtl === 'strict') return 'server-zero';
    return age < this.#ttlMs ? 'own-ttl' : 'own-ttl-expired';
  }

  /**
   * Records a successful listing. `serverTtlMs` is the `ttlMs` it carried in the 2026-07-28 era
   * (0 when it said none: immediately stale); undefined for a 2025 listing, which has none.
   */
  listed(server: string, tools: T[], serverTtlMs?: number): void {
    const entry = this.#entry(server);
    entry.tools = [...tools];
    entry.listedAt = this.#clock();
    entry.stale = false;
    entry.serverTtlMs = serverTtlMs;
    entry.failures = 0;
    entry.retryAt = -Infinity;
    this.#listedThisTurn.add(server);
  }

  /** Keeps the cached tools (they are still offered) and backs off before the next attempt. */
  listingFailed(server: string): void {
    const entry = this.#entry(server);
    entry.failures += 1;
    const delay = Math.min(this.#backoffMaxMs, this.#backoffBaseMs * 2 ** (entry.failures - 1));
    entry.retryAt = this.#clock() + delay;
  }

  markStale(server: string): void {
    this.#entry(server).stale = true;
  }

  markAllStale(): void {
    for (const server of this.#servers) this.markStale(server);
  }

  /**
   * What `harness__refresh_tools` does when called during `turn`: marks every server stale and
   * returns the text for the model, which says this turn keeps its list. When the turn was
   * offered no tools it refuses with a text saying so and marks nothing.
   */
  refresh(turn: TurnRoster<T>): { ok: boolean; text: string } {
    if (turn.tools.length === 0) {
      // An empty roster is the no-tool configuration; a refresh there would claim a
      // capability with nothing behind it.
      return {
        ok: false,
        text: 'Not refreshed: this turn was offered no tools, so there is no tool list to refresh.',
      };
    }
    this.markAllStale();
    const count = this.#servers.length;
    return {
      ok: true,
      text:
        `Marked ${count} ${count === 1 ? 'server' : 'servers'} to be listed again when the next turn opens. ` +
        'This turn still sees the tool list it started with; any change shows up only in the next turn.',
    };
  }

  /**
   * The turn's roster after the planned listings were recorded. `reached` are the servers a
   * listing was sent to this turn (whatever its result).
   */
  assemble(reached: string[]): TurnRoster<T> {
    const reachedThisTurn = new Set(reached);
    for (const server of reachedThisTurn) this.#entry(server); // throws on a name not configured
    const registered = this.#servers.filter((server) => this.#entry(server).tools.length > 0);
    const counters: RosterCounters = {
      configured: this.#servers.length,
      reached: reachedThisTurn.size,
      listed: [...reachedThisTurn].filter((server) => this.#listedThisTurn.has(server)).length,
      registered: registered.length,
      unavailable: this.#servers.length - registered.length,
      cached: registered.filter((server) => !reachedThisTurn.has(server)).length,
    };
    this.#listedThisTurn.clear();
    const rules = Object.freeze(this.#rules);
    this.#rules = {};
    const tools = Object.freeze(registered.flatMap((server) => this.#offer(server)));
    assertUniqueNames(tools);
    return Object.freeze({ tools, counters: Object.freeze(counters), rules, refreshOffered: tools.length > 0 });
  }

  #offer(server: string): OfferedTool<T>[] {
    return this.#entry(server).tools.map((tool) => Object.freeze({ name: qualify(server, tool.name), server, tool }));
  }

  #entry(server: string): Entry<T> {
    const entry = this.#entries.get(server);
    if (entry === undefined) throw new Error(`roster: server "${server}" is not configured`);
    return entry;
  }
}
