// One resource and one prompt that describe the workbench. Clients that browse resources or
// prompts find something true there, and the resources and prompts lists are real (the
// conformance suite lists both).
import type { McpServer } from '../mcp/types.ts';

export const GUIDE_URI = 'ladder://workbench/guide';

const GUIDE = `# Ladder workbench

A workspace with tools that fail the way production tools fail.

- files_list, files_read, files_write, files_edit: the workspace's files; paths are relative to it.
- catalog_search, catalog_lookup: documentation; answers never change for the same question.
- sql_describe, sql_query, sql_execute: the workspace's SQLite database.
- logs_read: the service log; it grows while the workbench runs.
- jobs_start, jobs_list, jobs_wait: background jobs; one jobs_wait call waits at most 30 s.
- browser_navigate: pages of the review site, through an upstream that can be down.
- release_publish: appears once the build has finished.
`;

export function registerGuide(server: McpServer): void {
  server.registerResource(
    'workbench-guide',
    GUIDE_URI,
    { title: 'Workbench guide', description: 'What the workbench offers and how its tools behave.', mimeType: 'text/markdown' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: GUIDE }] }),
  );
  server.registerPrompt(
    'workbench_overview',
    { title: 'Workbench overview', description: 'Introduces the workbench and its tools before a task.' },
    () => ({
      messages: [{ role: 'user', content: { type: 'text', text: `${GUIDE}\nRead the task, then use these tools to do it.` } }],
    }),
  );
}
