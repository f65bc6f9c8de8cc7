// Types of bin/build-state.js for its test.
export const STAMP: string;
export function sourceFiles(root: string): Record<string, [size: number, mtimeMs: number]>;
export function buildState(root: string): 'fresh' | 'missing' | 'stale';
