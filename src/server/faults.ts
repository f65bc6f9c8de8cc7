// Fault decisions for one workbench. Each is a pure function of the seed, the tool and the
// call's index, so a rung with a seed fails on the same calls every pass (prng.ts).
import type { Faults } from './options.ts';
import { chance } from './prng.ts';

/** The error a dead browser upstream answers with, every time, byte for byte. */
export const UPSTREAM_CLOSED_ERROR =
  'browser upstream: MCP session is closed (reconnect failed: upstream "http://127.0.0.1:9222/mcp" ' +
  'answered "notifications/initialized" with 400 Bad Request)';

export function transientError(tool: string): string {
  return `${tool}: temporary failure (503 Service Unavailable); the call had no effect`;
}

export type ListingFault = { kind: 'ok' } | { kind: 'fail' } | { kind: 'stall'; ms: number };

export class FaultPlan {
  readonly #faults: Faults;
  readonly #seed: number;
  readonly #calls = new Map<string, number>();
  #listings = 0;
  #navigations = 0;

  constructor(faults: Faults, seed: number, toolNames: readonly string[]) {
    this.#faults = faults;
    this.#seed = seed;
    const known = new Set([...toolNames, '*']);
    for (const field of ['errorRate', 'failFirst', 'latencyMs', 'dropReply'] as const) {
      for (const name of Object.keys(faults[field])) {
        if (!known.has(name)) {
          throw new RangeError(
            `faults.${field}: unknown tool "${name}"; use one of ${[...known].join(', ')}`,
          );
        }
      }
    }
  }

  /** Counts a call of `tool` and returns its 0-based index among that tool's calls. */
  nextCall(tool: string): number {
    const index = this.#calls.get(tool) ?? 0;
    this.#calls.set(tool, index + 1);
    return index;
  }

  latencyMs(tool: string): number {
    return perTool(this.#faults.latencyMs, tool) ?? 0;
  }

  jobReadMs(): number {
    return this.#faults.jobReadMs;
  }

  /** Whether call `index` of `tool` fails before it does anything. */
  fails(tool: string, index: number): boolean {
    const first = perTool(this.#faults.failFirst, tool) ?? 0;
    if (index < first) return true;
    const rate = perTool(this.#faults.errorRate, tool) ?? 0;
    return rate > 0 && chance(this.#seed, `error:${tool}`, index) < rate;
  }

  /** Whether the reply to call `index` of `tool` is lost after the call has done its work. */
  dropsReply(tool: string, index: number): boolean {
    const rate = perTool(this.#faults.dropReply, tool) ?? 0;
    return rate > 0 && chance(this.#seed, `drop:${tool}`, index) < rate;
  }

  /** Counts a navigation and says whether the upstream is dead for it. */
  navigate(): { dead: boolean } {
    const index = this.#navigations++;
    const dead = this.#faults.deadUpstream;
    if (dead === true) return { dead: true };
    if (dead === false) return { dead: false };
    return { dead: index >= dead.afterCalls };
  }

  /** Counts a `tools/list` request and says what happens to it. */
  nextListing(): ListingFault {
    const index = this.#listings++;
    const listing = this.#faults.listing;
    if (index < listing.failFirst) return { kind: 'fail' };
    if (listing.failRate > 0 && chance(this.#seed, 'listing', index) < listing.failRate) {
      return { kind: 'fail' };
    }
    const stalls = listing.stallFirst === undefined || index < listing.stallFirst;
    if (listing.stallMs > 0 && stalls) return { kind: 'stall', ms: listing.stallMs };
    return { kind: 'ok' };
  }
}

function perTool<T>(settings: Record<string, T>, tool: string): T | undefined {
  return Object.hasOwn(settings, tool) ? settings[tool] : settings['*'];
}
