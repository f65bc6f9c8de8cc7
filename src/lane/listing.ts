// Lists one server's tools, following `nextCursor`.
import { listToolsPage } from '../mcp/client.ts';
import type { Client, RequestOptions, Tool } from '../mcp/types.ts';

/**
 * A server whose cursor never ends would otherwise hold the turn forever; 64 pages is far
 * past any real roster (86 tools was the largest in the incidents, on one page).
 */
export const MAX_LIST_PAGES = 64;

export interface Listing {
  tools: Tool[];
  /** The first page's `ttlMs` (the 2026-07-28 revision's caching hint), when it is a number. */
  ttlMs: number | undefined;
}

/** Every page up to MAX_LIST_PAGES; what the pages held if the cursor runs past that. */
export async function listAllTools(client: Client, options: RequestOptions | undefined): Promise<Listing> {
  const tools: Tool[] = [];
  let ttlMs: number | undefined;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const result = await listToolsPage(client, cursor, options);
    if (page === 0) {
      const hint = (result as { ttlMs?: unknown }).ttlMs;
      ttlMs = typeof hint === 'number' ? hint : undefined;
    }
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return { tools, ttlMs };
}
