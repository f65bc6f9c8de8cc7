// Opening a turn's roster: list what the cache asks for, record each result, assemble.
import { MODERN_REVISION } from '../mcp/protocols.ts';
import type { RequestOptions, Tool } from '../mcp/types.ts';
import { REFRESH_DESCRIPTION, REFRESH_TOOL } from '../reliability/index.ts';
import type { RosterCache, TurnRoster } from '../reliability/index.ts';
import { LaneConfigError } from './config.ts';
import type { Connection } from './connections.ts';
import { listAllTools } from './listing.ts';

export interface RosterInput {
  cache: RosterCache<Tool>;
  connections: ReadonlyMap<string, Connection>;
  requestOptions: RequestOptions | undefined;
}

/**
 * Lists, in parallel, the servers the cache plans to re-list and that are connected (a server
 * that never started has nothing to list and costs no round trip), then assembles the turn.
 */
export async function openRoster(input: RosterInput): Promise<{ roster: TurnRoster<Tool>; failed: string[] }> {
  const { cache, connections, requestOptions } = input;
  const planned = cache.planListing().filter((server) => connections.has(server));
  const listings = await Promise.all(
    planned.map((server) => {
      const connection = connections.get(server)!;
      return listAllTools(connection.client, requestOptions).then(
        (listing) => ({ server, listing, modern: connection.protocol === MODERN_REVISION }),
        () => ({ server, listing: undefined, modern: false }),
      );
    }),
  );
  const failed: string[] = [];
  for (const { server, listing, modern } of listings) {
    if (listing === undefined) {
      failed.push(server);
      cache.listingFailed(server);
    } else {
      // The caching hint is the 2026-07-28 revision's: there an absent or non-positive ttlMs
      // means immediately stale (0); a 2025 listing has no hint, whatever it carries.
      cache.listed(server, listing.tools, modern ? Math.max(0, listing.ttlMs ?? 0) : undefined);
    }
  }
  try {
    return { roster: cache.assemble(planned), failed };
  } catch (error) {
    // Two tools under one name: the roster refuses to pick one, and so does the lane.
    throw new LaneConfigError((error as Error).message);
  }
}

export function refreshTool(): { name: string; description: string; inputSchema: Record<string, unknown> } {
  return { name: REFRESH_TOOL, description: REFRESH_DESCRIPTION, inputSchema: { type: 'object', properties: {} } };
}
