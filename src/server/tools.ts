// Every tool family, registered on one McpServer. The names are listed here once so faults
// can be checked against them before any server exists.
import { registerBrowser } from './browser.ts';
import { registerCatalog } from './catalog.ts';
import { registerFiles } from './files.ts';
import { registerJobs } from './jobs.ts';
import { registerLogs } from './logs.ts';
import { registerRelease } from './release.ts';
import { registerSql } from './sql.ts';
import type { ToolHost } from './tool.ts';

export const TOOL_NAMES = [
  'files_list',
  'files_read',
  'files_write',
  'files_edit',
  'catalog_search',
  'catalog_lookup',
  'sql_describe',
  'sql_query',
  'sql_execute',
  'logs_read',
  'jobs_start',
  'jobs_list',
  'jobs_wait',
  'browser_navigate',
  'release_publish',
] as const;

/** Registers every family; returns what to undo when this server goes away. */
export function registerTools(host: ToolHost): () => void {
  registerFiles(host);
  registerCatalog(host);
  registerSql(host);
  registerLogs(host);
  registerJobs(host);
  registerBrowser(host);
  return registerRelease(host);
}
