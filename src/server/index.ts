// The workbench MCP server: the factory, its options, and the transports that serve it.
export { createWorkbench, SERVER_NAME, SERVER_VERSION, type Workbench } from './workbench.ts';
export { FaultsSchema, parseFaults, type Faults, type FaultsInput, type WorkbenchOptions } from './options.ts';
export { UPSTREAM_CLOSED_ERROR } from './faults.ts';
export { LISTING_FAILED_MESSAGE } from './listingFaults.ts';
export { TOOL_NAMES } from './tools.ts';
export { RELEASE_TOOL, RELEASE_RECORD } from './release.ts';
export { serveHttp, type HttpServeOptions, type HttpServing } from './http.ts';
export { serveStdio } from './stdio.ts';
export { runServe, type ServeOptions } from './serve.ts';
