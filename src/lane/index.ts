// The lane: Ladder's MCP client side (docs/lane.md).
export * from './arm.ts';
export * from './config.ts';
export * from './nodeBin.ts';
export { COMPILED, LADDER_VERSION, PACKAGE_ROOT } from './install.ts';
export { Lane } from './lane.ts';
export { hashCallKey } from './callHash.ts';
export * from './types.ts';
export { ServerStartError } from './connections.ts';
export { MAX_LIST_PAGES } from './listing.ts';
