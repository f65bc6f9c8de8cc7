#!/usr/bin/env node
// The `ladder` command. It runs the compiled build (dist/cli.js, which `npm ci` makes through
// `prepare`, or `npm run build`) when that build matches the sources, and otherwise the
// TypeScript sources through tsx's loader: slower to start (about 1.5 s of CPU more), never
// out of date. A person at a terminal is told which; scripts and tests are not.
import { fileURLToPath } from 'node:url';
import { buildState } from './build-state.js';

const state = buildState(fileURLToPath(new URL('..', import.meta.url)));
if (state === 'fresh') {
  await import('../dist/cli.js');
} else {
  if (process.stderr.isTTY) {
    const why = state === 'missing' ? 'there is no build in dist/' : 'src/ changed since the last build';
    process.stderr.write(`ladder: ${why}; running the TypeScript sources (slower to start). npm run build makes it fast again.\n`);
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
