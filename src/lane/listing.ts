// Lists one server's tools, following `nextCursor`.
import { listToolsPage } from '../mcp/client.ts';
import type { Client, RequestOptions, Tool } from '../mcp/types.ts';

/**
 * A server whose cursor never ends would otherwise hold the turn forever; 64 pages is far
 * past any real roster (86 tools was the largest in the incidents, on one page).
 */
export const MAX_LIST_PAGES = 64;

/** Every page up to MAX_LIST_PAGES; what the pages held if the cursor runs past that. */
export async function listAllTools(client: Client, options: RequestOptions | undefined): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page += 1) {
    const result = await listToolsPage(client, cursor, options);
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return tools;
}
